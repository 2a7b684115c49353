import Dispatch
import Fleet
import Foundation
import Screenplay
import Signage

/// `screenplay play`: playlists on external screens until a signal;
/// SIGHUP or a change to the playlist file reloads it.
@MainActor
final class PlayRunner: SceneCommand {
    let command: PlayCommand
    private(set) var config: SignageConfig
    private(set) var app: Application?
    private var registration: SceneAccessoryRegistration?
    private var signals: PlaySignals?
    /// `--stats`, `--proof` and the broker's proof of play.
    let records = PlayRecorder()
    /// Items that failed or hung the renderer, passed over until their file changes.
    private(set) lazy var badItems = BadItems(records: records)
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
    private var options = ApplicationOptions()
    /// Which screens play takes, and why another shows nothing.
    private lazy var screens = PlayScreens(command: command) { [unowned self] in config }
    /// Stuck draws, off the main thread (`--stall-grace`), and the signals' teardown deadline.
    let hangGuard: HangGuard
    /// `SCREENPLAY_PLAY_PROBE=1` (tests only): a `probe` stats line per frame
    /// drawn, with the colour read back from the middle of the buffer before
    /// it is presented, to check every frame of a crossfade.
    private let probe = ProcessInfo.processInfo.environment["SCREENPLAY_PLAY_PROBE"] == "1"
    /// What systemd and the log hear of the panels' health.
    private lazy var health = PlayHealth(runner: self, screens: screens)
    /// `screenplay ctl`'s socket and `--mqtt`'s broker, and the requests they bring.
    private lazy var control = PlayControl(runner: self)
    /// `--stats`' lines once a second; nil without it.
    private var frameStats: PlayFrameStats?
    /// Between a lost connection and the reconnect.
    private(set) var compositorGone = false
    /// The playlist file: read, watched and read again.
    private(set) lazy var reloader = PlaylistReloader(command: command, records: records) { [unowned self] fresh, at in
        take(fresh, at: at)
    }
    /// Notices a step of the wall clock.
    private var clockWatch: ClockWatch?
    /// OVERRIDE: `ctl override`'s emergency content (`PlayOverrides.swift`).
    private(set) lazy var overrides = PlayOverrides(runner: self, playlist: command.path)
    /// fleet: `play URL`'s downloads; `command.path` is then its local copy.
    let remote: RemotePlaylistSource?

    init(_ command: PlayCommand) {
        // fleet: a playlist URL plays its local copy in the cache (RemotePlaylistSource.swift).
        let remote = RemotePlaylistSource.make(for: command)
        self.remote = remote
        let command = remote?.localCommand(command) ?? command
        self.command = command
        hangGuard = HangGuard(grace: command.stallGrace)
        config = SignageConfig(playlists: [:], panels: [], defaultPlaylist: nil, sync: true, source: command.path)
    }

    /// Reads and checks the configuration (exit 65/66 before anything
    /// shows; a playlist file that does not parse falls back to the last
    /// good one), connects and starts playing.
    func start() throws {
        try remote?.prepare()  // fleet
        config = try reloader.readAtStart()
        try records.open(command)
        records.changed = { [weak self] in self?.health.update() }
        badItems.forgetFailures()
        overrides.restore(now: now())  // OVERRIDE: kept ones apply from the first frame
        options = ApplicationOptions()
        options.drawWatch = hangGuard.watch
        options.builtInPatterns = command.builtinPatterns
        options.targets = screens.rule
        if command.fullscreenWindow { options.maxLayerShellVersion = 0 }
        if command.reconnect { options.whenCompositorGoes = .reconnect() }
        let patterns = command.outputPatterns
        options.screenFilter = { [weak self] screen in self?.screens.admits(screen) ?? false }
        let app = try ScreenplayTool.connect(options)
        if !patterns.isEmpty, !app.screens.contains(where: screens.matchesOutputOption) {
            let list = app.screens.map { "  \($0.name) \"\($0.displayDescription)\"" }.joined(separator: "\n")
            app.shutdown()
            throw CommandFailure(
                .usage,
                "--output \(patterns.joined(separator: ", ")) matches no screen; the screens are:\n\(list.isEmpty ? "  (none)" : list)"
            )
        }
        do {
            try control.open(command)
            records.mqtt = control.mqtt
        } catch {
            control.close()
            app.shutdown()
            throw error
        }
        installSignalHandlers()
        reloader.watch(config.mediaFiles)
        attach(app)
        health.startMonitor(stallGrace: command.stallGrace, note: { [weak self] in self?.remote?.statusNote })  // fleet
        remote?.start()  // fleet
        control.mqtt?.start()
        health.startNothingShownWarnings()
        frameStats = records.stats.map { stats in
            PlayFrameStats(
                stats: stats, app: { [weak self] in self?.app }, panels: { [weak self] in self?.allPanels ?? [] })
        }
        clockWatch = ClockWatch { [weak self] step in self?.clockStepped(by: step) }
    }

