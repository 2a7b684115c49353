
/// What a scene is for, as `UISceneSession.Role`.
public enum SceneRole: String, Sendable {
    /// An ordinary interactive window (an `xdg_toplevel`).
    case application
    /// Content spanning a whole external screen, taking no input or focus
    /// (a layer-shell surface; a fullscreen window where there is none).
    case externalDisplayNonInteractive
}

/// Describes the scene to create, as `UISceneConfiguration`.
public struct SceneConfiguration: Sendable {
    public var name: String?
    /// Makes the delegate that draws the scene; called once per scene.
    public var delegateFactory: @MainActor @Sendable () -> any SceneDelegate
    /// Layer for external scenes (overlay by default: above panels and windows).
    public var layer: SceneLayer
    /// Preferred frames per second for the scene's display link (0 = every refresh).
    public var preferredFramesPerSecond: Int

    public init(
        name: String? = nil, layer: SceneLayer = .overlay, preferredFramesPerSecond: Int = 0,
        delegateFactory: @escaping @MainActor @Sendable () -> any SceneDelegate
    ) {
        self.name = name
        self.layer = layer
        self.preferredFramesPerSecond = preferredFramesPerSecond
        self.delegateFactory = delegateFactory
    }
}

/// Supplementary content the system presents on the app's behalf when an
/// external screen is there, as `UISceneAccessory`.
public struct SceneAccessory: Sendable {
    public let sceneConfiguration: SceneConfiguration
    public let userInfo: [String: String]

    /// Content for external screens: one non-interactive scene per screen.
    public static func externalNonInteractive(
        sceneConfiguration: SceneConfiguration, userInfo: [String: String] = [:]
    ) -> SceneAccessory {
        SceneAccessory(sceneConfiguration: sceneConfiguration, userInfo: userInfo)
    }
}

/// Returned by `Application.registerSceneAccessory`; keep it to control and
/// observe the accessory, as `UISceneAccessoryRegistration`.
@MainActor
public final class SceneAccessoryRegistration {
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

/// Which registration is presented: the most recent one; when it is
/// unregistered, the one before takes over. A disabled registration keeps
/// its place and shows nothing (disabling means "stop showing my content",
/// not "show older content instead"). Pure, for unit tests.
package struct RegistrationStack: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var id: Int
        package var isEnabled: Bool
    }
    package private(set) var entries: [Entry] = []
    package init() {}

    package mutating func register(_ id: Int) { entries.append(Entry(id: id, isEnabled: true)) }
    package mutating func unregister(_ id: Int) { entries.removeAll { $0.id == id } }
    package mutating func setEnabled(_ id: Int, _ enabled: Bool) {
        if let i = entries.firstIndex(where: { $0.id == id }) { entries[i].isEnabled = enabled }
    }

    /// The registration whose scenes should be connected, if any.
    package var presented: Int? {
        guard let top = entries.last, top.isEnabled else { return nil }
        return top.id
    }
}
