/// The accessory registrations and the scenes shown for them: which
/// registration is presented (the most recent enabled one, by
/// `RegistrationStack`), which screen has its scene, and whether the
/// registrations were last told a screen is available. It decides; the
/// application makes and tears down the scenes it names.
@MainActor
final class AccessoryScenes {
    private(set) var registrations: [SceneAccessoryRegistration] = []
    private var stack = RegistrationStack()
    private var nextSerial = 0
    /// The presented registration's scene on each screen, by screen id.
    private var byScreen: [UInt32: Scene] = [:]
    /// The registration `byScreen`'s scenes belong to.
    private var shownSerial: Int?
    private var wasAvailable = false

    /// Adds a registration on top; it is presented while enabled.
    func register(_ accessory: SceneAccessory, for application: Application) -> SceneAccessoryRegistration {
        nextSerial += 1
        let registration = SceneAccessoryRegistration(
            accessory: accessory, application: application, serial: nextSerial)
        registrations.append(registration)
        stack.register(registration.serial)
        return registration
    }

    /// Removes a registration; the one before it, if any, takes over.
    func unregister(_ registration: SceneAccessoryRegistration) {
        registrations.removeAll { $0 === registration }
        stack.unregister(registration.serial)
        registration.application = nil
    }

    /// Takes each registration's `isEnabled`.
    func takeEnabledStates() {
        for r in registrations { stack.setEnabled(r.serial, r.isEnabled) }
    }

    /// The registration presented now.
    var presented: SceneAccessoryRegistration? {
        guard let serial = stack.presented else { return nil }
        return registrations.first { $0.serial == serial }
    }

    /// Forgets and returns the scenes that no longer belong: all of them
    /// when another registration is presented, else those on screens that
    /// are no longer targets.
    func takeStaleScenes(targets: [Screen]) -> [Scene] {
        var stale: [Scene] = []
        if presented?.serial != shownSerial {
            stale = Array(byScreen.values)
            byScreen.removeAll()
            shownSerial = presented?.serial
        }
        for (id, scene) in byScreen where !targets.contains(where: { $0.id == id }) {
            byScreen[id] = nil
            stale.append(scene)
        }
        return stale
    }

    /// Target screens that have no scene for the presented registration yet.
    func screensWithoutScene(_ targets: [Screen]) -> [Screen] {
        targets.filter { byScreen[$0.id] == nil }
    }

    /// Records the scene made for the presented registration on `screen`.
    func add(_ scene: Scene, on screen: Screen) { byScreen[screen.id] = scene }

    /// Forgets the scene on the screen with `id` (the screen went) and returns it.
    func takeScene(onScreen id: UInt32) -> Scene? { byScreen.removeValue(forKey: id) }

    /// Forgets `scene` (closed by the app or the compositor).
    func forget(_ scene: Scene) { byScreen = byScreen.filter { $0.value !== scene } }

    /// Forgets every scene (they were all torn down).
    func forgetAll() { byScreen.removeAll() }

    /// Tells every registration when whether a screen is there changed.
    func setAvailable(_ available: Bool) {
        guard available != wasAvailable else { return }
        wasAvailable = available
        for r in registrations { r.onAvailabilityChange?(available) }
    }
}
