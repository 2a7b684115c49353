import WaylandClient

/// The layer an external scene sits in on a compositor with layer shell,
/// bottom-most first: `overlay` is above panels and fullscreen windows,
/// `background` is a wallpaper's place.
public enum SceneLayer: Sendable, CaseIterable {
    case background, bottom, top, overlay

    var layer: Layer {
        switch self {
        case .background: .background
        case .bottom: .bottom
        case .top: .top
        case .overlay: .overlay
        }
    }
}
