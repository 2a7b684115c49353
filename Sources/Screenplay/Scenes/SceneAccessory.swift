/// Supplementary content the system presents on the app's behalf when an
/// external screen is there, as `UISceneAccessory`.
public struct SceneAccessory: Sendable {
    /// The configuration each external scene is made from.
    public let sceneConfiguration: SceneConfiguration
    /// Handed to each scene's session (`SceneSession.userInfo`).
    public let userInfo: [String: String]

    /// Content for external screens: one non-interactive scene per screen.
    public static func externalNonInteractive(
        sceneConfiguration: SceneConfiguration, userInfo: [String: String] = [:]
    ) -> SceneAccessory {
        SceneAccessory(sceneConfiguration: sceneConfiguration, userInfo: userInfo)
    }
}
