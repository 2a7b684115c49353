import CEGL
import CWayland

/// A window's drawable on a Wayland `wl_surface`: an EGL window surface via
/// `wl_egl_window`, or, where GL renders in software, a framebuffer object
/// presented through the window's own `wl_shm` buffers (`ShmPresenter`).
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
    private var eglWindow: OpaquePointer?
    private var surface: EGLSurface?
    private var swapIntervalIsSet = false
    private var shmPresenter: ShmPresenter?
    private var isDestroyed = false

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
        try makeEGLWindow(context)
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
            try makeEGLWindow(made)
        }
        context = made
        self.makeContext = nil
        return made
    }

    private func makeEGLWindow(_ context: GraphicsContext) throws {
        guard let window = wl_egl_window_create(waylandSurface, Int32(pixelWidth), Int32(pixelHeight)) else {
            throw RenderingError.egl(
                call: "wl_egl_window_create", error: "returned NULL", hint: "out of memory?")
        }
        let native = UnsafeMutableRawPointer(window)
        let created =
            context.hasEGL15
            ? eglCreatePlatformWindowSurface(context.display, context.config, native, nil)
            : screenplay_egl_create_platform_window_surface_ext(context.display, context.config, native)
        guard let created, created != screenplay_egl_no_surface() else {
            let failure = eglFailure(
                "eglCreatePlatformWindowSurface",
                hint: "the surface may already have a buffer attached by something else, or GPU memory ran out")
            wl_egl_window_destroy(window)
            throw failure
        }
        eglWindow = window
        surface = created
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
        if let shmPresenter {
            try shmPresenter.resize(width: width, height: height)
            pixelWidth = width
            pixelHeight = height
            return
        }
        guard let eglWindow else { throw RenderingError.destroyed(what: "WindowSurface") }
        guard width != pixelWidth || height != pixelHeight else { return }
        wl_egl_window_resize(eglWindow, Int32(width), Int32(height), 0, 0)
        pixelWidth = width
        pixelHeight = height
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
        guard !isDestroyed, let shmPresenter else { throw RenderingError.destroyed(what: "WindowSurface") }
        try shmPresenter.present(staged: frame)
    }

    /// The default framebuffer, or the shm presenter's framebuffer object.
    package var framebufferObject: UInt32 { shmPresenter?.backing?.framebufferObject ?? 0 }

    /// Binds this surface (and its framebuffer) for drawing; brings up GL
    /// for a deferred window.
    package func makeCurrent() throws {
        guard !isDestroyed else { throw RenderingError.destroyed(what: "WindowSurface") }
        let context = try graphicsContext()
        if let shmPresenter {
            guard !context.isDestroyed else { throw RenderingError.destroyed(what: "GraphicsContext") }
            guard let backing = shmPresenter.backing else { throw RenderingError.destroyed(what: "WindowSurface") }
            try backing.makeCurrent()
            return
        }
        guard let surface else { throw RenderingError.destroyed(what: "WindowSurface") }
        guard !context.isDestroyed else { throw RenderingError.destroyed(what: "GraphicsContext") }
        if eglGetCurrentContext() != context.context || eglGetCurrentSurface(EGL_DRAW) != surface {
            guard eglMakeCurrent(context.display, surface, surface, context.context) == EGLBoolean(EGL_TRUE)
            else { throw eglFailure("eglMakeCurrent(window surface)") }
        }
        if !swapIntervalIsSet {
            // The interval belongs to the surface current at the time of the
            // call. 0 keeps eglSwapBuffers from waiting for a frame callback,
            // which never comes while the output is off or the surface hidden;
            // the caller paces frames itself.
            eglSwapInterval(context.display, 0)
            swapIntervalIsSet = true
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        glViewport(0, 0, GLsizei(pixelWidth), GLsizei(pixelHeight))
    }

    /// How many frames old the back buffer's content is (EGL_EXT_buffer_age):
    /// 1 is the frame presented last, 2 the one before; 0 when unknown (a
    /// new or resized buffer, or a driver without the extension), when the
    /// whole buffer must be drawn. Call after `makeCurrent()`, before drawing.
    /// Through wl_shm the framebuffer object always holds the last frame.
    package func bufferAge() -> Int {
        if let shmPresenter { return shmPresenter.backingHoldsFrame ? 1 : 0 }
        guard let surface, let context, context.offersBufferAge else { return 0 }
        var age: EGLint = 0
        guard eglQuerySurface(context.display, surface, EGLint(EGL_BUFFER_AGE_EXT), &age) == EGLBoolean(EGL_TRUE)
        else {
            _ = eglGetError()
            return 0
        }
        return Int(max(age, 0))
    }

    /// Swaps buffers, which attaches and commits the new buffer to the
    /// wl_surface. `damage` (top-left pixel rectangles) tells the compositor
    /// what changed, where the driver offers swap with damage; nil or a
    /// driver without it damages the whole buffer. (Damaging with
    /// `wl_surface.damage_buffer` before a plain swap would gain nothing:
    /// Mesa's eglSwapBuffers damages the whole surface itself.)
    package func present(damage: [PixelRect]? = nil) throws {
        guard !isDestroyed else { throw RenderingError.destroyed(what: "WindowSurface") }
        // A deferred window presenting a drawn frame has drawn with GL; if
        // it drew nothing, GL comes up now to present the cleared frame.
        if context == nil { try makeCurrent() }
        if let shmPresenter {
            try shmPresenter.present(damage: damage)
            return
        }
        guard let surface, let context else { throw RenderingError.destroyed(what: "WindowSurface") }
        try makeCurrent()
        if let damage, !damage.isEmpty, context.offersSwapWithDamage {
            let rects = Self.eglRects(damage, height: pixelHeight).map { EGLint($0) }
            guard
                screenplay_egl_swap_buffers_with_damage(context.display, surface, rects, EGLint(damage.count))
                    == EGLBoolean(EGL_TRUE)
            else {
                throw eglFailure(
                    "eglSwapBuffersWithDamageKHR",
                    hint: "the Wayland connection may have been lost or the surface destroyed")
            }
            return
        }
        guard eglSwapBuffers(context.display, surface) == EGLBoolean(EGL_TRUE) else {
            throw eglFailure(
                "eglSwapBuffers", hint: "the Wayland connection may have been lost or the surface destroyed")
        }
    }

    /// Top-left rectangles as the x, y, width, height quadruples that
    /// eglSwapBuffersWithDamageKHR takes: EGL's origin is the bottom left.
    package static func eglRects(_ rects: [PixelRect], height: Int) -> [Int32] {
        rects.flatMap { rect in [rect.x, height - rect.y - rect.height, rect.width, rect.height].map { Int32($0) } }
    }

    /// Destroys the EGL surface, then the wl_egl_window (the reverse order
    /// would leave Mesa with a dangling window). Does not destroy the
    /// wl_surface. Idempotent.
    package func destroy() {
        if let shmPresenter {
            guard !isDestroyed else { return }
            isDestroyed = true
            makeContext = nil
            shmPresenter.destroy()
            return
        }
        guard !isDestroyed else { return }
        isDestroyed = true
        makeContext = nil
        guard let eglWindow, let context else { return }
        if let surface, !context.isDestroyed {
            if eglGetCurrentSurface(EGL_DRAW) == surface || eglGetCurrentSurface(EGL_READ) == surface {
                // EGL defers destroying a current surface until it is released,
                // by which time the wl_egl_window would be gone.
                context.releaseSurface()
            }
            eglDestroySurface(context.display, surface)
        }
        surface = nil
        wl_egl_window_destroy(eglWindow)
        self.eglWindow = nil
    }

    deinit { destroy() }
}
