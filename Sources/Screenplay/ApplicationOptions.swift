/// Options for `Application`.
public struct ApplicationOptions: Sendable {
    /// Socket name or path; nil uses `WAYLAND_DISPLAY`.
    public var displayName: String?
    /// Patterns (see `ScreenPattern`) of screens to treat as built-in, on top
    /// of `SCREENPLAY_BUILTIN` and the eDP/LVDS/DSI connectors.
    public var builtInPatterns: [String] = []
    /// Present external scenes on every screen, built-in ones included.
    public var presentOnAllScreens = false
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

/// What an `Application` does when the compositor goes away. Either way
/// every scene is torn down first and `Application.onConnectionLost` hears
/// the error.
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
