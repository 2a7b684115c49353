/// Options for `Application`.
public struct ApplicationOptions: Sendable {
    /// Socket name or path; nil uses `WAYLAND_DISPLAY`.
    public var displayName: String?
    /// Patterns (see `ScreenPattern`) of screens to treat as built-in, on top
    /// of `SCREENPLAY_BUILTIN` and the eDP/LVDS/DSI connectors.
    public var builtInPatterns: [String] = []
    /// Which screens get external-display scenes: external ones only (the
    /// default, as on iOS), or every screen, as signage wants.
    public var targets: ScreenTargets = .externalScreens
    /// Restricts the screens that get external scenes (e.g. `--output`).
    public var screenFilter: (@MainActor @Sendable (Screen) -> Bool)?
    /// Highest wl_output / xdg-output versions to bind (tests bind lower ones).
    public var maxOutputVersion: UInt32 = 4
    /// Highest zxdg_output_manager_v1 version to bind (tests bind lower ones).
    public var maxXdgOutputVersion: UInt32 = 3
    /// Highest zwlr_layer_shell_v1 version to bind. 0 makes external scenes
    /// fullscreen windows even where layer shell is offered, as on GNOME:
    /// window capture tools can record them and window rules apply, but
    /// they may take focus.
    public var maxLayerShellVersion: UInt32 = 4
    /// What happens when the compositor goes away (it exits, crashes or
    /// restarts): `run()` returns with the error (the default), or the
    /// application waits for a compositor on the same socket and shows its
    /// registrations and windows again.
    public var whenCompositorGoes: CompositorLossBehavior = .stop
    /// Told which scene draws and since when, for a thread that watches for
    /// a renderer stuck in a draw (see `DrawWatch`); nil watches nothing.
    public var drawWatch: DrawWatch?

    /// The defaults: the newest protocol versions Screenplay knows, every screen a target.
    public init() {}
}

/// Which screens an `Application` connects external-display scenes on.
/// Disabled and disconnected screens never get one, and `screenFilter`
/// narrows any of these further.
public enum ScreenTargets: Sendable, Equatable {
    /// Screens classified external: not a built-in panel, and not the main
    /// screen that keeps the app's controls when there is no built-in panel
    /// (the iOS model: presenter, second-screen apps).
    case externalScreens
    /// Every screen except those marked built-in by a pattern
    /// (`builtInPatterns`, `SCREENPLAY_BUILTIN`). A signage box has no
    /// laptop panel to keep free: its only screen, whether HDMI at (0,0)
    /// or an all-in-one's eDP panel, shows the content.
    case everyScreenExceptMarkedBuiltIn
    /// Every screen, built-in panels included.
    case everyScreen

    /// Whether a screen classified as `classification` gets a scene under
    /// this rule, and why, in words (for `doctor` and the logs). Pure: the
    /// rule is unit tested on its own.
    public func admits(_ classification: ScreenClassification) -> (isTarget: Bool, reason: String) {
        switch self {
        case .externalScreens:
            return classification.isExternal
                ? (true, classification.reason) : (false, "\(classification.reason); use --all to present there too")
        case .everyScreenExceptMarkedBuiltIn:
            if classification.markingPattern != nil {
                return (
                    false, "\(classification.reason); remove that pattern, or use --all, to show content there too"
                )
            }
            return (true, "every screen not marked built-in shows content")
        case .everyScreen:
            return (true, "--all: every screen gets the scene")
        }
    }
}

/// What an `Application` does when the compositor goes away. Either way
/// every scene is torn down first and `Application.onConnectionLost` hears
/// the error. A connection dropped because libwayland refused a message
/// from a compositor that runs on (`ApplicationError.Kind.messageRefused`)
/// is not a compositor gone: the app reconnects at once, up to three
/// times a minute, and `onSceneError` hears why.
public enum CompositorLossBehavior: Sendable, Equatable {
    /// `run()` shuts the application down and throws the error
    /// (`connectionLost` or `protocolError`). Outside `run()` the
    /// application stays as it is until the app calls `shutdown()`.
    case stop
    /// Tries the same socket every `interval` (a timer, no busy loop) until
    /// a compositor answers, then connects the registered accessories'
    /// scenes on its external screens and reopens the windows that were
    /// open, as new scenes with the same sessions and delegates (each hears
    /// `sceneDidDisconnect`, then `scene(_:willConnectTo:)` again).
    /// `Application.onReconnect` hears it. For kiosks and signage, where a
    /// compositor restart must not end the show.
    case reconnect(every: Duration = .milliseconds(100))
}
