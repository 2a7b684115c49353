import WaylandClient

extension Scene {
    /// While true, the compositor does not blank or lock the screens this
    /// scene is shown on (`zwp_idle_inhibitor_v1`), so a projector showing
    /// slides stays on. Reads false where the compositor offers no idle
    /// inhibitor. The inhibitor goes with the scene's teardown.
    public var inhibitsIdle: Bool {
        get { sceneSurface.inhibitsIdle }
        set { if sceneSurface.setInhibitsIdle(newValue) { host.flush() } }
    }
}
