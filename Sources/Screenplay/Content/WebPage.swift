import Rendering
import WaylandClient
import Web

/// A web page playing into one scene: WPE WebKit lays it out at a pixel
/// size and the scene's scale in a web process of its own, and its frames
/// arrive on the scene's GLES context (EGLImages bound as textures, or
/// wpebackend-fdo's SHM export with software GL, where a page filling its
/// scene goes to the compositor as it is, and where EGL cannot bind
/// Wayland buffers; see ``WebPage/export``). WebKit's GLib context runs inside Screenplay's one
/// main-thread loop. Draw it with ``DrawingContext/drawWebPage(_:opacity:)`` and
/// call ``close()`` in `sceneDidDisconnect(_:)`.
///
/// Debian 12's WPE WebKit receives no security updates: show only pages
/// you trust.
@MainActor
public final class WebPage {
    /// How frames reach the GL context on this machine.
    public enum Export: Sendable, Equatable {
        /// EGLImages, drawn without a CPU copy.
        case eglImage
        /// Shared memory: with software GL (see ``presentsFillingFramesAsTheyAre``)
        /// or where EGL lacks EGL_WL_bind_wayland_display; one upload per
        /// frame wherever the frame is drawn.
        case sharedMemory
    }

    /// The page's address.
    public let url: String
    /// Called when a frame arrives after the main document committed: the
    /// page has painted.
    public var onPaint: (() -> Void)?
    /// Called for every frame that arrives; when set, the owner asks for
    /// the redraw (of only the page's rectangle, say), else the whole scene
    /// is redrawn.
    public var onFrame: (() -> Void)?
    /// Called when loading fails, with the address and the reason.
    public var onFailure: ((String) -> Void)?
    /// Called when the web process ended (crash, memory limit, request), with the reason in words.
    public var onWebProcessTerminated: ((String) -> Void)?
    /// Called when a navigation outside the allowed origins was refused.
    public var onBlocked: ((String) -> Void)?
    /// Whether a frame of the loaded page arrived.
    public private(set) var hasPainted = false
    /// Frames received from the web process.
    public var framesReceived: Int { view.framesReceived }

    private let view: WebView
    private weak var scene: Scene?
    private var committed = false
    /// What the page is laid out for: device pixels and scale.
    private var layout: (width: Int, height: Int, scale: Double)

    /// Starts loading `url` into a view of `width` x `height` device pixels
    /// (the scene's whole size when nil) at the scene's scale. Navigations
    /// reach only `allowedOrigins` ("https://host[:port]"; empty: any), and
    /// file:// only inside `fileRoot`.
    public init(
        url: String, scene: Scene, width: Int? = nil, height: Int? = nil, allowedOrigins: [String] = [],
        fileRoot: String? = nil
    ) throws(WebPageError) {
        self.url = url
        self.scene = scene
        // The context is made only when a frame must become a texture: a page
        // filling its scene with software GL never needs one.
        let context: @MainActor () throws -> GraphicsContext = { [weak scene] in
            guard let scene else { throw RenderingError.destroyed(what: "scene") }
            return try CurrentContext.preserving { try scene.host.graphics.context() }
        }
        do {
            _ = try WebSetup.initialize(context: context)
            // The web context is made after the backend is loaded, never before.
            if let settings = Self.engineSettings {
                Self.engineSettings = nil
                WebSetup.configure(
                    sandbox: settings.sandbox, memoryLimitMB: settings.memoryLimitMB,
                    readablePath: settings.readablePath)
            }
        } catch {
            throw WebPageError(url: url, reason: "WPE WebKit cannot start: \(error.reason)")
        }
        // The scene keeps GL down until its first frame shows whether the
        // page's frame goes as it is. Counted only once nothing can throw:
        // a page that failed to start is never closed.
        scene.webPageCount += 1
        let scale = max(scene.contentScale, 1)
        layout = (width ?? scene.pixelSize.width, height ?? scene.pixelSize.height, scale)
        view = WebView(
            context: context, width: width ?? scene.pixelSize.width, height: height ?? scene.pixelSize.height,
            scale: scale, allowedOrigins: allowedOrigins.map { $0.lowercased() }, fileRoot: fileRoot)
        view.onLoadEvent = { [weak self] event in if event >= 2 { self?.committed = true } }
        view.onFrame = { [weak self] in self?.frameArrived() }
        view.onFailure = { [weak self] uri, reason in
            self?.onFailure?(uri.isEmpty ? reason : "\(uri): \(reason)")
        }
        view.onTerminated = { [weak self] why in
            let words =
                switch why {
                case .crashed: "the web process crashed or was killed"
                case .exceededMemoryLimit: "the web process exceeded its memory limit"
                case .terminatedByRequest: "the web process was ended on request"
                }
            self?.hasPainted = false
            self?.committed = false
            self?.onWebProcessTerminated?(words)
        }
        view.onBlocked = { [weak self] uri in self?.onBlocked?(uri) }
        // Frames the size of the window go straight into its buffers (software GL).
        view.stagingWindow = { [weak scene] in scene?.sceneSurface.window }
        view.load(url)
    }

