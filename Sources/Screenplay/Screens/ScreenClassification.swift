/// How a screen was classified, with the reason in words for `doctor`.
public struct ScreenClassification: Hashable, Sendable {
    /// Built-in panel, main screen, or external screen.
    public enum Kind: String, Sendable {
        /// A laptop panel or one the app or `SCREENPLAY_BUILTIN` named.
        case builtIn = "built-in"
        /// With no built-in panel, the screen that keeps the app's controls.
        case main
        /// Any other screen: where external-display scenes go.
        case external
    }
    /// The kind the classifier chose.
    public var kind: Kind
    /// Why, in words (shown by `screenplay doctor`).
    public var reason: String
    /// The built-in pattern (`ApplicationOptions.builtInPatterns`,
    /// `SCREENPLAY_BUILTIN`) that marked this screen, if one did; nil for a
    /// panel known by its connector, or a screen no pattern names.
    public var markingPattern: String?

    /// A classification of `kind` for `reason`, marked by `markingPattern` if given.
    public init(kind: Kind, reason: String, markingPattern: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.markingPattern = markingPattern
    }
    /// Whether the screen is a built-in panel.
    public var isBuiltIn: Bool { kind == .builtIn }
    /// Whether external-display scenes go here (unless every screen is asked for).
    public var isExternal: Bool { kind == .external }
}