    private func attach(_ app: Application) {
        self.app = app
        badItems.app = app
        app.onSceneError = { error in printError("\(error)") }
        app.onConnectionLost = { [weak self] error in
            guard let self, self.command.reconnect else {
                printError(
                    "\(error.description); exiting (--no-reconnect; without it play waits for the compositor to come back)"
                )
                self?.health.stopping()
                self?.control.close()
                exit(ExitCode.unavailable.rawValue)
            }
            // The application reconnects itself (ApplicationOptions.whenCompositorGoes)
            // and connects the registration's scenes on the new screens.
            printError(
                "\(error.description); waiting for a compositor on the same socket (--no-reconnect exits instead)")
            self.compositorGone = true
            self.health.update()
        }
        app.onReconnect = { [weak self, weak app] in
            log("reconnected to \(app?.socketDescription ?? "the compositor")")
            self?.compositorGone = false
            self?.health.update()
        }
        app.onScreenConnect = { [weak self] screen in
            log("screen connected: \(screen.name) (\(screen.classification.kind.rawValue))")
            self?.screens.explainUnmatched(screen)
        }
        app.onScreenDisconnect = { screen in log("screen disconnected: \(screen.name)") }
        let layer: SceneLayer =
            switch command.layer {
            case .overlay: .overlay
            case .top: .top
            case .bottom: .bottom
            case .background: .background
            }
        let configuration = SceneConfiguration(
            name: "screenplay-play", layer: layer, preferredFramesPerSecond: 0,
            delegateFactory: { [unowned self] in self.makePanel() })
        registration = app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: configuration))
        for screen in app.screens { screens.explainUnmatched(screen) }
        if app.externalScreens.isEmpty {
            let why = app.screens.map { "\($0.name): \(app.targetReason($0).reason)" }.joined(separator: "; ")
            log("no screen to play on yet; waiting for one to connect (\(why.isEmpty ? "no screens at all" : why))")
        }
    }

    // MARK: panels

    /// The scene being made is for the screen the factory cannot see, so a
    /// panel starts with the default assignment and takes its own on connect.
    private func makePanel() -> PlayPanel {
        let first = config.defaultPlaylist.flatMap { config.playlists[$0] } ?? config.playlists.values.first!
        return PlayPanel(runner: self, playlist: first, rotate: 0, probe: probe)
    }

    func assignment(for screen: Screen) -> (playlist: Playlist, rotate: Int, schedule: PanelSchedule?)? {
        config.assignment(for: screen)
    }

    func panelConnected(_ panel: PlayPanel, _ scene: Scene) {
        panels[ObjectIdentifier(panel)] = panel
        // swayidle or a desktop's blanking must not turn a panel off mid-loop.
        scene.inhibitsIdle = !command.allowIdle
        if let screen = scene.screen, let assigned = assignment(for: screen) {
            panel.reassign(playlist: assigned.playlist, rotate: assigned.rotate, schedule: assigned.schedule)
            panel.takeAssignmentNow()
        }
        overrides.panelConnected(panel)  // OVERRIDE
        records.write([
            "event": "connect", "output": panel.outputName, "width": scene.pixelSize.width,
            "height": scene.pixelSize.height,
            "playlist": panel.playlist.name, "rotate": panel.rotate, "refresh_mhz": scene.screen?.refreshMilliHz ?? 0,
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
        log(
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
            panel.reassign(playlist: assigned.playlist, rotate: assigned.rotate, schedule: assigned.schedule)
        }
        app?.reevaluateScreens()
        if let activation {
            log("\(command.path) takes over now (activate_at \(iso8601(wallSeconds: activation)))")
            records.write(["event": "activate", "path": command.path, "activate_at": activation])
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

    /// SIGHUP reloads and SIGUSR1 reopens the files (`PlaySignals`; SIGINT
    /// and SIGTERM are `Application.run`'s, see `stop(signal:)`); the hang
    /// guard watches for a draw that never returns and then remembers its
    /// item before the process exits 70.
    private func installSignalHandlers() {
        signals = PlaySignals(
            hangup: { [weak self] in
                self?.remote?.askNow()
                _ = self?.reloader.reload(because: "SIGHUP")
            },
            reopen: { [weak self] in self?.records.reopen() })
        hangGuard.start(onHang: badItems.remembersHungDraw)
    }

    var application: Application? { app }

    /// SIGINT or SIGTERM: tells systemd, closes the control socket, hands
    /// the registration back and shuts down; `Application.run` returns.
    func stop(signal: StopSignal) {
        log("\(signal): tearing down")
        health.stopping()
        remote?.stop()  // fleet
        control.mqtt?.stop()
        control.close()
        frameStats?.stop()
        if let registration { app?.unregisterSceneAccessory(registration) }
        app?.shutdown()
    }
}
