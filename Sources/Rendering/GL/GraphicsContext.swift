import CEGL
import Foundation

/// The EGL display and the single OpenGL ES context that every surface,
/// texture and shader of one process shares.
///
/// Not thread-safe: create and use it on the thread that owns the Wayland
/// connection. GL objects made while it is alive keep a strong reference to it;
/// after `destroy()` their own cleanup becomes a no-op, since terminating the
/// display already freed them.
///
/// Mesa notes:
/// - `offscreen()` uses `EGL_PLATFORM_SURFACELESS_MESA` and needs no
///   environment variables. With no GPU render node (`/dev/dri` absent, as in
///   containers and CI) Mesa falls back to llvmpipe by itself; on a machine
///   with a GPU it uses the GPU, and `LIBGL_ALWAYS_SOFTWARE=1` forces llvmpipe.
///   `EGL_PLATFORM` is irrelevant because the platform is passed explicitly.
/// - Surfaceless configs support only pbuffers, so offscreen rendering goes
///   into framebuffer objects (`OffscreenTarget`) with no surface bound.
/// - `eglGetPlatformDisplay` returns the same `EGLDisplay` for the same native
///   display, and `eglTerminate` is not reference counted, so this class counts
///   live contexts per display and terminates only with the last one.
package final class GraphicsContext {
    /// Where the display came from.
    package enum Platform: Sendable { case wayland, surfaceless }

    package let platform: Platform
    let display: EGLDisplay
    let config: EGLConfig
    let context: EGLContext
    /// Only when the driver lacks EGL_KHR_surfaceless_context: a 1x1 pbuffer
    /// to make the context current with when no window surface is bound.
    private var fallbackPbuffer: EGLSurface?
    private let supportsSurfaceless: Bool
    private let eglVersion: (major: Int32, minor: Int32)

    /// The OpenGL ES major version of the context (3 when the driver has it, else 2).
    package let glesMajorVersion: Int
    /// `GL_MAX_TEXTURE_SIZE`: the largest texture or render target side in pixels.
    package let maxTextureSize: Int
    /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"; useful in logs.
    package let renderer: String
    /// `GL_VERSION`, e.g. "OpenGL ES 3.2 Mesa 22.3.6".
    package let version: String
    /// Whether the window config has no alpha channel, which makes Wayland
    /// surfaces opaque (XRGB8888). When false, every draw keeps alpha at 1.
    package let isOpaqueConfig: Bool
    /// GL_EXT_texture_format_BGRA8888: cairo's pixels upload without swizzling.
    /// A var so tests can exercise the swizzling fallback.
    var hasBGRAUpload: Bool
    /// GL_EXT_texture_format_BGRA8888 and GL_EXT_read_format_bgra: a BGRA
    /// render target reads back as wl_shm's XRGB8888 bytes.
    package let offersBGRARenderAndReadback: Bool
    /// GL_ANGLE_pack_reverse_row_order: glReadPixels writes rows top to
    /// bottom, as wl_shm wants them, with no second pass to flip them.
    let offersReverseRowReadback: Bool
    /// GL_NV_pack_subimage: GL_PACK_ROW_LENGTH on an ES 2 context.
    let offersPackSubimage: Bool
    /// GL_RENDERER names Mesa's software rasterizers: window buffers are
    /// in RAM, and reading a frame back costs a copy, not a GPU stall.
    package var rendersInSoftware: Bool {
        renderer.hasPrefix("llvmpipe") || renderer.hasPrefix("softpipe")
    }

    /// EGL_EXT_buffer_age: a window's back buffer says how many frames old
    /// its content is, so a frame can repaint only what changed since then.
    /// (EGL_KHR_partial_update's age query is left out: it would also
    /// require eglSetDamageRegionKHR before each frame.)
    package let offersBufferAge: Bool
    /// EGL_KHR_swap_buffers_with_damage or its EXT spelling: a swap tells
    /// the compositor which rectangles changed.
    package let offersSwapWithDamage: Bool

    package private(set) var isDestroyed = false

    /// The `EGLDisplay`, for a library that shares it (wpebackend-fdo binds
    /// its Wayland buffers to it), as an untyped pointer so no EGL type leaves.
    package var eglDisplayHandle: UnsafeMutableRawPointer? { display }

    /// Connects EGL to a Wayland display for on-screen rendering.
    /// - Parameter waylandDisplay: the `wl_display *` of the connection.
    package convenience init(waylandDisplay: OpaquePointer) throws {
        try self.init(platform: .wayland, native: UnsafeMutableRawPointer(waylandDisplay))
    }

    /// A context with no window system, for tests and benchmarks: render into
    /// `OffscreenTarget`s. Works without a compositor or GPU (see the type's notes).
    package static func offscreen() throws -> GraphicsContext {
        try GraphicsContext(platform: .surfaceless, native: nil)
    }

    private init(platform: Platform, native: UnsafeMutableRawPointer?) throws {
        self.platform = platform
        let driverHint =
            "Install Mesa's EGL and drivers (Debian/Ubuntu: libegl1, libegl-mesa0, libgl1-mesa-dri)"
        let platformEnum: EGLenum
        switch platform {
        case .wayland: platformEnum = EGLenum(EGL_PLATFORM_WAYLAND_KHR)
        case .surfaceless: platformEnum = EGLenum(EGL_PLATFORM_SURFACELESS_MESA)
        }
        var display = eglGetPlatformDisplay(platformEnum, native, nil)
        if display == screenplay_egl_no_display() {
            // EGL 1.4 libraries only have the EXT spelling.
            display = screenplay_egl_get_platform_display_ext(platformEnum, native)
        }
        guard let display, display != screenplay_egl_no_display() else {
            let name = platform == .wayland ? "EGL_PLATFORM_WAYLAND_KHR" : "EGL_PLATFORM_SURFACELESS_MESA"
            throw eglFailure("eglGetPlatformDisplay(\(name))", hint: driverHint)
        }
        var major: EGLint = 0
        var minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else {
            throw eglFailure("eglInitialize", hint: driverHint)
        }
        self.display = display
        self.eglVersion = (major, minor)
        DisplayUsers.shared.retain(display)
        // From here on a failure must undo the retain (and maybe terminate).
        var ok = false
        defer { if !ok { Self.release(display) } }

        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            throw eglFailure("eglBindAPI(EGL_OPENGL_ES_API)", hint: "the EGL driver has no OpenGL ES support")
        }
        let extensions = (eglQueryString(display, EGL_EXTENSIONS).map { String(cString: $0) } ?? "")
            .split(separator: " ").map(String.init)
        supportsSurfaceless = extensions.contains("EGL_KHR_surfaceless_context")
        offersBufferAge = extensions.contains("EGL_EXT_buffer_age")
        offersSwapWithDamage =
            extensions.contains("EGL_KHR_swap_buffers_with_damage")
            || extensions.contains("EGL_EXT_swap_buffers_with_damage")

        let surfaceBit = platform == .wayland ? EGL_WINDOW_BIT : EGL_PBUFFER_BIT
        let (config, opaque) = try Self.chooseConfig(display: display, surfaceBit: surfaceBit)
        self.config = config
        self.isOpaqueConfig = opaque

        var created: EGLContext?
        var lastError = EGL_SUCCESS
        for version: EGLint in [3, 2] {
            let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, version, EGL_NONE]
            let c = eglCreateContext(display, config, screenplay_egl_no_context(), attributes)
            if let c, c != screenplay_egl_no_context() {
                created = c
                break
            }
            lastError = eglGetError()
        }
        guard let created else {
            throw RenderingError.egl(
                call: "eglCreateContext(OpenGL ES 3 or 2)", error: eglErrorName(lastError),
                hint: "the driver offers no OpenGL ES 2.0 context; install libgles2 and libgl1-mesa-dri")
        }
        self.context = created

        // Made current without a window so GL queries (and GL objects) work
        // before the first surface exists.
        if supportsSurfaceless {
            guard
                eglMakeCurrent(display, screenplay_egl_no_surface(), screenplay_egl_no_surface(), created)
                    == EGLBoolean(EGL_TRUE)
            else {
                let failure = eglFailure("eglMakeCurrent(no surface)")
                eglDestroyContext(display, created)
                throw failure
            }
        } else if platform == .surfaceless {
            let attributes: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
            guard let pbuffer = eglCreatePbufferSurface(display, config, attributes),
                pbuffer != screenplay_egl_no_surface(),
                eglMakeCurrent(display, pbuffer, pbuffer, created) == EGLBoolean(EGL_TRUE)
            else {
                let failure = eglFailure("eglCreatePbufferSurface(1x1)")
                eglDestroyContext(display, created)
                throw failure
            }
            fallbackPbuffer = pbuffer
        } else {
            eglDestroyContext(display, created)
            throw RenderingError.egl(
                call: "eglMakeCurrent", error: "EGL_KHR_surfaceless_context missing",
                hint: "this EGL driver cannot make a context current without a window; use Mesa 10 or newer")
        }

        version = Self.glString(GL_VERSION)
        // "OpenGL ES 3.2 Mesa 22.3.6"; ES 2 has no GL_MAJOR_VERSION query.
        let versionNumber = version.split(separator: " ").first { $0.first?.isNumber == true }
        glesMajorVersion = max(2, versionNumber.flatMap { Int($0.prefix { $0.isNumber }) } ?? 2)
        var maxSize: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        var maxRenderbuffer: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &maxRenderbuffer)
        maxTextureSize = Int(min(maxSize, maxRenderbuffer > 0 ? maxRenderbuffer : maxSize))
        renderer = Self.glString(GL_RENDERER)
        let glExtensions = Set(Self.glString(GL_EXTENSIONS).split(separator: " ").map(String.init))
        hasBGRAUpload = glExtensions.contains("GL_EXT_texture_format_BGRA8888")
        offersBGRARenderAndReadback = hasBGRAUpload && glExtensions.contains("GL_EXT_read_format_bgra")
        offersReverseRowReadback = glExtensions.contains("GL_ANGLE_pack_reverse_row_order")
        offersPackSubimage = glExtensions.contains("GL_NV_pack_subimage")
        ok = true
        OwnContexts.insert(created)
    }

    /// Scans the configs by hand: eglChooseConfig ranks by the bits of the
    /// requested channels, so it would put 10-bit configs first and treats
    /// "alpha 0" as "don't care about alpha".
    private static func chooseConfig(display: EGLDisplay, surfaceBit: EGLint) throws -> (EGLConfig, Bool) {
        let wanted: [EGLint] = [
            EGL_SURFACE_TYPE, surfaceBit,
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
            EGL_NONE,
        ]
        var count: EGLint = 0
        guard eglChooseConfig(display, wanted, nil, 0, &count) == EGLBoolean(EGL_TRUE) else {
            throw eglFailure("eglChooseConfig")
        }
        var configs = [EGLConfig?](repeating: nil, count: Int(max(count, 0)))
        guard count > 0,
            eglChooseConfig(display, wanted, &configs, count, &count) == EGLBoolean(EGL_TRUE)
        else {
            throw RenderingError.egl(
                call: "eglChooseConfig", error: "no matching config",
                hint: "the driver offers no 8-bit RGB OpenGL ES 2 config for this platform")
        }
        func attribute(_ config: EGLConfig, _ name: EGLint) -> EGLint {
            var value: EGLint = 0
            eglGetConfigAttrib(display, config, name, &value)
            return value
        }
        var withAlpha: EGLConfig?
        var withoutAlpha: EGLConfig?
        for case let config? in configs.prefix(Int(count)) {
            guard attribute(config, EGL_RED_SIZE) == 8, attribute(config, EGL_GREEN_SIZE) == 8,
                attribute(config, EGL_BLUE_SIZE) == 8
            else { continue }
            // Multisampled configs cost fill rate for nothing here.
            guard attribute(config, EGL_SAMPLES) == 0 else { continue }
            switch attribute(config, EGL_ALPHA_SIZE) {
            case 0: if withoutAlpha == nil { withoutAlpha = config }
            case 8: if withAlpha == nil { withAlpha = config }
            default: break
            }
        }
        // Window surfaces take the alpha config (ARGB8888 buffers, kept
        // opaque: every draw leaves alpha at 1 and the surface declares an
        // opaque region). With Mesa 22.3's llvmpipe, a glClear of an
        // XRGB8888 window buffer never reached weston (white or black
        // instead of the colour; sway and cage showed it), so there a clear
        // had to be shaded, at several times glClear's cost. On ARGB8888 the
        // glClear arrives everywhere (WestonTests, CageTests, sway).
        if surfaceBit == EGL_WINDOW_BIT, let withAlpha { return (withAlpha, false) }
        if let withoutAlpha { return (withoutAlpha, true) }
        if let withAlpha { return (withAlpha, false) }
        throw RenderingError.egl(
            call: "eglChooseConfig", error: "no RGB888 or RGBA8888 config",
            hint: "the driver offers no 8-bit-per-channel OpenGL ES 2 config for this platform")
    }

    private static func glString(_ name: Int32) -> String {
        guard let raw = glGetString(GLenum(name)) else { return "" }
        return String(cString: raw)
    }

    /// Makes this context current if it is not. Keeps whatever surface is bound
    /// when it already is current: GL object creation and FBO rendering do not
    /// care, and switching surfaces would cost a flush.
    package func ensureCurrent() throws {
        guard !isDestroyed else { throw RenderingError.destroyed(what: "GraphicsContext") }
        if eglGetCurrentContext() == context { return }
        let surface = fallbackPbuffer ?? screenplay_egl_no_surface()
        guard eglMakeCurrent(display, surface, surface, context) == EGLBoolean(EGL_TRUE) else {
            throw eglFailure("eglMakeCurrent")
        }
    }

    /// Makes the context current with no window surface; used before a window
    /// surface is destroyed, because EGL defers destroying a current surface
    /// and the wl_egl_window under it would be freed first.
    func releaseSurface() {
        guard !isDestroyed else { return }
        let surface = fallbackPbuffer ?? screenplay_egl_no_surface()
        if supportsSurfaceless || fallbackPbuffer != nil {
            eglMakeCurrent(display, surface, surface, context)
        } else {
            eglMakeCurrent(display, surface, surface, screenplay_egl_no_context())
        }
    }

    /// Whether the display speaks EGL 1.5 (core platform entry points).
    var hasEGL15: Bool { eglVersion.major > 1 || (eglVersion.major == 1 && eglVersion.minor >= 5) }

    /// Unbinds and destroys the context and terminates the display (unless
    /// another live `GraphicsContext` uses the same display). Idempotent.
    /// Destroy window surfaces first.
    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        eglMakeCurrent(display, screenplay_egl_no_surface(), screenplay_egl_no_surface(), screenplay_egl_no_context())
        if let fallbackPbuffer { eglDestroySurface(display, fallbackPbuffer) }
        fallbackPbuffer = nil
        OwnContexts.remove(context)
        eglDestroyContext(display, context)
        Self.release(display)
    }

    private static func release(_ display: EGLDisplay) {
        if DisplayUsers.shared.release(display) {
            eglTerminate(display)
            eglReleaseThread()
        }
    }

    deinit { destroy() }
}

/// Live GraphicsContexts per EGLDisplay (see GraphicsContext's notes).
private final class DisplayUsers: @unchecked Sendable {
    static let shared = DisplayUsers()
    private let lock = NSLock()
    private var counts: [UnsafeMutableRawPointer: Int] = [:]

    func retain(_ display: UnsafeMutableRawPointer) {
        lock.withLock { counts[display, default: 0] += 1 }
    }

    /// Returns true when the last user is gone.
    func release(_ display: UnsafeMutableRawPointer) -> Bool {
        lock.withLock {
            let remaining = (counts[display] ?? 1) - 1
            counts[display] = remaining > 0 ? remaining : nil
            return remaining <= 0
        }
    }
}
