/// A key pressed or released in an application window, translated with the
/// compositor's keymap (so it is right for any layout).
public struct KeyEvent: Sendable, Equatable {
    /// The keysym's xkbcommon name: "Right", "Page_Down", "space", "b", "F5".
    public var keysym: String
    /// The text the key types with the modifiers held ("" for none).
    public var text: String
    /// True for a press, false for a release (key repeat is not delivered).
    public var isPressed: Bool
    /// Whether Shift was held.
    public var shift: Bool
    /// Whether Control was held.
    public var control: Bool
    /// Whether Alt was held.
    public var alt: Bool

    /// A key event as Screenplay delivers it; for tests and for apps that feed keys from elsewhere.
    public init(
        keysym: String, text: String = "", isPressed: Bool = true, shift: Bool = false, control: Bool = false,
        alt: Bool = false
    ) {
        self.keysym = keysym
        self.text = text
        self.isPressed = isPressed
        self.shift = shift
        self.control = control
        self.alt = alt
    }
}

extension SceneDelegate {
    /// Ignores the key: implement it to take keys in an application window.
    public func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {}
}
