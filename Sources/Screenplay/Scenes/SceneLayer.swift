import WaylandClient

/// The layer an external scene sits in on a compositor with layer shell,
/// bottom-most first: `overlay` is above panels and fullscreen windows,
/// `background` is a wallpaper's place.
public enum SceneLayer: Sendable, CaseIterable {
    /// Below everything: where a wallpaper goes.
    case background
    /// Above the wallpaper, below windows.
    case bottom
    /// Above windows, below fullscreen windows and overlays.
    case top
    /// Above everything, fullscreen windows and panels included (the default).
    case overlay

    var layer: Layer {
        switch self {
        case .background: .background
        case .bottom: .bottom
        case .top: .top
        case .overlay: .overlay
        }
    }
}
