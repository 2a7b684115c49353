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

extension Application {
    /// Every protocol the compositor offers now, in the order it announced
    /// them (an interface offered twice, such as `wl_output`, appears once
    /// per global).
    public var offeredProtocols: [OfferedProtocol] {
        compositor.globals.values.sorted { $0.name < $1.name }.map {
            OfferedProtocol(interface: $0.interface, version: Int($0.version))
        }
    }
}
