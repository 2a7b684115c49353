import Dispatch
import Documents
import Foundation
public import Screenplay

/// One playlist item loaded for one panel. A panel switches to an item only
/// once it is ready (decoded and on the GPU; a video, once its first frame
/// is decoded), so the screen never shows a gap: until then the item before
/// stays. Media that load asynchronously call `onChange` when they become
/// ready or fail.
@MainActor
public protocol PlayMedia: AnyObject {
    /// The first frame can be drawn now.
    var isReady: Bool { get }
    /// Why it cannot be shown, once known.
    var failure: String? { get }
    /// Needs a frame every refresh while visible (shader, video, animation).
    var isAnimated: Bool { get }
    /// Its own length, for media that have one (video); nil: the playlist's duration.
    var ownDuration: Double? { get }
    /// Ready or failed after the fact (background decode, first video frame).
    var onChange: (() -> Void)? { get set }
    /// Uploads or compiles for the GPU, before the item's turn; sets `isReady` or `failure`.
    func prepare(in context: DrawingContext)
    /// Draws the item over the whole target; `seconds` since it came on.
    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws
    /// Draws the item alone into `rect` of the target, filling it opaque,
    /// and returns true; false when it has no such way (the region then
    /// draws it through a layer of its own). A video keeps its last
    /// picture at that size, so a region's frame without a new video frame
    /// costs no render by libmpv.
    func draw(in context: DrawingContext, rect: SceneRect, seconds: Double, frame: Int) throws -> Bool
    /// Frees what it holds (textures, programs, decoder).
    func release(from app: Application?)
    /// Its turn has come (a crossfade into it, or a cut): a video starts playing.
    func start()
    /// Asked each refresh while it is the only item on screen: false keeps
    /// the picture (a video frame held for another refresh).
    func refreshIsDue() -> Bool
    /// How a static item whose content changes on its own (a text file
    /// edited, a clock's minute) asks for one frame, instead of a frame
    /// every refresh. Given before `start()`.
    func attach(redraw: @escaping @MainActor () -> Void)
    /// How an item whose need for frames every refresh changes while it
    /// is on screen (a layout whose region begins a crossfade) tells the
    /// panel to run or pause its display link. Given before `start()`.
    func attachAnimationChange(_ animationChanged: @escaping @MainActor () -> Void)
    /// The wall clock was stepped: a clock shows the new time at once.
    func wallClockStepped()
    /// What the last frame drew, for the per-frame `probe` stats line
    /// (`SCREENPLAY_PLAY_PROBE=1`, tests only): a ticker's position and step.
    var probeValues: [String: Any] { get }
}

extension PlayMedia {
    /// None: the playlist's duration.
    public var ownDuration: Double? { nil }
    /// Nothing to start.
    public func start() {}
    /// Every refresh draws.
    public func refreshIsDue() -> Bool { true }
    /// Its content does not change on its own.
    public func attach(redraw: @escaping @MainActor () -> Void) {}
    /// Its need for frames does not change.
    public func attachAnimationChange(_ animationChanged: @escaping @MainActor () -> Void) {}
    /// It shows no time.
    public func wallClockStepped() {}
    /// Nothing to probe.
    public var probeValues: [String: Any] { [:] }
    /// No such way: drawn through a layer.
    public func draw(in context: DrawingContext, rect: SceneRect, seconds: Double, frame: Int) throws -> Bool { false }
}

/// A solid colour.
@MainActor
final class ColorMedia: PlayMedia {
    let color: RGBColor
    init(_ color: RGBColor) { self.color = color }
    var isReady: Bool { true }
    var failure: String? { nil }
    var isAnimated: Bool { false }
    var onChange: (() -> Void)?
    func prepare(in context: DrawingContext) {}
    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws { try context.clear(color) }
    func release(from app: Application?) {}
}

/// A still image, fitted and letterboxed in black.
@MainActor
final class PictureMedia: PlayMedia {
    private var picture: Picture?
    /// Where a file's picture is shared with other panels (nil: its own).
    private var shared: SharedPictures.Key?
    private(set) var isReady = false
    private(set) var failure: String?
    var isAnimated: Bool { false }
    var onChange: (() -> Void)?

    /// The file's picture, shared with every panel showing the same file.
    init(path: String) {
        do {
            (picture, shared) = try SharedPictures.acquire(path: path)
        } catch {
            failure = error.description
        }
    }

    /// Pixels already decoded (a rendered PDF page, the placeholder).
    init(picture: Picture) { self.picture = picture }

    func prepare(in context: DrawingContext) {
        guard let picture, !isReady, failure == nil else { return }
        do {
            try context.prepare(picture)
            isReady = true
        } catch {
            failure = "\(error)"
        }
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        if let picture { try context.drawFitted(picture) }
    }

