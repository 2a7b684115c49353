import CWayland
import CWaylandProtocols

private nonisolated(unsafe) var layerSurfaceListener = zwlr_layer_surface_v1_listener(
    configure: { data, _, serial, w, h in
        deliver(data, to: LayerSurface.self) { $0.configured(serial: serial, width: w, height: h) }
    },
    closed: { data, _ in
        deliver(data, to: LayerSurface.self) { $0.closed() }
    }
)

/// A `zwlr_layer_surface_v1`: the role of an external scene. It spans its
/// output, takes no keyboard focus and reserves no space.
@MainActor
package final class LayerSurface {
    let proxy: OpaquePointer
    private var isDestroyed = false
    /// (serial, width, height) in surface units; 0 means "you choose".
    package var onConfigure: ((UInt32, Int, Int) -> Void)?
    package var onClosed: (() -> Void)?

    package init(surface: Surface, output: Output?, layer: Layer, namespace: String) throws(SurfaceError) {
        guard let shell = surface.compositor.layerShell else {
            throw SurfaceError("the compositor offers no zwlr_layer_shell_v1")
        }
        proxy = zwlr_layer_shell_v1_get_layer_surface(
            shell, surface.proxy, output?.proxy, layer.rawValue, namespace)
        zwlr_layer_surface_v1_add_listener(proxy, &layerSurfaceListener, userData(self))
        let all =
            ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
            | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        zwlr_layer_surface_v1_set_anchor(proxy, all)
        zwlr_layer_surface_v1_set_size(proxy, 0, 0)
        // -1: extend under panels to the very edges of the output.
        zwlr_layer_surface_v1_set_exclusive_zone(proxy, -1)
        zwlr_layer_surface_v1_set_keyboard_interactivity(
            proxy, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)
    }

    package func ackConfigure(_ serial: UInt32) {
        guard !isDestroyed else { return }
        zwlr_layer_surface_v1_ack_configure(proxy, serial)
    }

    func configured(serial: UInt32, width: UInt32, height: UInt32) {
        guard !isDestroyed else { return }
        onConfigure?(serial, Int(width), Int(height))
    }

    func closed() {
        guard !isDestroyed else { return }
        onClosed?()
    }

    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        zwlr_layer_surface_v1_destroy(proxy)
    }
}
