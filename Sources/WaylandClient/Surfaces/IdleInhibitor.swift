import CWaylandProtocols

/// A `zwp_idle_inhibitor_v1` on one surface: while it exists and the surface
/// is visible, the compositor does not blank the screen or lock.
@MainActor
package final class IdleInhibitor {
    private var proxy: OpaquePointer?

    /// Nil when the compositor offers no zwp_idle_inhibit_manager_v1.
    package init?(surface: Surface) {
        guard let manager = surface.compositor.idleInhibitManager else { return nil }
        proxy = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, surface.proxy)
    }

    /// Destroys the inhibitor; must run before its surface is destroyed.
    package func destroy() {
        if let proxy { zwp_idle_inhibitor_v1_destroy(proxy) }
        proxy = nil
    }
}
