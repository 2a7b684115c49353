import WaylandClient

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

extension Application {
    /// Keys go to the application window whose surface has keyboard focus.
    /// External scenes take no input; but where one is a fullscreen window
    /// (no layer shell: GNOME) the compositor may give it the focus, and
    /// then its keys go to the application's first window, so a speaker's
    /// clicker keeps working whichever window has focus. Runs after the
    /// batch, so a handler may close windows or shut the application down.
    func deliverKey(_ event: KeyboardEvent) {
        guard let focused = event.surface, let owner = scenes.first(where: { $0.surface === focused }) else { return }
        let target =
            owner.session.role == .application
            ? owner
            : owner.isFullscreenFallback ? scenes.first { $0.session.role == .application && $0.isConnected } : nil
        guard let scene = target else { return }
        let key = KeyEvent(
            keysym: event.keysym, text: event.text, isPressed: event.isPressed, shift: event.shift,
            control: event.control, alt: event.alt)
        scene.delegate.scene(scene, didReceiveKey: key)
    }
}
