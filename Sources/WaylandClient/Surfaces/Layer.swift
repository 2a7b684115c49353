/// The layer a layer-shell surface sits in, bottom-most first.
public enum Layer: UInt32, Sendable, CaseIterable {
    case background = 0, bottom, top, overlay
}
