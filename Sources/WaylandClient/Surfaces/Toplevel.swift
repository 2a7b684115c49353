import CWayland
import CWaylandProtocols

private nonisolated(unsafe) var xdgSurfaceListener = xdg_surface_listener(
    configure: { data, _, serial in
        deliver(data, to: Toplevel.self) { $0.surfaceConfigure(serial: serial) }
    }
)

private nonisolated(unsafe) var toplevelListener = xdg_toplevel_listener(
    configure: { data, _, w, h, states in
        var fullscreen = false
        if let states, let base = states.pointee.data {
            let count = states.pointee.size / MemoryLayout<UInt32>.size
            let values = base.bindMemory(to: UInt32.self, capacity: count)
            for i in 0..<count where values[i] == XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue { fullscreen = true }
        }
        let isFullscreen = fullscreen
        deliver(data, to: Toplevel.self) { $0.toplevelConfigure(width: w, height: h, fullscreen: isFullscreen) }
    },
    close: { data, _ in
        deliver(data, to: Toplevel.self) { $0.close() }
    },
    configure_bounds: { _, _, _, _ in },
    wm_capabilities: { _, _, _ in }
)

/// An `xdg_toplevel`: an ordinary window (the app's interactive window, the
/// preview window, and the fullscreen fallback where there is no layer shell).
@MainActor
package final class Toplevel {
    let xdgSurface: OpaquePointer
    let toplevel: OpaquePointer
    private var isDestroyed = false
    private var pendingSize: (Int, Int) = (0, 0)
    private var pendingFullscreen = false
    /// (serial, width, height, fullscreen); sizes of 0 mean "you choose".
    package var onConfigure: ((UInt32, Int, Int, Bool) -> Void)?
    package var onClose: (() -> Void)?

    package init(surface: Surface, title: String, appID: String) throws(SurfaceError) {
        guard let base = surface.compositor.wmBase else {
            throw SurfaceError("the compositor offers no xdg_wm_base (xdg-shell)")
        }
        xdgSurface = xdg_wm_base_get_xdg_surface(base, surface.proxy)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_surface_add_listener(xdgSurface, &xdgSurfaceListener, userData(self))
        xdg_toplevel_add_listener(toplevel, &toplevelListener, userData(self))
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, appID)
    }

    package func setFullscreen(on output: Output?) {
        xdg_toplevel_set_fullscreen(toplevel, output?.proxy)
    }

    package func unsetFullscreen() {
        xdg_toplevel_unset_fullscreen(toplevel)
    }

    package func ackConfigure(_ serial: UInt32) {
        guard !isDestroyed else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
    }

    func toplevelConfigure(width: Int32, height: Int32, fullscreen: Bool) {
        pendingSize = (Int(width), Int(height))
        pendingFullscreen = fullscreen
    }

    func surfaceConfigure(serial: UInt32) {
        guard !isDestroyed else { return }
        onConfigure?(serial, pendingSize.0, pendingSize.1, pendingFullscreen)
    }

    func close() {
        guard !isDestroyed else { return }
        onClose?()
    }

    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
    }
}
