import Dispatch
import Foundation
import Screenplay

/// The player behind `SignagePlayer`: playlists on an application's
/// screens, a panel on each; a change to the playlist file (or a
/// `reload`) reads it again. It coordinates the jobs that serve the
/// panels: the one timer, the overrides, the reloads, the health report
/// and the requests.
@MainActor
final class PlayRunner: PlayHost {
    let options: PlayerOptions
    private(set) var config: SignageConfig
    private(set) var app: Application?
    private var registration: SceneAccessoryRegistration?
    /// Where the record lines go (`--stats`, proof of play: the app's hooks).
    let records: PlayRecorder
    /// Items that failed or hung the renderer, passed over until their file changes.
    private(set) lazy var badItems = BadItems(records: records, messages: messages)
    private var panels: [ObjectIdentifier: PlayPanel] = [:]
    /// The item boundaries, schedule changes and override expiries of every panel.
    private(set) lazy var ticker = PlayTicker(
        nextDeadline: { [unowned self] in
            // OVERRIDE: an expiry is a tick like an item boundary.
            (panels.values.compactMap(\.nextEventTime) + [overrides.nextExpiry].compactMap { $0 }).min()
        },
        fire: { [unowned self] now in
            overrides.expire(now: now)  // OVERRIDE
            for panel in panels.values { panel.evaluate(now: now) }
        })
    /// Which screens play takes, and why another shows nothing.
    private(set) lazy var screens = PlayScreens(options: options) { [unowned self] in config }
    /// `SCREENPLAY_PLAY_PROBE=1` (tests only): a `probe` stats line per frame
    /// drawn, with the colour read back from the middle of the buffer before
    /// it is presented, to check every frame of a crossfade.
    private let probe = ProcessInfo.processInfo.environment["SCREENPLAY_PLAY_PROBE"] == "1"
    /// `SCREENPLAY_PLAY_PICTURES=1` (tests and benches only): a `picture`
    /// stats line each time a panel shows a mirrored video's picture new to
    /// it, with the time it reached the screen, to measure whether a wall's
    /// tiles show each picture on the same refresh. No pixels are read.
    let tracksPictures = ProcessInfo.processInfo.environment["SCREENPLAY_PLAY_PICTURES"] == "1"
    /// What the app hears of the panels' health.
    private(set) lazy var health = PlayHealth(runner: self, screens: screens)
    /// The requests of `screenplay ctl`'s socket and a broker alike.
    private(set) lazy var control = PlayControl(runner: self)
    /// Between a lost connection and the reconnect.
    private(set) var compositorGone = false
    /// The playlist file: read, watched and read again.
    private(set) lazy var reloader = PlaylistReloader(options: options, records: records) { [unowned self] fresh, at in
        take(fresh, at: at)
    }
    /// Notices a step of the wall clock.
    private var clockWatch: ClockWatch?
    /// OVERRIDE: `ctl override`'s emergency content (`PlayOverrides.swift`).
    private(set) lazy var overrides = PlayOverrides(runner: self, playlist: options.path)
    /// The app's: the compositor went away.
    var onConnectionLost: (@MainActor (ApplicationError) -> Void)?

    var messages: SignageMessages { options.messages }
    var webSandbox: WebSandboxPolicy { options.webSandbox }

    init(options: PlayerOptions) {
        self.options = options
        records = PlayRecorder(messages: options.messages)
        config = SignageConfig(playlists: [:], panels: [], defaultPlaylist: nil, sync: true, source: options.path)
        records.changed = { [weak self] in self?.health.update() }
    }

    /// Reads and checks the configuration (a playlist file that does not
    /// parse falls back to the last good one).
    func load() throws(PlaylistError) {
        config = try reloader.readAtStart()
        loaded = true
    }

    /// A configuration was read: a panel has a playlist to start with.
    private(set) var loaded = false

    /// The overrides kept from an earlier run are back (once: a second
    /// restore would tell them again).
    private var overridesRestored = false

    /// OVERRIDE: brings back the kept overrides, reading the playlist first
    /// if `load()` was not called (they are resolved against it).
    func restoreOverrides() throws(PlaylistError) {
        if !loaded { try load() }
        guard !overridesRestored else { return }
        overridesRestored = true
        overrides.restore(now: now())
    }

    /// The screens play takes: the library's rule, then play's own filter.
    func configure(_ applicationOptions: inout ApplicationOptions) {
        applicationOptions.targets = screens.rule
        applicationOptions.screenFilter = { [weak self] screen in self?.screens.admits(screen) ?? false }
    }

    /// Starts playing on `app`, reading the playlist first if `load()` was not called.
    func start(on app: Application) throws(PlaylistError) {
        if !loaded { try load() }
        badItems.forgetFailures()
        try restoreOverrides()  // OVERRIDE: kept ones apply from the first frame
        reloader.watch(config.mediaFiles)
        attach(app)
        health.startNothingShownWarnings()
        clockWatch = ClockWatch { [weak self] step in self?.clockStepped(by: step) }
    }

