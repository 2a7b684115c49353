import CEGL
import CWayland

/// An EGL window surface on a Wayland `wl_surface`, via `wl_egl_window`.
///
/// `present()` commits the `wl_surface` (Mesa's eglSwapBuffers attaches,
/// damages and commits), so request the frame callback before presenting.
/// Not thread-safe; use on the thread that owns the Wayland connection.
package final class WindowSurface: RenderTarget {
    package let context: GraphicsContext
    private var eglWindow: OpaquePointer?
    private var surface: EGLSurface?
    private var swapIntervalIsSet = false

    package private(set) var pixelWidth: Int
    package private(set) var pixelHeight: Int
    package var clip: PixelRect?

    /// - Parameters:
    ///   - waylandSurface: the `wl_surface *` to draw into.
    ///   - width, height: buffer size in pixels (surface size times scale).
    package init(context: GraphicsContext, waylandSurface: OpaquePointer, width: Int, height: Int) throws {
        guard context.platform == .wayland else {
            throw RenderingError.egl(
                call: "WindowSurface", error: "EGL_BAD_MATCH",
                hint: "window surfaces need a GraphicsContext made with init(waylandDisplay:)")
        }
        try Self.validate(width: width, height: height, context: context)
        self.context = context
        pixelWidth = width
        pixelHeight = height
        guard let window = wl_egl_window_create(waylandSurface, Int32(width), Int32(height)) else {
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

    private static func validate(width: Int, height: Int, context: GraphicsContext) throws {
        guard width > 0, height > 0 else {
            throw RenderingError.invalidSize(what: "window surface", detail: "\(width)x\(height)")
        }
        guard width <= context.maxTextureSize, height <= context.maxTextureSize else {
            throw RenderingError.tooLarge(
                what: "window surface", width: width, height: height, maxSize: context.maxTextureSize)
        }
    }

    /// Changes the buffer size; takes effect with the next frame drawn.
    package func resize(width: Int, height: Int) throws {
        guard let eglWindow else { throw RenderingError.destroyed(what: "WindowSurface") }
        try Self.validate(width: width, height: height, context: context)
        guard width != pixelWidth || height != pixelHeight else { return }
        wl_egl_window_resize(eglWindow, Int32(width), Int32(height), 0, 0)
        pixelWidth = width
        pixelHeight = height
    }

    /// Binds this surface (and the default framebuffer) for drawing.
    package var framebufferObject: UInt32 { 0 }

    package func makeCurrent() throws {
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
    package func bufferAge() -> Int {
        guard let surface, context.offersBufferAge else { return 0 }
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
        guard let surface else { throw RenderingError.destroyed(what: "WindowSurface") }
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
        guard let eglWindow else { return }
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
