/// The screen a scene is on, and the scene keyed to it: the display link
/// takes the screen's refresh and panel power, the surface its scale. A
/// window follows the output it entered last or its frames were synced
/// to; an external scene stays on the screen it was made for.
@MainActor
final class SceneScreenBinding {
    /// The screen the scene was made for (external scenes) or is on now.
    private(set) var screen: Screen?
    private let role: SceneRole
    private let displayLink: DisplayLink
    private let surface: SceneSurface
    /// Whether the compositor reports panel power (a silent link then
    /// counts as a stall only once a read found the panel not off).
    private let canReadPanelPower: Bool

    init(screen: Screen?, role: SceneRole, displayLink: DisplayLink, surface: SceneSurface, readsPanelPower: Bool) {
        self.screen = screen
        self.role = role
        self.displayLink = displayLink
        self.surface = surface
        canReadPanelPower = readsPanelPower
        displayLink.readsPanelPower = screen != nil && readsPanelPower
    }

    /// Keys the scene to its screen, if it has one (at its start).
    func keyToScreen() {
        if let screen { key(to: screen) }
    }

    /// Takes `screen`'s scale, refresh and panel power; returns whether the
    /// integer scale changed.
    @discardableResult
    private func key(to screen: Screen) -> Bool {
        let scaleChanged = surface.useScale(of: screen)
        displayLink.key(toModeRefreshMilliHz: screen.refreshMilliHz)
        displayLink.isPanelOff = screen.powerState == .off
        displayLink.readsPanelPower = canReadPanelPower
        return scaleChanged
    }

    /// A window moves to the screen whose id is `screenID` (the output it
    /// entered, or its frames were synced to); returns whether it moved.
    func follow(_ screenID: UInt32, among screens: [Screen]) -> Bool {
        guard role == .application, let next = screens.first(where: { $0.id == screenID }), next !== screen else {
            return false
        }
        screen = next
        key(to: next)
        return true
    }

    /// `changed` changed mode, scale or transform: nil when it is not
    /// this scene's screen, else whether the integer scale changed (it goes
    /// to the surface; an external scene keeps spanning the screen).
    func screenChanged(_ changed: Screen) -> Bool? {
        guard changed === screen else { return nil }
        guard key(to: changed) else { return false }
        let spans = role == .externalDisplayNonInteractive && changed.info.logicalWidth > 0
        surface.scaleChanged(spanning: spans ? (changed.info.logicalWidth, changed.info.logicalHeight) : nil)
        return true
    }

    /// The panel was switched on or off; returns whether it is on now.
    func powerChanged() -> Bool {
        displayLink.isPanelOff = screen?.powerState == .off
        return !displayLink.isPanelOff
    }

    /// The screen whose panel power the display link wants read now (a
    /// silence that may be a panel switched off by another program), and
    /// marks the read as started; nil when no read is wanted.
    func screenNeedingPowerRead(nowNs: UInt64) -> Screen? {
        guard let screen, displayLink.needsPanelPowerRead(nowNs: nowNs) else { return nil }
        displayLink.panelPowerReadStarted(nowNs: nowNs)
        return screen
    }
}
