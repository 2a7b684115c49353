/// Describes the scene to create, as `UISceneConfiguration`.
public struct SceneConfiguration: Sendable {
    /// A name for the scene, in logs and `SceneSession.persistentIdentifier`.
    public var name: String?
    /// Makes the delegate that draws the scene; called once per scene.
    public var delegateFactory: @MainActor @Sendable () -> any SceneDelegate
    /// Layer for external scenes (overlay by default: above panels and windows).
    public var layer: SceneLayer
    /// Preferred frames per second for the scene's display link (0 = every refresh).
    public var preferredFramesPerSecond: Int

    /// A configuration whose scenes `delegateFactory` draws.
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