    /// An opaque picture that fills its region fitted (a photo of the
    /// region's shape) is drawn straight in, with no layer.
    func draw(in context: DrawingContext, rect: SceneRect, seconds: Double, frame: Int) throws -> Bool {
        guard let picture else { return false }
        return try context.drawCovering(picture, in: rect)
    }

    func release(from app: Application?) {
        if let picture { SharedPictures.release(picture, key: shared, from: app) }
        picture = nil
    }
}

/// A PDF page rendered by poppler at the panel's exact pixel size, on a
/// background queue (poppler calls are serialised per document).
@MainActor
final class PDFPageMedia: PlayMedia {
    private var picture: Picture?
    private(set) var isReady = false
    private(set) var failure: String?
    var isAnimated: Bool { false }
    var onChange: (() -> Void)?
    private static let queue = DispatchQueue(label: "screenplay.play.pdf", qos: .userInitiated)

    init(path: String, page: Int, width: Int, height: Int, synchronously: Bool) {
        let render: @Sendable () -> Result<(Int, Int, [UInt8]), DocumentError> = {
            do {
                let document = try PDFDocument.open(path: path)
                let size = document.pageSize(page)
                let fit = fitRect(contentWidth: size.width, contentHeight: size.height, width: width, height: height)
                return .success(
                    (fit.width, fit.height, try document.render(page: page, width: fit.width, height: fit.height)))
            } catch let error as DocumentError {
                return .failure(error)
            } catch {
                return .failure(DocumentError(kind: .renderFailed, description: "\(error)"))
            }
        }
        if synchronously {
            finish(render())
        } else {
            Self.queue.async {
                let result = render()
                DispatchQueue.main.async { MainActor.assumeIsolated { [weak self] in self?.finish(result) } }
            }
        }
    }

    private func finish(_ result: Result<(Int, Int, [UInt8]), DocumentError>) {
        switch result {
        case let .success((w, h, rgba)): picture = Picture(width: w, height: h, rgba: rgba)
        case let .failure(error): failure = error.description
        }
        onChange?()
    }

    func prepare(in context: DrawingContext) {
        guard let picture, !isReady, failure == nil else { return }
        do {
            try context.prepare(picture)
            isReady = true
        } catch {
            failure = "\(error)"
        }
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        if let picture { try context.drawFitted(picture, background: .white) }
    }

    func release(from app: Application?) {
        if let picture { app?.releaseResources(of: picture) }
        picture = nil
    }
}

/// A Shadertoy-style shader, animated every refresh while visible.
@MainActor
final class ShaderMedia: PlayMedia {
    private var shader: FragmentShader?
    private(set) var isReady = false
    private(set) var failure: String?
    var isAnimated: Bool { true }
    var onChange: (() -> Void)?

    init(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            failure = "cannot read it: \(readReason(path))"
            return
        }
        guard let source = String(data: data, encoding: .utf8) else {
            failure = "not a shader: it is not UTF-8 text"
            return
        }
        shader = FragmentShader(source: source, name: path)
    }

    func prepare(in context: DrawingContext) {
        guard let shader, !isReady, failure == nil else { return }
        do {
            try context.prepare(shader)
            isReady = true
        } catch {
            failure = "does not compile: \(error)"
        }
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        if let shader { try context.draw(shader, time: seconds, frame: frame) }
    }

    func release(from app: Application?) {
        if let shader { app?.releaseResources(of: shader) }
        shader = nil
    }
}

/// Shown when every item of a panel's playlist failed: a neutral grey
/// panel that says what is wrong (never black, never the desktop behind).
@MainActor
public final class PlaceholderMedia: PlayMedia {
    /// What is wrong, under "Nothing to play".
    public let message: String
    /// A placeholder saying `message`.
    public init(message: String) { self.message = message }
    /// Always.
    public var isReady: Bool { true }
    /// Never: it is what shows when the rest failed.
    public var failure: String? { nil }
    /// It does not move.
    public var isAnimated: Bool { false }
    /// Never called: it is ready from the start.
    public var onChange: (() -> Void)?
    /// Nothing to upload: text is drawn as it comes.
    public func prepare(in context: DrawingContext) {}
    /// Grey, the title and the message.
    public func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        try context.clear(RGBColor(hex: 0x404040))
        let h = context.pixelHeight
        try context.drawText(
            lines: [("Nothing to play", max(12, h / 14)), (message, max(10, h / 36))], color: RGBColor(hex: 0xe0e0e0))
    }
    /// Holds nothing of the GPU's.
    public func release(from app: Application?) {}
}

/// An item that is known to be unusable before it is loaded (a file libmpv
/// could not open when the playlist was read): skipped with that reason.
@MainActor
final class FailedMedia: PlayMedia {
    let failure: String?
    init(_ reason: String) { failure = reason }
    var isReady: Bool { false }
    var isAnimated: Bool { false }
    var onChange: (() -> Void)?
    func prepare(in context: DrawingContext) {}
    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {}
    func release(from app: Application?) {}
}
