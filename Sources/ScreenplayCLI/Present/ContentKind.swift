import Foundation
import Screenplay

/// What `present` shows.
enum ContentKind {
    case testCard
    case color(RGBColor)
    case shader(path: String, source: String)
    case image(path: String)
    case video(path: String, loops: Bool, audio: Bool)
    /// A web page: an http(s) URL, or a file:// URL of a local page.
    case web(url: String)

    /// For messages: the file, or what is drawn.
    var description: String {
        switch self {
        case .testCard: "the test card"
        case let .color(color): "colour \(color)"
        case let .shader(path, _), let .image(path), let .video(path, _, _), let .web(path): path
        }
    }
}
