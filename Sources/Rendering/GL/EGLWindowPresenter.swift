import CEGL
import CWayland

/// A window's EGL window surface on its `wl_surface` (`wl_egl_window`):
/// GL draws into the default framebuffer and Mesa's swap attaches, damages
/// and commits the buffer.
///
/// Not thread-safe: use on the thread that owns the Wayland connection.
final class EGLWindowPresenter {
    private let context: GraphicsContext
    private var eglWindow: OpaquePointer?
    private var surface: EGLSurface?
    private var swapIntervalIsSet = false

    init(context: GraphicsContext, waylandSurface: OpaquePointer, width: Int, height: Int) throws {
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
        self.context = context
        eglWindow = window
        surface = created
    }

    /// Binds the window surface and its default framebuffer for drawing.
    func makeCurrent(width: Int, height: Int) throws {
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
        bindFramebuffer(0)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }

    /// EGL_EXT_buffer_age's answer; 0 (draw everything) where the driver
    /// does not offer it or cannot tell.
    func bufferAge() -> Int {
        guard let surface, context.offersBufferAge else { return 0 }
        var age: EGLint = 0
        guard eglQuerySurface(context.display, surface, EGLint(EGL_BUFFER_AGE_EXT), &age) == EGLBoolean(EGL_TRUE)
        else {
            _ = eglGetError()
            return 0
        }
        return Int(max(age, 0))
    }

    /// Swaps, with `damage` (top-left pixel rectangles) where the driver
    /// offers swap with damage; nil damages the whole buffer. (Damaging with
    /// `wl_surface.damage_buffer` before a plain swap would gain nothing:
    /// Mesa's eglSwapBuffers damages the whole surface itself.)
    func swap(damage: [PixelRect]?, width: Int, height: Int) throws {
        guard let surface else { throw RenderingError.destroyed(what: "WindowSurface") }
        try makeCurrent(width: width, height: height)
        if let damage, !damage.isEmpty, context.offersSwapWithDamage {
            let rects = WindowSurface.eglRects(damage, height: height).map { EGLint($0) }
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

    /// Takes effect with the next buffer Mesa picks.
    func resize(width: Int, height: Int) {
        guard let eglWindow else { return }
        wl_egl_window_resize(eglWindow, Int32(width), Int32(height), 0, 0)
    }

    /// Destroys the EGL surface, then the wl_egl_window (the reverse order
    /// would leave Mesa with a dangling window). Idempotent.
    func destroy() {
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
}