    /// The export in use (after the first page started).
    public static var export: Export? {
        switch WebSetup.export {
        case .eglImage?: .eglImage
        case .sharedMemory?: .sharedMemory
        case nil: nil
        }
    }

    /// Whether a frame of a page that fills its scene goes to the
    /// compositor as the page's own pixels, copied once into the scene's
    /// wl_shm buffer and not drawn (software GL, after the first page or
    /// ``checkEngine(on:)``); otherwise frames are drawn as textures.
    public static var presentsFillingFramesAsTheyAre: Bool { WebSetup.staysInSharedMemory }

    /// Settings for every web process, before the first page: WebKit's
    /// bubblewrap sandbox and a memory limit per web process (MB, 0: WebKit's default).
    /// They apply when the first page is made; later calls change nothing.
    public static func configureEngine(sandbox: Bool, memoryLimitMB: Int, readablePath: String? = nil) {
        guard export == nil else { return }
        engineSettings = (sandbox, memoryLimitMB, readablePath)
    }

    private static var engineSettings: (sandbox: Bool, memoryLimitMB: Int, readablePath: String?)?

    /// Whether web processes run in WebKit's bubblewrap sandbox.
    public static var isSandboxed: Bool { WebSetup.isSandboxed }

    /// Loads wpebackend-fdo for `application`'s EGL display, as the first
    /// page would, and says how frames would arrive (`screenplay doctor`).
    /// - Throws: why web pages cannot be shown here.
    public static func checkEngine(on application: Application) throws(WebPageError) -> Export {
        do {
            return
                switch try WebSetup.initialize(context: {
                    try CurrentContext.preserving { try application.graphics.context() }
                })
            {
            case .eglImage: .eglImage
            case .sharedMemory: .sharedMemory
            }
        } catch {
            throw WebPageError(url: "web pages", reason: "WPE WebKit cannot start: \(error.reason)")
        }
    }

    /// Whether a new frame arrived since the last draw; return it from
    /// `sceneShouldDrawFrame(_:)` while the page is alone on screen.
    public func frameIsDue() -> Bool { view.hasNewFrame }

    /// Loads the page again (its data, or after the web process ended).
    public func reload() {
        hasPainted = false
        committed = false
        view.reload()
    }

    /// Passes a pointer event on the page's window to the page: positions
    /// in the scene's device pixels, as `scene(_:didReceivePointer:)` gets
    /// them (the page covering the whole scene). Lets a person click through
    /// a dashboard in a preview window.
    public func send(_ event: PointerEvent) {
        let scale = max(scene?.contentScale ?? layout.scale, 1)
        let (x, y) = (Int(event.x.rounded()), Int(event.y.rounded()))
        switch event.kind {
        case .entered, .left, .moved:
            view.pointerMoved(x: x, y: y, scale: scale)
        case let .pressed(button), let .released(button):
            // WPE numbers buttons from 1 (left), 2 (right), 3 (middle); evdev from BTN_LEFT.
            guard button.rawValue >= 0x110, button.rawValue < 0x118 else { return }
            view.pointerButton(
                x: x, y: y, scale: scale, button: button.rawValue - 0x110 + 1,
                pressed: event.kind == .pressed(button))
        case let .scrolled(dx, dy):
            view.scrolled(x: x, y: y, scale: scale, dx: Int(dx.rounded()), dy: Int(dy.rounded()))
        }
    }

    /// Passes a key to the page (its keysym, with Shift, Control and Alt).
    public func send(_ event: KeyEvent) {
        guard let keysym = keysymValue(named: event.keysym) else { return }
        // wpe_input_keyboard_modifier: control 1, shift 2, alt 4.
        let modifiers = (event.control ? 1 : 0) | (event.shift ? 2 : 0) | (event.alt ? 4 : 0)
        view.key(keysym: keysym, keycode: 0, pressed: event.isPressed, modifiers: UInt32(modifiers))
    }

    /// Ends the web process now (tests of crash recovery).
    public func terminateWebProcess() { view.terminateWebProcess() }

    /// Tells the web process its last frame was shown without drawing it
    /// (a page loading off screen), so it renders the next.
    public func frameShownOffscreen() { view.frameShown() }

