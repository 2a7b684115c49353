public import Screenplay
import Signage

/// What `screenplay present` shows: its content words (`test-card`,
/// `color RRGGBB`, or a file recognised by extension or content) read and
/// checked, and what the command asks of the content it got.
public enum PresentContent: Equatable, Sendable {
    /// The built-in test card.
    case testCard
    /// A solid color.
    case color(RGBColor)
    /// A GLSL ES fragment shader file (`.frag`, `.glsl`).
    case shader(path: String)
    /// An image file (PNG, JPEG, GIF, WebP, SVG), recognised by content.
    case image(path: String)
    /// A PDF document (`.pdf`, or `%PDF` content).
    case pdf(path: String)
    /// A video file, played by libmpv (`.mp4`, `.mkv`, `.webm`, `.mov`
    /// and more, or any existing file that is no image or PDF: libmpv
    /// decides).
    case video(path: String)
    /// A web page (http://, https://, or a local .html file), shown by WPE WebKit.
    case web(url: String)

    /// Classifies a file path: shaders by extension (case-insensitive),
    /// an existing file by its content (`ContentRecognition`), a missing
    /// one by an image or PDF extension; `nil` for an unsupported kind.
    public static func file(_ path: String) -> PresentContent? {
        switch MediaKind.of(path) {
        case .shader?: .shader(path: path)
        case .web?: .web(url: path)
        case .image?: .image(path: path)
        case .pdf?: .pdf(path: path)
        case .video?: .video(path: path)
        case nil: nil
        }
    }

    /// Supported content, for help and error messages.
    static let kinds =
        "test-card, color RRGGBB, or a .frag/.glsl shader, an image (PNG, JPEG, GIF, WebP, SVG), a PDF or a video file"

    /// Reads the content words; a missing, unsupported or malformed one
    /// exits 64 with `usage`.
    static func parse(_ words: [String], usage: String) throws(UsageError) -> PresentContent {
        func fail(_ message: String) -> UsageError { UsageError(message: message, usage: usage) }
        guard let first = words.first else {
            throw fail("missing content: expected \(kinds)")
        }
        let content: PresentContent
        var used = 1
        switch first {
        case "test-card":
            content = .testCard
        case "color":
            guard words.count >= 2 else { throw fail("missing value for 'color': expected RRGGBB") }
            guard let color = RGBColor(parsing: words[1]) else {
                throw fail("invalid color '\(words[1])': expected RRGGBB or #RRGGBB")
            }
            content = .color(color)
            used = 2
        default:
            guard let file = file(first) else {
                throw fail("unsupported content '\(first)': expected \(kinds)")
            }
            content = file
        }
        if words.count > used { throw fail("unexpected argument '\(words[used])'") }
        return content
    }

    /// What `present` shows, in a few words (systemd's status line).
    var label: String {
        switch self {
        case .testCard: "test card"
        case let .color(color): "colour \(color)"
        case let .shader(path), let .image(path), let .pdf(path), let .video(path), let .web(path): path
        }
    }

    var isVideo: Bool {
        if case .video = self { return true }
        return false
    }
}