    private func attach(_ app: Application) {
        self.app = app
        badItems.app = app
        app.onConnectionLost = { [weak self] error in
            // The app's hook first: it may end the process (`--no-reconnect`).
            self?.onConnectionLost?(error)
            // The application reconnects itself (ApplicationOptions.whenCompositorGoes)
            // and connects the registration's scenes on the new screens.
            self?.compositorGone = true
            self?.health.update()
        }
        app.onReconnect = { [weak self, weak app] in
            self?.messages.info("reconnected to \(app?.compositorInfo.socketDescription ?? "the compositor")")
            self?.compositorGone = false
            self?.health.update()
        }
        app.onScreenConnect = { [weak self] screen in
            self?.messages.info("screen connected: \(screen.name) (\(screen.classification.kind.rawValue))")
            self?.screens.explainUnmatched(screen)
        }
        app.onScreenDisconnect = { [messages] screen in messages.info("screen disconnected: \(screen.name)") }
        let configuration = SceneConfiguration(
            name: "screenplay-play", layer: options.layer, preferredFramesPerSecond: 0,
            delegateFactory: { [unowned self] in self.makePanel() })
        registration = app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: configuration))
        for screen in app.screens { screens.explainUnmatched(screen) }
        if app.externalScreens.isEmpty {
            let why = app.screens.map { "\($0.name): \(app.targetReason($0).reason)" }.joined(separator: "; ")
            messages.info(
                "no screen to play on yet; waiting for one to connect (\(why.isEmpty ? "no screens at all" : why))")
        }
    }

    // MARK: panels

    /// The scene being made is for the screen the factory cannot see, so a
    /// panel starts with the default assignment and takes its own on connect.
    private func makePanel() -> PlayPanel {
        let first = config.defaultPlaylist.flatMap { config.playlists[$0] } ?? config.playlists.values.first!
        return PlayPanel(runner: self, playlist: first, rotate: 0, probe: probe)
    }

    func assignment(for screen: Screen) -> PanelAssignment.Entry? {
        config.assignment(for: screen)
    }

    func panelConnected(_ panel: PlayPanel, _ scene: Scene) {
        panels[ObjectIdentifier(panel)] = panel
        // swayidle or a desktop's blanking must not turn a panel off mid-loop.
        scene.inhibitsIdle = !options.allowIdle
        if let screen = scene.screen, let assigned = assignment(for: screen) {
            panel.reassign(assigned)
            panel.takeAssignmentNow()
        }
        overrides.panelConnected(panel)  // OVERRIDE
        records.write([
            "event": "connect", "output": panel.outputName, "width": scene.pixelSize.width,
            "height": scene.pixelSize.height,
            "playlist": panel.playlist.name, "rotate": panel.programme.rotate,
            "refresh_mhz": scene.screen?.refreshMilliHz ?? 0,
            "inhibits_idle": scene.inhibitsIdle,
        ])
    }

    func panelDisconnected(_ panel: PlayPanel) {
        panels[ObjectIdentifier(panel)] = nil
        records.write(["event": "disconnect", "output": panel.outputName])
        ticker.schedule()
        health.update()
    }

    func isHeld(_ output: String) -> Bool { control.heldOutputs.contains(output) }

    /// Why no panel shows content, per screen; nil while one does.
    func nothingShownReason() -> String? { health.nothingShownReason() }

    // MARK: the clock

    /// Wall-clock now, a hair ahead so a timer that fires on a boundary lands after it.
    func now() -> Double { PlayTicker.now() }

    /// With `"sync": true` each panel moves to the item the new time says
    /// (switching only to an item that is ready, so no black frame); other
    /// panels keep their own timing.
    private func clockStepped(by step: Double) {
        messages.info(
            "the wall clock stepped \(step > 0 ? "forward" : "back") by \(String(format: "%.3f", abs(step))) s; \(config.sync ? "panels move to the clock's item" : "panels keep their timing")"
        )
        records.write(["event": "clock-step", "seconds": step, "ns": monotonicNanoseconds()])
        for panel in panels.values { panel.clockStepped(by: step, sync: config.sync) }
        ticker.tickNow()
    }

    /// OVERRIDE: the connected panels.
    var allPanels: [PlayPanel] { Array(panels.values) }

    // MARK: reload

    /// Makes `fresh` the configuration: at each panel's next item, or
    /// (`activate_at`) on every panel in this one turn of the main queue,
    /// so they draw in one batch and reach their screens on one refresh.
    private func take(_ fresh: SignageConfig, at activation: Double?) {
        config = fresh
        badItems.forgetFailures()
        screens.forgetTold()
        for panel in panels.values {
            guard let scene = panel.sceneForReload, let screen = scene.screen,
                let assigned = assignment(for: screen)
            else { continue }
            panel.reassign(assigned)
        }
        app?.reevaluateScreens()
        if let activation {
            messages.info("\(options.path) takes over now (activate_at \(iso8601(wallSeconds: activation)))")
            records.write(["event": "activate", "path": options.path, "activate_at": activation])
            let now = self.now()
            for panel in panels.values { panel.takeReloadNow(now: now) }
        } else {
            // A layout is one item of an hour: a panel showing one takes the
            // reload now. Others wait for their next item (evaluating them
            // now would let an old playlist's missing file be reported
            // again and remembered as bad with the stamp of the file that
            // just arrived).
            for panel in panels.values where panel.showsLayout { panel.evaluate(now: now()) }
        }
        ticker.schedule()
        if let app { for screen in app.screens { screens.explainUnmatched(screen) } }
    }

    // MARK: plumbing

    /// The panels leave the screens (the registration is handed back) and
    /// the timers stop; the application is the app's to shut down.
    func stop() {
        health.stop()
        clockWatch?.stop()
        clockWatch = nil
        reloader.stop()
        if let registration { app?.unregisterSceneAccessory(registration) }
        registration = nil
    }
}
