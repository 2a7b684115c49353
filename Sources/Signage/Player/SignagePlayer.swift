public import Foundation
public import Screenplay

/// The signage player of `screenplay play` on an app's own `Application`:
/// a playlist file (or a folder of media) on every screen it takes, each
/// panel at the item the wall clock says, with crossfades, layouts,
/// schedules, overrides, reloads on a change of the file, and the
/// requests `screenplay ctl` sends. It writes no file but its state
/// (under XDG_STATE_HOME) and no stderr of its own: its messages go to
/// `PlayerOptions.messages`, its records to the hooks below.
///
/// ```swift
/// let player = SignagePlayer(options: PlayerOptions(path: "lobby.json"))
/// try player.load()
/// var options = ApplicationOptions()
/// player.configure(&options)
/// let app = try Application(options: options)
/// try player.start(on: app)
/// try app.run()
/// ```
@MainActor
public final class SignagePlayer {
    let runner: PlayRunner

    /// A player of `options.path`; nothing is read until `load()`.
    public init(options: PlayerOptions) { runner = PlayRunner(options: options) }

    /// What it was made with.
    public var options: PlayerOptions { runner.options }

    /// Reads and checks the playlist. A playlist file that does not parse
    /// (a bad save) falls back to the last one that did, kept under
    /// XDG_STATE_HOME, with a warning; without one it throws, naming the
    /// file, the JSON path and the fix.
    public func load() throws(PlaylistError) { try runner.load() }

    /// Brings back the overrides kept from an earlier run of this playlist
    /// (under XDG_STATE_HOME): each one is told in the messages, and one
    /// that expired meanwhile is told and recorded (`onEvent`,
    /// `onProofOfPlay`) and forgotten. `start(on:)` does it when the app
    /// did not; an app that calls it before connecting has those lines
    /// before its own start-up lines, as `screenplay play` does. Without an
    /// earlier `load()` it loads first, and throws as that does.
    public func restoreOverrides() throws(PlaylistError) { try runner.restoreOverrides() }

    /// Sets which screens the app's application targets (the player's
    /// screen rule and filter) on the options it is to be made with.
    public func configure(_ options: inout ApplicationOptions) { runner.configure(&options) }

    /// Plays on `app` (made with `configure(_:)`'s options): overrides kept
    /// from an earlier run come back, the playlist and its files are
    /// watched, and a panel starts on each screen taken. Without an earlier
    /// `load()` it loads first, and throws as that does.
    public func start(on app: Application) throws(PlaylistError) { try runner.start(on: app) }

    /// Takes the panels off the screens and stops the player's timers; the
    /// application goes on.
    public func stop() { runner.stop() }

    // MARK: requests

    /// Carries out a request (`screenplay ctl`'s), screenshots aside: the
    /// reply's fields, or why it was refused.
    public func perform(_ request: ControlRequest) -> Result<[String: Any], ControlError> {
        runner.control.perform(request)
    }

    /// One request line (`ControlRequest`'s JSON) in, one reply line out;
    /// nil when the reply comes later through `later` (a screenshot). What
    /// a control socket or a broker hands on.
    public func answer(_ line: Data, later: @escaping @MainActor (Data) -> Void) -> Data? {
        runner.control.answer(line, later: later)
    }

    /// Reads the playlist again: a valid one takes over at each panel's
    /// next item (or at its `activate_at`); nil, or why it was refused (the
    /// old one plays on). `reason` is told in the log line.
    @discardableResult
    public func reload(because reason: String) -> String? { runner.reloader.reload(because: reason) }

    /// The next item now on the panels `output` matches (every panel without it).
    public func next(output: String? = nil) -> Result<[String: Any], ControlError> {
        perform(ControlRequest(command: .next, output: output))
    }

    /// Shows an override (emergency content) over the schedule, or clears one.
    public func override(_ request: OverrideRequest, output: String? = nil) -> Result<[String: Any], ControlError> {
        perform(ControlRequest(command: .override, output: output, override: request))
    }

    /// Clears the overrides (those given `output`): back to the schedule.
    public func backToSchedule(output: String? = nil) -> Result<[String: Any], ControlError> {
        override(.clear, output: output)
    }

    /// What `status` replies: the playlist, the panels, the overrides.
    public func status() -> [String: Any] {
        (try? perform(ControlRequest(command: .status)).get()) ?? [:]
    }

    /// The PNG of what the panel `output` names (the only one without it)
    /// shows, as `ControlReply`'s line: sent once, within two seconds.
    public func screenshot(output: String? = nil, reply: @escaping @MainActor (Data) -> Void) {
        if let now = answer(ControlRequest(command: .screenshot, output: output).line, later: reply) { reply(now) }
    }

    // MARK: state

    /// Each panel's health, for a service manager.
    public var panelHealth: [SignagePanelHealth] { runner.allPanels.map(\.health) }

    /// Every screen taken shows its first item, and there is one.
    public var showsEveryScreen: Bool { runner.health.everyPanelShowsItsFirstItem() }

    /// Why no panel shows content, per screen; nil while one does.
    public var nothingShownReason: String? { runner.health.nothingShownReason() }

    /// Each panel's frames since the last call.
    public func takeFrameStatistics() -> [SignagePanelFrames] { runner.allPanels.compactMap(\.frameStatistics) }

    /// What to do with a draw that never returned (`DrawWatch`'s watchdog
    /// hook, on its thread): remembers the item's file, so it is skipped
    /// until the file changes; returns a line for the message.
    public var hungDrawHandler: @Sendable (DrawWatch.Draw) -> String? { runner.badItems.remembersHungDraw }

    // MARK: hooks

    /// Every record line (connect, item, reload, skipped, schedule, ...):
    /// the tool's `--stats`. Without it no probe pixels are read.
    public var onEvent: (@MainActor ([String: Any]) -> Void)? {
        get { runner.records.onEvent }
        set { runner.records.onEvent = newValue }
    }

    /// Proof of play: an item first fully visible, an override's start,
    /// clear and expiry (each also an `onEvent` line).
    public var onProofOfPlay: (@MainActor ([String: Any]) -> Void)? {
        get { runner.records.onProofOfPlay }
        set { runner.records.onProofOfPlay = newValue }
    }

    /// Something `status` and `panelHealth` tell changed.
    public var onStatusChange: (@MainActor () -> Void)? {
        get { runner.health.onChange }
        set { runner.health.onChange = newValue }
    }

    /// The compositor went away; the player waits for the application to
    /// reconnect (or for the app to end).
    public var onConnectionLost: (@MainActor (ApplicationError) -> Void)? {
        get { runner.onConnectionLost }
        set { runner.onConnectionLost = newValue }
    }

    /// A `reload` request the app answers itself (a remote source asked
    /// now): the reply's message. Nil, or a nil answer: the file is read again.
    public var onReloadRequest: (@MainActor () -> String?)? {
        get { runner.control.onReloadRequest }
        set { runner.control.onReloadRequest = newValue }
    }

    /// Fields the app adds to `status` (its playlist source's, its broker's).
    public var statusFields: (@MainActor () -> [String: Any])? {
        get { runner.control.statusFields }
        set { runner.control.statusFields = newValue }
    }
}
