/// How a screen was classified, with the reason in words for `doctor`.
public struct ScreenClassification: Hashable, Sendable {
    public enum Kind: String, Sendable {
        /// A laptop panel or one the app or `SCREENPLAY_BUILTIN` named.
        case builtIn = "built-in"
        /// With no built-in panel, the screen that keeps the app's controls.
        case main
        case external
    }
    public var kind: Kind
    public var reason: String
    public var isBuiltIn: Bool { kind == .builtIn }
    /// Whether external-display scenes go here (unless every screen is asked for).
    public var isExternal: Bool { kind == .external }
}
