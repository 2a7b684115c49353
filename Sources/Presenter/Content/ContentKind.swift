import Foundation
public import Screenplay

/// What `screenplay present` shows on every external screen, besides a
/// talk: what a `ContentDelegate` draws.
public enum ContentKind: Sendable {
    /// The test card: each screen's name, mode, scale and refresh, its
    /// edges and corners marked.
    case testCard
    /// One colour.
    case color(RGBColor)
    /// A Shadertoy-style fragment shader (its file and source), animated.
    case shader(path: String, source: String)
    /// A picture (PNG, JPEG, SVG, an animated GIF or WebP), fitted.
    case image(path: String)
    /// A video, looped or played once, with or without its sound.
    case video(path: String, loops: Bool, audio: Bool)
    /// A web page: an http(s) URL, or a file:// URL of a local page.
    case web(url: String)

    /// For messages: the file, or what is drawn.
    public var description: String {
        switch self {
        case .testCard: "the test card"
        case let .color(color): "colour \(color)"
        case let .shader(path, _), let .image(path), let .video(path, _, _), let .web(path): path
        }
    }
}
