import Foundation

/// What the audience sees.
enum AudienceContent: Equatable, Sendable {
    case page(Int)
    case black
    case white
}
