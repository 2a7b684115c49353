/// What a scene is for, as `UISceneSession.Role`.
public enum SceneRole: String, Sendable {
    /// An ordinary interactive window (an `xdg_toplevel`).
    case application
    /// Content spanning a whole external screen, taking no input or focus
    /// (a layer-shell surface; a fullscreen window where there is none).
    case externalDisplayNonInteractive
}
