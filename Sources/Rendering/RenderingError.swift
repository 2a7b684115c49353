import CEGL

/// A failure in the EGL/GLES/cairo layer. The description names the failing
/// call, the driver's error code by name and, where there is one, a fix.
package enum RenderingError: Error, CustomStringConvertible, Equatable {
    /// An EGL call failed. `error` is the EGL error name (`EGL_BAD_ALLOC`, ...).
    case egl(call: String, error: String, hint: String)
    /// A GL call left an error flag set (`GL_OUT_OF_MEMORY`, ...).
    case gl(call: String, error: String)
    /// A texture or render target exceeds `GL_MAX_TEXTURE_SIZE`.
    case tooLarge(what: String, width: Int, height: Int, maxSize: Int)
    /// A size that is zero, negative, or disagrees with the pixel data given.
    case invalidSize(what: String, detail: String)
    /// A framebuffer object could not be completed.
    case incompleteFramebuffer(status: String)
    /// cairo refused to create or use a surface.
    case cairo(call: String, status: String)
    /// The object was used after `destroy()`.
    case destroyed(what: String)

    package var description: String {
        switch self {
        case .egl(let call, let error, let hint):
            return hint.isEmpty ? "\(call) failed: \(error)" : "\(call) failed: \(error). \(hint)"
        case .gl(let call, let error):
            return "\(call) failed: \(error)"
        case .tooLarge(let what, let width, let height, let maxSize):
            return "\(what) of \(width)x\(height) pixels exceeds this GPU's limit of "
                + "\(maxSize)x\(maxSize) (GL_MAX_TEXTURE_SIZE)"
        case .invalidSize(let what, let detail):
            return "invalid size for \(what): \(detail)"
        case .incompleteFramebuffer(let status):
            return "offscreen framebuffer is incomplete: \(status)"
        case .cairo(let call, let status):
            return "\(call) failed: \(status)"
        case .destroyed(let what):
            return "\(what) was used after it was destroyed"
        }
    }
}

/// The name of an EGL error code, so messages say `EGL_BAD_ALLOC` rather than 12291.
func eglErrorName(_ code: EGLint) -> String {
    switch code {
    case EGL_SUCCESS: return "EGL_SUCCESS"
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED"
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS"
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC"
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE"
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG"
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT"
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE"
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY"
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH"
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP"
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW"
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER"
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE"
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST"
    default: return "EGL error 0x" + String(code, radix: 16)
    }
}

func glErrorName(_ code: GLenum) -> String {
    switch Int32(bitPattern: code) {
    case GL_NO_ERROR: return "GL_NO_ERROR"
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
    default: return "GL error 0x" + String(code, radix: 16)
    }
}

/// Builds the error for the EGL call that just failed (reads `eglGetError`).
func eglFailure(_ call: String, hint: String = "") -> RenderingError {
    .egl(call: call, error: eglErrorName(eglGetError()), hint: hint)
}

/// Drains the GL error flags; GL can hold several, and a stale one would be
/// blamed on the next call that checks.
func drainGLErrors() -> GLenum {
    var first = GLenum(GL_NO_ERROR)
    while true {
        let e = glGetError()
        if e == GLenum(GL_NO_ERROR) { return first }
        if first == GLenum(GL_NO_ERROR) { first = e }
    }
}

func checkGL(_ call: String) throws(RenderingError) {
    let e = drainGLErrors()
    if e != GLenum(GL_NO_ERROR) { throw .gl(call: call, error: glErrorName(e)) }
}
