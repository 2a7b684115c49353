import Dispatch
import Foundation
import Screenplay

/// `screenplay play`: playlists on external screens until a signal;
/// SIGHUP or a change to the playlist file reloads it.
@MainActor
final class PlayRunner {
    let command: PlayCommand
    private(set) var config: SignageConfig
    private(set) var app: Application?
    private var registration: SceneAccessoryRegistration?
    private var signalSources: [any DispatchSourceSignal] = []
    private var stats: StatsWriter?
    private var proof: StatsWriter?
    private var panels: [ObjectIdentifier: PlayPanel] = [:]
    private var tickTimer: (any DispatchSourceTimer)?
    private var tickDeadline: Double?
    private var watcher: FileWatcher?
    private var options = ApplicationOptions()
    /// Screens told once that no panel entry matches them.
    private var toldUnmatched: Set<String> = []
    /// Items that failed, with the file's state when they did: tried again
    /// only once the file changes, and reported once.
    private var failures: [String: (stamp: String, reason: String)] = [:]
    /// Signals and stuck draws, off the main thread (`--stall-grace`).
    let hangGuard: HangGuard
    /// Where items that hung the renderer are remembered; nil without HOME.
    private let hungItems = HungItems()
    /// Those items, read at start and at each reload.
    private var hung: [String: HungItems.Entry] = [:]
    /// `SCREENPLAY_PLAY_PROBE=1` (tests only): a `probe` stats line per frame
    /// drawn, with the colour read back from the middle of the buffer before
    /// it is presented, to check every frame of a crossfade.
    private let probe = ProcessInfo.processInfo.environment["SCREENPLAY_PLAY_PROBE"] == "1"

    init(_ command: PlayCommand) {
        self.command = command
        hangGuard = HangGuard(grace: command.stallGrace)
        config = SignageConfig(playlists: [:], panels: [], defaultPlaylist: nil, sync: true, source: command.path)
    }

