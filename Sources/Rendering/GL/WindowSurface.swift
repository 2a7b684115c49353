import CEGL
import CWayland

/// A window's drawable on a Wayland `wl_surface`: an EGL window surface via
/// `wl_egl_window` (`EGLWindowPresenter`), or, where GL renders in
/// software, a framebuffer object presented through the window's own
/// `wl_shm` buffers (`ShmPresenter`), and through an EGL window surface
/// beside them for frames that change (nearly) everywhere.
///
/// Why both in software: the wl_shm path copies only the rows that
/// changed, but GL's rows run bottom to top, so its copy walks memory
/// backwards, which cost this machine's memcpy about 0.35 ms more per
/// 1280x720 frame than Mesa's own copy (its window buffers are stored top
/// down). For a frame that changes everywhere there is nothing to save, so
/// Mesa's swap presents it. (Attaching the wl_shm buffer upside down with a
/// flipped buffer transform instead doubled headless sway's pixman
/// compositing per frame.)
///
/// `present()` commits the `wl_surface` (Mesa's eglSwapBuffers, or the
/// presenter, attaches, damages and commits), so request the frame callback
/// before presenting. Not thread-safe; use on the thread that owns the
/// Wayland connection.
package final class WindowSurface: RenderTarget {
    /// Nil until GL is first needed, for a window made with `deferring:`.
    private var context: GraphicsContext?
    private var makeContext: (() throws -> GraphicsContext)?
    private let waylandSurface: OpaquePointer
    private var egl: EGLWindowPresenter?
    private(set) var shmPresenter: ShmPresenter?
    /// The EGL window surface presents this frame (`beginFrame`), not the
    /// wl_shm buffers.
    private var swapsThisFrame = false
    /// Making the EGL window beside the wl_shm buffers failed once: the
    /// wl_shm path presents every frame.
    private var swapUnavailable = false
    /// The frame before this one changed (nearly) everywhere.
    private var lastFrameWasWhole = false
    private var isDestroyed = false
    /// The share of the window a frame's damage must cover to be presented
    /// by the EGL swap rather than copied into wl_shm: drawing it whole and
    /// copying it forwards then costs no more than the backwards copy of
    /// what changed.
    package static let swapShare = 0.9

    package private(set) var pixelWidth: Int
    package private(set) var pixelHeight: Int
    package var clip: PixelRect?

    /// - Parameters:
    ///   - waylandSurface: the `wl_surface *` to draw into.
    ///   - width, height: buffer size in pixels (surface size times scale).
    ///   - shm: the connection's `wl_shm`; with a software renderer the
    ///     window presents through its own shm buffers (nil: always EGL).
    package init(
        context: GraphicsContext, waylandSurface: OpaquePointer, width: Int, height: Int, shm: OpaquePointer? = nil
    ) throws {
        guard context.platform == .wayland else {
            throw RenderingError.egl(
                call: "WindowSurface", error: "EGL_BAD_MATCH",
                hint: "window surfaces need a GraphicsContext made with init(waylandDisplay:)")
        }
        try Self.validate(width: width, height: height, context: context)
        self.context = context
        self.waylandSurface = waylandSurface
        pixelWidth = width
        pixelHeight = height
        if let shm, ShmPresenter.suits(context) {
            shmPresenter = try ShmPresenter(
                context: context, surface: waylandSurface, shm: shm, width: width, height: height)
            return
        }
        egl = try EGLWindowPresenter(context: context, waylandSurface: waylandSurface, width: width, height: height)
    }

    /// A window that presents through its own wl_shm buffers and loads GL
    /// only when it first draws with it (`makeContext` then): where
    /// `presentsThroughShmWithoutGL()`, so frames presented as they are (a
    /// web page's) never bring up EGL. Should GL then not suit wl_shm
    /// presenting after all, the window becomes an EGL window.
    package init(
        deferring makeContext: @escaping () throws -> GraphicsContext, waylandSurface: OpaquePointer, width: Int,
        height: Int, shm: OpaquePointer
    ) throws {
        try Self.validate(width: width, height: height, context: nil)
        self.makeContext = makeContext
        self.waylandSurface = waylandSurface
        pixelWidth = width
        pixelHeight = height
        shmPresenter = try ShmPresenter(context: nil, surface: waylandSurface, shm: shm, width: width, height: height)
    }

    /// Whether a window with a `wl_shm` would present through it, told
    /// without loading the GL driver (no GPU render node, or
    /// LIBGL_ALWAYS_SOFTWARE): then make it with `init(deferring:...)`.
    package static func presentsThroughShmWithoutGL() -> Bool { ShmPresenter.suitsWithoutGL() }

    /// Whether GL is up for this window (a deferred window that has not
    /// drawn with GL has none): GL state to reset exists only then.
    package var hasGraphicsContext: Bool { context != nil }

    /// The context, made now for a deferred window: its presenter gets a
    /// backing, or, where the context cannot present through wl_shm, the
    /// window becomes an EGL window.
    private func graphicsContext() throws -> GraphicsContext {
        if let context { return context }
        guard let makeContext else { throw RenderingError.destroyed(what: "WindowSurface") }
        let made = try makeContext()
        try Self.validate(width: pixelWidth, height: pixelHeight, context: made)
        if ShmPresenter.suits(made) {
            try shmPresenter?.attach(made)
        } else {
            shmPresenter?.destroy()
            shmPresenter = nil
            egl = try EGLWindowPresenter(
                context: made, waylandSurface: waylandSurface, width: pixelWidth, height: pixelHeight)
        }
        context = made
        self.makeContext = nil
        return made
    }

    /// Sides of at least a pixel and, once GL is up (`context`), no longer
    /// than its largest render target.
    private static func validate(width: Int, height: Int, context: GraphicsContext?) throws {
        guard width > 0, height > 0 else {
            throw RenderingError.invalidSize(what: "window surface", detail: "\(width)x\(height)")
        }
        guard let context else { return }
        guard width <= context.maxTextureSize, height <= context.maxTextureSize else {
            throw RenderingError.tooLarge(
                what: "window surface", width: width, height: height, maxSize: context.maxTextureSize)
        }
    }

    /// Changes the buffer size; takes effect with the next frame drawn.
    package func resize(width: Int, height: Int) throws {
        try Self.validate(width: width, height: height, context: context)
        guard !isDestroyed, shmPresenter != nil || egl != nil || makeContext != nil else {
            throw RenderingError.destroyed(what: "WindowSurface")
        }
        try shmPresenter?.resize(width: width, height: height)
        if width != pixelWidth || height != pixelHeight { egl?.resize(width: width, height: height) }
        pixelWidth = width
        pixelHeight = height
    }

    /// Chooses how the next frame is presented, before it is drawn:
    /// through wl_shm, or by the EGL swap where the frame's `damage`
    /// (top-left pixels; nil: all) and the last frame's both cover at least
    /// `swapShare` of the window and GL is up. One whole frame alone (a
    /// scene's first, a new picture) stays on wl_shm, so the frames that
    /// change in part after it need not be drawn whole again, and a still
    /// window never makes Mesa's buffers; frames whole in a row (a video, a
    /// shader) are swapped. Without wl_shm presenting there is nothing to
    /// choose.
    package func beginFrame(damage: [PixelRect]?) {
        guard shmPresenter != nil, let context, !isDestroyed else { return }
        let area = pixelWidth * pixelHeight
        let bounds = PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
        // Overlapping rectangles count twice: damage is merged upstream,
        // and an overestimate only draws a frame whole.
        let damaged =
            damage.map { $0.reduce(0) { $0 + ($1.intersection(bounds).map { $0.width * $0.height } ?? 0) } } ?? area
        let whole = Double(damaged) >= Self.swapShare * Double(area)
        swapsThisFrame = whole && lastFrameWasWhole && swapWindow(context) != nil
        lastFrameWasWhole = whole
    }

    /// The EGL window beside the wl_shm buffers, made at the first frame
    /// that needs it; nil if it cannot be made (reported once).
    private func swapWindow(_ context: GraphicsContext) -> EGLWindowPresenter? {
        if let egl { return egl }
        guard !swapUnavailable else { return nil }
        do {
            egl = try EGLWindowPresenter(
                context: context, waylandSurface: waylandSurface, width: pixelWidth, height: pixelHeight)
        } catch {
            swapUnavailable = true
        }
        return egl
    }

    /// Frees the EGL window beside the wl_shm buffers; the next frame that
    /// is swapped makes it again. Mesa's software path takes a third or
    /// fourth buffer when it must draw while the compositor holds the
    /// others (a stall), and frees none until the window goes (3.6 MB each
    /// at 1280x720): call it after the compositor held a frame for long.
    /// Not on a timer: each new window's buffers leave freed blocks of
    /// their size in the heap (a shader's RSS rose 7.2 MB with one every
    /// 10 s), so it is for stalls, and a trim should follow. The window's
    /// own wl_shm buffers trim themselves (`ShmRotation`); an EGL-only
    /// window (a GPU driver, which trims its own) is left as it is.
    /// - Returns: whether there was one to free.
    @discardableResult
    package func dropSwapWindow() -> Bool {
        guard shmPresenter != nil, let egl, !swapsThisFrame, !isDestroyed else { return false }
        egl.destroy()
        self.egl = nil
        return true
    }

    /// Whether windows made with `context` (and a `wl_shm`) present through
    /// their own wl_shm buffers.
    package static func presentsThroughShm(with context: GraphicsContext) -> Bool { ShmPresenter.suits(context) }

    /// Whether frames go through the window's own wl_shm buffers.
    package var presentsThroughShm: Bool { shmPresenter != nil }

    /// Writes a frame's pixels (B, G, R, X bytes; `fill` gets the memory and
    /// its stride) straight into one of the window's wl_shm buffers, to be
    /// presented as they are with `present(staged:)`: a page's frame that
    /// fills the window then costs one copy and no GL work. `replacing`:
    /// the same source's previous frame, whose buffer is reused if it was
    /// not presented. Nil without wl_shm presenting, at another size than
    /// the window's, or when every buffer is taken (then draw it instead).
    package func stageFrame(
        width: Int, height: Int, replacing previous: StagedFrame?, fill: (UnsafeMutableRawPointer, Int) -> Void
    ) throws -> StagedFrame? {
        guard !isDestroyed, let shmPresenter else { return nil }
        return try shmPresenter.stage(width: width, height: height, replacing: previous, fill: fill)
    }

    /// Presents a staged frame as the whole window (nothing drawn); the
    /// next drawn frame repaints everything (`bufferAge()` answers 0).
    package func present(staged frame: StagedFrame) throws {
        swapsThisFrame = false
        lastFrameWasWhole = false
        guard !isDestroyed, let shmPresenter else { throw RenderingError.destroyed(what: "WindowSurface") }
        try shmPresenter.present(staged: frame)
    }

    /// Stages a whole frame read back from `source` (an opaque target of
    /// the window's size; nil: this frame as drawn) to present as it is
    /// and for other windows of its size to copy. With `origin`, `source`
    /// may have any size: its top-left lies there in the frame (outside
    /// it, for a wall's tile right of or below the picture's corner), and
    /// every pixel it does not reach is black. Nil as `stageFrame` is.
    package func stageFrame(readingBack source: OffscreenTarget?, at origin: (x: Int, y: Int)? = nil) throws
        -> StagedFrame?
    {
        let target: any RenderTarget = source ?? self
        guard !isDestroyed, let shmPresenter,
            origin != nil || (target.pixelWidth, target.pixelHeight) == (pixelWidth, pixelHeight)
        else { return nil }
        try target.makeCurrent()
        let placed = origin.map { PixelRect(x: $0.x, y: $0.y, width: target.pixelWidth, height: target.pixelHeight) }
        return try shmPresenter.stage(readingBack: target.framebufferObject, placed: placed)
    }

    /// The default framebuffer, or the shm presenter's framebuffer object.
    package var framebufferObject: UInt32 {
        swapsThisFrame ? 0 : shmPresenter?.backing?.framebufferObject ?? 0
    }

    /// Binds this surface (and its framebuffer) for drawing; brings up GL
    /// for a deferred window.
    package func makeCurrent() throws {
        guard !isDestroyed else { throw RenderingError.destroyed(what: "WindowSurface") }
        let context = try graphicsContext()
        if let shmPresenter, !swapsThisFrame {
            guard !context.isDestroyed else { throw RenderingError.destroyed(what: "GraphicsContext") }
            guard let backing = shmPresenter.backing else { throw RenderingError.destroyed(what: "WindowSurface") }
            try backing.makeCurrent()
            return
        }
        guard let egl else { throw RenderingError.destroyed(what: "WindowSurface") }
        try egl.makeCurrent(width: pixelWidth, height: pixelHeight)
    }

    /// How many frames old the back buffer's content is (EGL_EXT_buffer_age):
    /// 1 is the frame presented last, 2 the one before; 0 when unknown (a
    /// new or resized buffer, or a driver without the extension), when the
    /// whole buffer must be drawn. Call after `makeCurrent()`, before drawing.
    /// Through wl_shm the framebuffer object always holds the last frame.
    package func bufferAge() -> Int {
        if let shmPresenter, !swapsThisFrame { return shmPresenter.backingHoldsFrame ? 1 : 0 }
        return egl?.bufferAge() ?? 0
    }

    /// Presents the frame drawn since `beginFrame`: the wl_shm presenter or
    /// the EGL swap attaches, damages and commits the wl_surface. `damage`
    /// (top-left pixel rectangles; nil: all) tells the compositor what
    /// changed.
    package func present(damage: [PixelRect]? = nil) throws {
        guard !isDestroyed else { throw RenderingError.destroyed(what: "WindowSurface") }
        // A deferred window presenting a drawn frame has drawn with GL; if
        // it drew nothing, GL comes up now to present the cleared frame.
        if context == nil { try makeCurrent() }
        let swaps = swapsThisFrame
        swapsThisFrame = false
        if let shmPresenter, !swaps {
            try shmPresenter.present(damage: damage)
            return
        }
        guard let egl else { throw RenderingError.destroyed(what: "WindowSurface") }
        try egl.swap(damage: damage, width: pixelWidth, height: pixelHeight)
        shmPresenter?.frameShownElsewhere()
    }

    /// Top-left rectangles as the x, y, width, height quadruples that
    /// eglSwapBuffersWithDamageKHR takes: EGL's origin is the bottom left.
    package static func eglRects(_ rects: [PixelRect], height: Int) -> [Int32] {
        rects.flatMap { rect in [rect.x, height - rect.y - rect.height, rect.width, rect.height].map { Int32($0) } }
    }

    /// Destroys the presenters (not the wl_surface). Idempotent.
    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        makeContext = nil
        shmPresenter?.destroy()
        egl?.destroy()
        egl = nil
    }

    deinit { destroy() }
}
