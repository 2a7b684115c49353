public import WaylandClient

/// Describes the scene to create, as `UISceneConfiguration`.
public struct SceneConfiguration: Sendable {
    public var name: String?
    /// Makes the delegate that draws the scene; called once per scene.
    public var delegateFactory: @MainActor @Sendable () -> any SceneDelegate
    /// Layer for external scenes (overlay by default: above panels and windows).
    public var layer: Layer
    /// Preferred frames per second for the scene's display link (0 = every refresh).
    public var preferredFramesPerSecond: Int

    public init(
        name: String? = nil, layer: Layer = .overlay, preferredFramesPerSecond: Int = 0,
        delegateFactory: @escaping @MainActor @Sendable () -> any SceneDelegate
    ) {
        self.name = name
        self.layer = layer
        self.preferredFramesPerSecond = preferredFramesPerSecond
        self.delegateFactory = delegateFactory
    }
}