    /// Reads and checks the configuration (exit 65/66 before anything
    /// shows), connects and starts playing.
    func start() throws {
        do {
            config = try SignageConfigLoader.load(path: command.path, itemSeconds: command.itemSeconds)
        } catch {
            throw CommandFailure(error.code, error.description)
        }
        stats = try openStats()
        if let path = command.proofPath {
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw CommandFailure(
                    .noInput, "cannot open the proof file \(path): \(String(cString: strerror(errno)))")
            }
            proof = StatsWriter(handle: FileHandle(fileDescriptor: fd, closeOnDealloc: true))
        }
        hung = hungItems?.load() ?? [:]
        options = ApplicationOptions()
        options.drawWatch = hangGuard.watch
        options.builtInPatterns = command.builtinPatterns
        options.presentOnAllScreens = command.allOutputs
        if command.fullscreenWindow { options.maxLayerShellVersion = 0 }
        if command.reconnect { options.whenCompositorGoes = .reconnect() }
        let patterns = command.outputPatterns
        options.screenFilter = { [weak self] screen in
            guard let self else { return false }
            return self.matchesOutputOption(screen) && self.assignment(for: screen) != nil
        }
        let app = try ScreenplayTool.connect(options)
        if !patterns.isEmpty, !app.screens.contains(where: matchesOutputOption) {
            let list = app.screens.map { "  \($0.name) \"\($0.displayDescription)\"" }.joined(separator: "\n")
            app.shutdown()
            throw CommandFailure(
                .usage,
                "--output \(patterns.joined(separator: ", ")) matches no screen; the screens are:\n\(list.isEmpty ? "  (none)" : list)"
            )
        }
        installSignalHandlers()
        watcher = FileWatcher(path: command.path) { [weak self] in
            self?.reload(because: "\(self?.command.path ?? "") changed")
        }
        attach(app)
    }

    private func attach(_ app: Application) {
        self.app = app
        app.onSceneError = { error in printError("\(error)") }
        app.onConnectionLost = { [weak self] error in
            guard let self, self.command.reconnect else {
                printError("\(error.description); exiting (use --reconnect to wait for the compositor to come back)")
                exit(ExitCode.unavailable.rawValue)
            }
            // The application reconnects itself (ApplicationOptions.whenCompositorGoes)
            // and connects the registration's scenes on the new screens.
            printError("\(error.description); --reconnect: waiting for a compositor on the same socket")
        }
        app.onReconnect = { [weak app] in log("reconnected to \(app?.socketDescription ?? "the compositor")") }
        app.onScreenConnect = { [weak self] screen in
            log("screen connected: \(screen.name) (\(screen.classification.kind.rawValue))")
            self?.explainUnmatched(screen)
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
        for screen in app.screens { explainUnmatched(screen) }
        if app.externalScreens.isEmpty { log("no screen to play on yet; waiting for one to connect") }
    }

    // MARK: panels

    /// The scene being made is for the screen the factory cannot see, so a
    /// panel starts with the default assignment and takes its own on connect.
    private func makePanel() -> PlayPanel {
        let first = config.defaultPlaylist.flatMap { config.playlists[$0] } ?? config.playlists.values.first!
        return PlayPanel(runner: self, playlist: first, rotate: 0, probe: probe)
    }

    private func matchesOutputOption(_ screen: Screen) -> Bool {
        command.outputPatterns.isEmpty
            || command.outputPatterns.contains { pattern in
                ScreenPattern(pattern).matches(screen)
            }
    }

    func assignment(for screen: Screen) -> (playlist: Playlist, rotate: Int)? {
        config.assignment(
            name: screen.name, description: screen.displayDescription, make: screen.info.make, model: screen.info.model,
            serial: screen.info.serial)
    }

    private func explainUnmatched(_ screen: Screen) {
        guard let app, app.targetReason(screen).isTarget || !screen.isBuiltIn || command.allOutputs,
            matchesOutputOption(screen), assignment(for: screen) == nil, !toldUnmatched.contains(screen.name),
            screen.classification.isExternal || command.allOutputs
        else { return }
        toldUnmatched.insert(screen.name)
        log(
            "\(screen.name) \"\(screen.displayDescription)\" matches no panel entry of \(config.source) and there is no \"default\": it shows nothing"
        )
    }

    func panelConnected(_ panel: PlayPanel, _ scene: Scene) {
        panels[ObjectIdentifier(panel)] = panel
        if let screen = scene.screen, let assigned = assignment(for: screen) {
            panel.reassign(playlist: assigned.playlist, rotate: assigned.rotate)
            panel.takeAssignmentNow()
        }
        stats?.write([
            "event": "connect", "output": panel.outputName, "width": scene.pixelSize.width,
            "height": scene.pixelSize.height,
            "playlist": panel.playlist.name, "rotate": panel.rotate, "refresh_mhz": scene.screen?.refreshMilliHz ?? 0,
        ])
    }

    func panelDisconnected(_ panel: PlayPanel) {
        panels[ObjectIdentifier(panel)] = nil
        stats?.write(["event": "disconnect", "output": panel.outputName])
        scheduleTick()
    }

    // MARK: the clock

    /// Wall-clock now, a hair ahead so a timer that fires on a boundary
    /// lands after it.
    func now() -> Double { wallSeconds() + 0.0005 }

    /// One timer for every panel: panels that switch at the same instant
    /// switch in the same turn of the main queue, so they draw in the same
    /// batch and reach their screens on the same refresh.
    func scheduleTick() {
        let deadline = panels.values.compactMap(\.nextEventTime).min()
        guard deadline != tickDeadline else { return }
        tickDeadline = deadline
        tickTimer?.cancel()
        tickTimer = nil
        guard let deadline else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let whole = deadline.rounded(.down)
        let when = DispatchWallTime(timespec: timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1e9)))
        timer.schedule(wallDeadline: when, leeway: .nanoseconds(0))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.tickDeadline = nil
                self?.tick()
            }
        }
        timer.resume()
        tickTimer = timer
    }

    private func tick() {
        let now = self.now()
        for panel in panels.values { panel.evaluate(now: now) }
        scheduleTick()
    }

    /// Re-evaluates on the next turn of the main queue (media became ready).
    func tickSoon() {
        DispatchQueue.main.async { MainActor.assumeIsolated { [weak self] in self?.tick() } }
    }

    // MARK: bad media

    private func stamp(_ item: PlayItem) -> String { fileStamp(item.path) }

    func knownBad(_ item: PlayItem) -> Bool {
        if let failure = failures[item.label], failure.stamp == stamp(item) { return true }
        guard let entry = hung[item.label], entry.stamp == stamp(item), let hungItems else { return false }
        reportBad(
            item,
            "it hung the renderer on \(entry.output) at \(entry.at) (remembered in \(hungItems.path); change the file or delete its entry there to try it again)"
        )
        return true
    }

    func failureReason(_ item: PlayItem) -> String? { failures[item.label]?.reason }

    /// One stderr line per failure (not per panel or per cycle).
    func reportBad(_ item: PlayItem, _ reason: String) {
        let stamp = stamp(item)
        if let known = failures[item.label], known.stamp == stamp, known.reason == reason { return }
        failures[item.label] = (stamp, reason)
        log("\(item.label): skipped: \(reason)")
        stats?.write(["event": "skipped", "source": item.label, "reason": reason])
    }

    func placeholderShown(_ panel: PlayPanel, reason: String) {
        log(
            "\(panel.outputName): every item of playlist \"\(panel.playlist.name)\" failed (\(reason)); showing a placeholder"
        )
        stats?.write([
            "event": "placeholder", "output": panel.outputName, "playlist": panel.playlist.name, "reason": reason,
        ])
    }

    // MARK: proof of play

    func itemShown(output: String, playlist: String, index: Int, item: PlayItem, shown: FrameShown) {
        // The wall-clock time of the presentation: now, less how long ago it was.
        let ago = Double(Int64(bitPattern: monotonicNanoseconds() &- shown.monotonicNs)) / 1e9
        let line: [String: Any] = [
            "event": "item", "output": output, "playlist": playlist, "index": index, "source": item.label,
            "presented_ns": shown.monotonicNs, "clock": shown.clock, "at": iso8601(wallSeconds: wallSeconds() - ago),
        ]
        stats?.write(line)
        proof?.write(line)
    }

    func probeFrame(output: String, context: DrawingContext) {
        guard let stats,
            let rgba = try? context.readPixels(
                x: context.pixelWidth / 2, y: context.pixelHeight / 2, width: 1, height: 1),
            rgba.count >= 3
        else { return }
        stats.write([
            "event": "probe", "output": output, "ns": monotonicNanoseconds(),
            "rgb": String(format: "%02x%02x%02x", rgba[0], rgba[1], rgba[2]),
        ])
    }

    // MARK: reload

    /// Re-reads the configuration; a valid one takes over at each panel's
    /// next item boundary, an invalid one is refused and the old one plays on.
    func reload(because reason: String) {
        do {
            let fresh = try SignageConfigLoader.load(path: command.path, itemSeconds: command.itemSeconds)
            config = fresh
            failures.removeAll()
            hung = hungItems?.load() ?? [:]
            toldUnmatched.removeAll()
            log("reloaded \(command.path) (\(reason)); it takes over at each panel's next item")
            stats?.write(["event": "reload", "ok": true, "path": command.path])
            for panel in panels.values {
                guard let scene = panel.sceneForReload, let screen = scene.screen,
                    let assigned = assignment(for: screen)
                else { continue }
                panel.reassign(playlist: assigned.playlist, rotate: assigned.rotate)
            }
            app?.reevaluateScreens()
            if let app { for screen in app.screens { explainUnmatched(screen) } }
        } catch {
            log("reload refused (\(reason)): \(error.description); the previous playlist keeps playing")
            stats?.write(["event": "reload", "ok": false, "path": command.path, "error": error.description])
        }
    }

    // MARK: plumbing

    private func openStats() throws -> StatsWriter? {
        switch command.stats {
        case nil: return nil
        case .standardOutput: return StatsWriter(handle: .standardOutput)
        case let .file(path):
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw CommandFailure(.noInput, "cannot write the stats file \(path): \(readReason(path))")
            }
            return StatsWriter(handle: handle)
        }
    }

    /// SIGHUP reloads on the main queue; SIGINT and SIGTERM go through the
    /// hang guard, which also watches for a draw that never returns and
    /// then remembers its item before the process exits 70.
    private func installSignalHandlers() {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.reload(because: "SIGHUP") }
        }
        source.resume()
        signalSources = [source] + hangGuard.installStopSignals { [weak self] sig in self?.stop(signal: sig) }
        hangGuard.start { [hungItems] draw in
            guard let hungItems, let file = HungItems.file(ofLabel: draw.content),
                FileManager.default.fileExists(atPath: file)
            else {
                return nil
            }
            if let failure = hungItems.remember(label: draw.content, output: draw.screen) { return failure }
            return "\(draw.content) is remembered in \(hungItems.path) and skipped after the restart"
        }
    }

    private func stop(signal: Int32) {
        log("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): tearing down")
        if let registration { app?.unregisterSceneAccessory(registration) }
        app?.shutdown()
        exit(0)
    }
}