    /// Ends the page and its web process. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        scene?.webPageCount -= 1
        view.close()
        scene?.host.sceneFreedMemory()
    }
    private var isClosed = false

    // A page an app forgets to close (or drops on an error path) must not
    // keep its web process, a few hundred MiB, for the months a signage box
    // runs. Isolated: closing touches WebKit, which lives on the main thread.
    isolated deinit { close() }

    private func frameArrived() {
        guard committed else {
            // A frame from before the document committed (the blank page a
            // load starts with) is not the page: released at once, so the web
            // process goes on to the page's own, even while no one draws it
            // (a page loading ahead of its slot).
            view.frameShown()
            return
        }
        if !hasPainted {
            hasPainted = true
            onPaint?()
        }
        if let onFrame { onFrame() } else { scene?.setNeedsDisplay() }
    }

    func draw(into target: any RenderTarget, in rect: PixelRect, resources: GraphicsResources, opacity: Double)
        throws -> Bool
    {
        // A panel turned or rescaled: the page is laid out anew for it.
        let scale = max(scene?.contentScale ?? layout.scale, 1)
        if (rect.width, rect.height, scale) != layout {
            layout = (rect.width, rect.height, scale)
            view.resize(width: rect.width, height: rect.height, scale: scale)
        }
        guard let texture = try view.drawable() else { return false }
        try resources.quads().draw(texture, in: rect, on: target, opacity: opacity)
        return true
    }

    /// Whether any frame arrived (else it is drawn white).
    var hasFrame: Bool { view.texture != nil || view.stagedFrame != nil }

    /// The latest frame where it went straight into the scene window's
    /// wl_shm buffer at `width` x `height` (the page fills the window) and
    /// the page is laid out for that: presentable as it is.
    func stagedFrame(width: Int, height: Int) -> StagedFrame? {
        let scale = max(scene?.contentScale ?? layout.scale, 1)
        guard (width, height, scale) == layout, let frame = view.stagedFrame, frame.isStaged,
            frame.width == width, frame.height == height
        else { return nil }
        return frame
    }

    func shown() { view.frameShown() }
}

/// A web page that cannot be shown, with the reason.
public struct WebPageError: Error, CustomStringConvertible, Sendable {
    /// The address.
    public let url: String
    /// Why, in words.
    public let reason: String
    /// `url: reason`.
    public var description: String { "\(url): \(reason)" }
}

extension DrawingContext {
    /// Draws the page's latest frame over the whole buffer (white before
    /// its first); the web process is told after the swap, so it renders
    /// its next frame paced by this scene's display link.
    public func drawWebPage(_ page: WebPage, opacity: Double = 1) throws {
        try drawWebPage(page, x: 0, y: 0, width: pixelWidth, height: pixelHeight, opacity: opacity)
    }

    /// Draws the page's latest frame into a rectangle (device pixels, top-left origin).
    public func drawWebPage(_ page: WebPage, x: Int, y: Int, width: Int, height: Int, opacity: Double = 1) throws {
        try page.draw(on: self, in: PixelRect(x: x, y: y, width: width, height: height), opacity: opacity)
    }
}

extension WebPage {
    /// Draws the latest frame into `rect` of `context`'s frame, or holds it
    /// to go as it is; told once the frame shows.
    func draw(on context: DrawingContext, in rect: PixelRect, opacity: Double) throws {
        context.frameInProgress.afterShown.append { [weak self] in self?.shown() }
        // A page filling the window, with software GL: its frame is already
        // in a wl_shm buffer and goes as it is unless more is drawn on it.
        if opacity >= 1, rect == PixelRect(x: 0, y: 0, width: context.pixelWidth, height: context.pixelHeight) {
            let drawLater: () throws -> Void = { [weak context] in
                guard let context else { return }
                try self.drawFrame(on: context, in: rect, opacity: opacity)
            }
            if let frame = stagedFrame(width: rect.width, height: rect.height),
                context.frameInProgress.deferred.hold(frame, orDraw: drawLater)
            {
                return
            }
            // Another screen's window holds the frame (one page on two
            // screens of one size): copied into this one's buffer.
            if let frame = view.stagedFrame, frame.width == rect.width, frame.height == rect.height,
                context.frameInProgress.deferred.holdCopy(of: frame, orDraw: drawLater)
            {
                return
            }
            // White until the page paints, as drawn below, without GL.
            if !hasFrame, context.frameInProgress.deferred.holdWhite(orDraw: drawLater) { return }
        }
        try drawFrame(on: context, in: rect, opacity: opacity)
    }

    private func drawFrame(on context: DrawingContext, in rect: PixelRect, opacity: Double) throws {
        if try !draw(into: context.target, in: rect, resources: context.resources, opacity: opacity) {
            try context.fill(
                x: rect.x, y: rect.y, width: rect.width, height: rect.height, color: RGBColor(red: 1, green: 1, blue: 1)
            )
        }
    }
}
