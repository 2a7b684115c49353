import CEGL

/// The EGL display, context and draw/read surfaces current on this thread,
/// whoever made them current, and the bound client API: an app that draws
/// its own window on the same thread (SDL's EGL context, on SDL's own
/// Wayland connection) must find them unchanged after Screenplay drew.
/// EGL keeps one current context per client API and answers
/// `eglGetCurrentContext` for the bound one, so the API is part of it.
package struct CurrentContext {
    private let api: EGLenum
    private let display: EGLDisplay?
    private let context: EGLContext?
    private let draw: EGLSurface?
    private let read: EGLSurface?

    /// What is current now. With no context current, or one of
    /// Screenplay's own (the common case: no app context, and Screenplay's
    /// left current by its last draw), the display and surfaces are not
    /// asked and nothing is given back: every EGL call through libglvnd
    /// costs a system call (its fork check calls getpid), and this runs
    /// around every batch of events.
    package init() {
        api = eglQueryAPI()
        let current = eglGetCurrentContext()
        guard let current, current != screenplay_egl_no_context(), !OwnContexts.contains(current) else {
            (context, display, draw, read) = (nil, nil, nil, nil)
            return
        }
        context = current
        display = eglGetCurrentDisplay()
        draw = eglGetCurrentSurface(EGL_DRAW)
        read = eglGetCurrentSurface(EGL_READ)
    }

    /// Whether there is no app context to give back: none was current, or
    /// Screenplay's own was.
    private var isNone: Bool { context == nil }

    /// Binds the saved API and makes the saved display, context and
    /// surfaces current again, if anything changed them.
    private func restore() {
        if eglQueryAPI() != api { eglBindAPI(api) }
        let now = CurrentContext()
        guard now.context != context || now.draw != draw || now.read != read || now.display != display,
            let display
        else { return }
        eglMakeCurrent(display, draw ?? screenplay_egl_no_surface(), read ?? screenplay_egl_no_surface(), context)
    }

    /// Runs `body` (Screenplay's GL work) and then puts back what was current
    /// before, when it was someone else's context. With nothing current
    /// before, Screenplay's context stays current: nobody is disturbed, and
    /// the next frame saves a switch.
    package static func preserving<T>(_ body: () throws -> T) rethrows -> T {
        let saved = CurrentContext()
        // Screenplay's context is an OpenGL ES one; an app on desktop GL
        // (SDL's default) has the other API bound.
        if saved.api != EGLenum(EGL_OPENGL_ES_API) { eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) }
        defer {
            if !saved.isNone {
                saved.restore()
            } else if eglQueryAPI() != saved.api {
                eglBindAPI(saved.api)
            }
        }
        return try body()
    }
}
