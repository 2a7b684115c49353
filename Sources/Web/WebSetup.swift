internal import CWPE
import EventLoop
package import Rendering

/// How a page's frames reach Screenplay's GL context.
package enum WebExport: Sendable, Equatable {
    /// EGLImages from the web process, bound as textures: no CPU copy.
    case eglImage
    /// wl_shm buffers: copied once into the window's own wl_shm buffer
    /// when the page fills it, else uploaded once per frame. Chosen where
    /// GL renders in software and windows present through wl_shm (an
    /// EGLImage would be drawn and read back, costing more than the copy),
    /// and where EGL cannot bind Wayland buffers (EGL_WL_bind_wayland_display).
    case sharedMemory
}

/// WebKit could not start: what and why.
package struct WebSetupError: Error, CustomStringConvertible, Sendable {
    package let reason: String
    package var description: String { reason }
}

/// The process-wide half of WebKit: one export and one set of web process
/// settings for every `WebView`, chosen before the first.
@MainActor
package enum WebSetup {
    /// The export in use, once `initialize` ran.
    package private(set) static var export: WebExport?
    private static var setupError: WebSetupError?
    /// Whether the SHM export was chosen because windows present through
    /// wl_shm (a page filling one is copied once into its buffer), not
    /// for want of EGL.
    package private(set) static var staysInSharedMemory = false

    /// Loads wpebackend-fdo and binds it to `context`'s EGL display, or
    /// starts its SHM export where that cannot be done or where windows
    /// present through wl_shm (software GL). Once per process; later calls
    /// answer the first one's outcome.
    /// `context` is asked for only where GL may be a GPU's: with software
    /// GL certain, the SHM export needs no EGL display, and the process
    /// loads no GL driver for a page that fills its scene.
    package static func initialize(context: () throws -> GraphicsContext) throws(WebSetupError) -> WebExport {
        if let export { return export }
        if let setupError { throw setupError }
        var message = [CChar](repeating: 0, count: 256)
        var display: UnsafeMutableRawPointer?
        var preferSharedMemory = WindowSurface.presentsThroughShmWithoutGL()
        if !preferSharedMemory {
            do {
                let made = try context()
                display = made.eglDisplayHandle
                preferSharedMemory = WindowSurface.presentsThroughShm(with: made)
            } catch {
                throw WebSetupError(reason: "no graphics context: \(error)")
            }
        }
        switch sp_web_initialize(display, preferSharedMemory, &message, Int32(message.count)) {
        case Int32(SP_WEB_EXPORT_EGL.rawValue): export = .eglImage
        case Int32(SP_WEB_EXPORT_SHM.rawValue):
            export = .sharedMemory
            staysInSharedMemory = preferSharedMemory
        default:
            let error = WebSetupError(
                reason: String(decoding: message.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            setupError = error
            throw error
        }
        return export!
    }

    /// Settings for every web process of this process; only before the
    /// first view. False when a view already exists (the first settings stay).
    @discardableResult
    package static func configure(sandbox: Bool, memoryLimitMB: Int, readablePath: String?) -> Bool {
        defer { GLibLoop.shared.kick() }
        return sp_web_context_configure(sandbox, UInt32(clamping: max(0, memoryLimitMB)), readablePath)
    }

    /// Whether web processes run in WebKit's bubblewrap sandbox.
    package static var isSandboxed: Bool { sp_web_context_sandboxed() }
}
