import Foundation
import Screenplay

/// What `present` shows.
enum ContentKind {
    case testCard
    case color(RGBColor)
    case shader(path: String, source: String)
    case image(path: String)
    case video(path: String, loops: Bool, audio: Bool)
}
