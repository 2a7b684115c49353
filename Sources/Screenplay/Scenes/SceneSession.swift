/// Describes a connected scene, as `UISceneSession`.
@MainActor
public final class SceneSession {
    /// What the scene is for: an external screen or an application window.
    public let role: SceneRole
    /// The configuration the scene was made from.
    public let configuration: SceneConfiguration
    /// The accessory's user info, for accessory scenes.
    public let userInfo: [String: String]
    /// A name for logs and stats: the configuration's name and the screen's, as `scoreboard@HDMI-A-1`.
    public let persistentIdentifier: String

    init(role: SceneRole, configuration: SceneConfiguration, userInfo: [String: String], identifier: String) {
        self.role = role
        self.configuration = configuration
        self.userInfo = userInfo
        persistentIdentifier = identifier
    }
}
