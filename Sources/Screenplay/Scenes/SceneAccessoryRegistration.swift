/// Returned by `Application.registerSceneAccessory`; keep it to control and
/// observe the accessory, as `UISceneAccessoryRegistration`.
@MainActor
public final class SceneAccessoryRegistration {
    /// The accessory registered.
    public let accessory: SceneAccessory
    weak var application: Application?
    let serial: Int

    init(accessory: SceneAccessory, application: Application, serial: Int) {
        self.accessory = accessory
        self.application = application
        self.serial = serial
    }

    /// Set to false to stop presenting without giving up the registration.
    public var isEnabled: Bool = true {
        didSet { if oldValue != isEnabled { application?.registrationsChanged() } }
    }

    /// Whether an external screen is there to present on now.
    public var isAvailable: Bool { application?.externalScreens.isEmpty == false }

    /// Hears every change of `isAvailable`.
    public var onAvailabilityChange: ((Bool) -> Void)?
}
