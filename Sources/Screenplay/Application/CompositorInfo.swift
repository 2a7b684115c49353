import WaylandClient

/// A Wayland protocol the compositor offers (a global of its registry), as
/// `wayland-info` lists them: what a diagnosis names when a feature is
/// missing (no `zwlr_layer_shell_v1` on GNOME, no `wp_presentation` on cage).
public struct OfferedProtocol: Hashable, Sendable, CustomStringConvertible {
    /// The interface, such as `zwlr_layer_shell_v1`.
    public let interface: String
    /// The highest version the compositor offers of it.
    public let version: Int

    /// `interface vN`, as `doctor` prints it.
    public var description: String { "\(interface) v\(version)" }
}

/// The compositor the application is connected to, as `doctor` describes
/// it: where the connection went and which protocols it offers. It reads
/// the connection it was made on: after a reconnect
/// (`CompositorLossBehavior.reconnect`) ask the application again.
@MainActor
public struct CompositorInfo {
    let compositor: Compositor
    let screenRegistry: ScreenRegistry

    /// Where the connection went, for messages.
    public var socketDescription: String { compositor.connection.socketDescription }
    /// Whether external scenes use wlr-layer-shell.
    public var hasLayerShell: Bool { compositor.layerShell != nil }
    /// Whether the compositor lets clients change modes (`zwlr_output_manager_v1`).
    public var canSetModes: Bool { compositor.outputManager != nil }
    /// Whether the compositor lets clients switch panels (`zwlr_output_power_manager_v1`).
    public var canControlPower: Bool { compositor.powerManager != nil }

    /// Every protocol the compositor offers now, in the order it announced
    /// them (an interface offered twice, such as `wl_output`, appears once
    /// per global).
    public var offeredProtocols: [OfferedProtocol] {
        compositor.globals.values.sorted { $0.name < $1.name }.map {
            OfferedProtocol(interface: $0.interface, version: Int($0.version))
        }
    }

    /// Heads the compositor announces that are no Screen: outputs it has
    /// disabled (and so withdrew from wl_output). Empty without
    /// `zwlr_output_manager_v1`.
    public var disabledHeads: [ScreenHead] { screenRegistry.disabledHeads(in: compositor.outputManager) }

    /// A sentence for errors and `doctor`: the compositor cannot `what` from
    /// a client without `interface`, and what can (its own settings).
    public static func missingProtocolSentence(_ what: String, _ interface: String) -> String {
        "the compositor does not offer \(interface), so no client can \(what) here; use the compositor's own settings (GNOME Settings > Displays, KDE System Settings > Display, `weston.ini` for weston, cage takes the preferred mode)"
    }
}

extension Application {
    /// The compositor connected to now: where, and what it offers.
    public var compositorInfo: CompositorInfo {
        CompositorInfo(compositor: compositor, screenRegistry: screenRegistry)
    }
}
