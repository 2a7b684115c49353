import CWayland
import CWaylandProtocols

/// Buffer sizes for a fractional scale, as wp_fractional_scale_v1 says: the
/// scale is a numerator over 120, and a surface of W logical pixels gets a
/// buffer of round(W * scale / 120) pixels, rounded half away from zero,
/// shown at W x H through wp_viewport. Each axis is rounded on its own, so
/// no row or column is lost or doubled (the off-by-one of hyprpaper #181).
public enum FractionalScaleMath {
    public static let denominator = 120

    public static func bufferLength(logical: Int, scale120: Int) -> Int {
        guard logical > 0, scale120 > 0 else { return max(logical, 0) }
        // Integer half-away-from-zero rounding of logical * scale / 120.
        return (logical * scale120 + denominator / 2) / denominator
    }

    public static func bufferSize(logicalWidth: Int, logicalHeight: Int, scale120: Int) -> (width: Int, height: Int) {
        (
            bufferLength(logical: logicalWidth, scale120: scale120),
            bufferLength(logical: logicalHeight, scale120: scale120)
        )
    }
}

/// wp_fractional_scale_v1 for one surface: hears the preferred scale.
@MainActor
package final class FractionalScale {
    private let proxy: OpaquePointer
    private var isDestroyed = false
    /// The compositor's preferred scale, numerator over 120.
    package private(set) var scale120: Int?
    package var onChange: ((Int) -> Void)?

    /// Nil when the compositor lacks the protocol or wp_viewporter (the
    /// buffer must be shown at its logical size through a viewport).
    package init?(surface: Surface) {
        guard let manager = surface.compositor.fractionalScaleManager, surface.compositor.viewporter != nil else {
            return nil
        }
        proxy = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface.proxy)
        wp_fractional_scale_v1_add_listener(proxy, &fractionalScaleListener, userData(self))
    }

    func preferred(_ value: UInt32) {
        guard !isDestroyed, value > 0 else { return }
        scale120 = Int(value)
        onChange?(Int(value))
    }

    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        wp_fractional_scale_v1_destroy(proxy)
    }
}

private nonisolated(unsafe) var fractionalScaleListener = wp_fractional_scale_v1_listener(
    preferred_scale: { data, _, scale in
        deliver(data, to: FractionalScale.self) { $0.preferred(scale) }
    }
)
