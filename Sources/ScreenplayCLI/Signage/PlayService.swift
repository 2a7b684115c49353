import Dispatch
import Fleet
import Foundation
import Screenplay
import Signage

/// `screenplay play`: the library's `SignagePlayer` on the tool's
/// application, with what the tool adds around it: the `--stats` and
/// `--proof` files, the control socket, `--mqtt`'s broker, a playlist URL's
/// downloads (`RemotePlaylistSource`), the stuck-draw watchdog, systemd's
/// notify protocol, SIGHUP and SIGUSR1, and exit 69 under `--no-reconnect`.
@MainActor
final class PlayService: SceneCommand {
    let command: PlayCommand
    let player: SignagePlayer
    private(set) var app: Application?
    /// Stuck draws, off the main thread (`--stall-grace`), and the signals' teardown deadline.
    private let hangGuard: HangGuard
    /// `--stats`, `--proof` and the broker's proof of play.
    private let files = PlayRecordFiles()
    private var signals: PlaySignals?
    /// systemd's notify protocol; nil until play has connected.
    private var monitor: ServiceMonitor?
    /// `--stats`' lines once a second; nil without it.
    private var frameStats: PlayFrameStats?
    /// `screenplay ctl`'s socket.
    private var server: ControlServer?
    /// `--mqtt`: status, proof of play and commands over a broker (MQTTBox.swift).
    private var mqtt: MQTTBox?
    /// fleet: `play URL`'s downloads; `command.path` is then its local copy.
    let remote: RemotePlaylistSource?

    init(_ command: PlayCommand) {
        // fleet: a playlist URL plays its local copy in the cache (RemotePlaylistSource.swift).
        let remote = RemotePlaylistSource.make(for: command)
        self.remote = remote
        let command = remote?.localCommand(command) ?? command
        self.command = command
        hangGuard = HangGuard(grace: command.stallGrace)
        player = SignagePlayer(options: command.playerOptions)
    }

    /// Reads and checks the configuration (exit 65/66 before anything
    /// shows; a playlist file that does not parse falls back to the last
    /// good one), connects and starts playing.
    func start() throws {
        try remote?.prepare()  // fleet
        do {
            try player.load()
        } catch {
            throw CommandFailure(ExitCode(error.code), error.description)
        }
        try files.open(command)
        hook()
        var options = ApplicationOptions()
        options.drawWatch = hangGuard.watch
        options.builtInPatterns = command.builtinPatterns
        player.configure(&options)
        if command.fullscreenWindow { options.maxLayerShellVersion = 0 }
        if command.reconnect { options.whenCompositorGoes = .reconnect() }
        let app = try ScreenplayTool.connect(options)
        let patterns = command.outputPatterns
        if !patterns.isEmpty,
            !app.screens.contains(where: { screen in
                patterns.contains { ScreenPattern($0).matches(screen) }
            })
        {
            let list = app.screens.map { "  \($0.name) \"\($0.displayDescription)\"" }.joined(separator: "\n")
            app.shutdown()
            throw CommandFailure(
                .usage,
                "--output \(patterns.joined(separator: ", ")) matches no screen; the screens are:\n\(list.isEmpty ? "  (none)" : list)"
            )
        }
        do {
            try openSocket()
            try makeMQTTBox()
        } catch {
            server?.close()
            app.shutdown()
            throw error
        }
        installSignalHandlers()
        self.app = app
        app.onSceneError = { error in printError("\(error)") }
        // Loaded above: this throws nothing.
        try player.start(on: app)
        startMonitor()
        remote?.start()  // fleet
        mqtt?.start()
        frameStats = files.stats.map { PlayFrameStats(stats: $0, app: { [weak self] in self?.app }, player: player) }
    }

    /// The player's records, status and reload requests reach the tool's parts.
    private func hook() {
        if let stats = files.stats { player.onEvent = { line in stats.write(line) } }
        player.onProofOfPlay = { [files] line in files.proof(line) }
        player.onStatusChange = { [weak self] in self?.monitor?.update() }
        player.onConnectionLost = { [weak self] error in self?.connectionLost(error) }
        player.statusFields = { [weak self] in
            var fields: [String: Any] = [:]
            fields["source"] = self?.remote?.status  // fleet
            fields["mqtt"] = self?.mqtt?.status
            return fields
        }
        if let remote {
            // fleet: `ctl reload` asks the URL; its new playlist comes through the local copy.
            player.onReloadRequest = {
                remote.askNow()
                return
                    "asking \(remote.url) now; a new playlist takes over at each panel's next item once every file is downloaded and checked"
            }
        }
    }

    /// Without `--no-reconnect` the player waits for the compositor to
    /// come back; with it play exits 69.
    private func connectionLost(_ error: ApplicationError) {
        guard command.reconnect else {
            printError(
                "\(error.description); exiting (--no-reconnect; without it play waits for the compositor to come back)"
            )
            monitor?.stopping()
            server?.close()
            exit(ExitCode.unavailable.rawValue)
        }
        printError("\(error.description); waiting for a compositor on the same socket (--no-reconnect exits instead)")
    }

    /// The control socket: `--socket`, or the default under
    /// `$XDG_RUNTIME_DIR` (none, with a warning, when that is unset).
    private func openSocket() throws(CommandFailure) {
        guard let path = command.socketPath ?? ControlSocketPath.default else {
            warn(
                "XDG_RUNTIME_DIR is not set, so there is no control socket (screenplay ctl); give --socket PATH for one"
            )
            return
        }
        do {
            server = try ControlServer(path: path, naming: .tool, messages: .log) { [weak self] line, later in
                guard let self else { return ControlReply.error("shutting down") }
                return self.player.answer(line, later: later)
            }
        } catch {
            throw CommandFailure(error.kind == .usage ? .usage : .unavailable, error.description)
        }
        log("control socket: \(path)")
    }

    /// `--mqtt`: the same requests as the control socket, from the broker.
    private func makeMQTTBox() throws(CommandFailure) {
        guard command.remote.mqtt != nil else { return }
        mqtt = try MQTTBox(
            options: command.remote, boxID: RemotePlaylistSource.boxID(command.remote),
            answer: { [weak self] line, later in
                // nil is a reply that comes later (a screenshot), not a refusal.
                guard let self else { return ControlReply.error("shutting down") }
                return self.player.answer(line, later: later)
            },
            statusLine: { [weak self] in
                self?.player.answer(Data(#"{"command":"status"}"#.utf8), later: { _ in }) ?? Data()
            })
        files.mqtt = mqtt
    }

    /// systemd's notify protocol: READY=1 once every screen shows its
    /// first item, STATUS= on every change, the watchdog.
    private func startMonitor() {
        let monitor = ServiceMonitor(
            stallGrace: command.stallGrace,
            panels: { [weak self] in self?.player.panelHealth ?? [] },
            isReady: { [weak self] in self?.player.showsEveryScreen ?? false },
            nothingShown: { [weak self] in self?.player.nothingShownReason })
        self.monitor = monitor
        monitor.note = { [weak self] in self?.remote?.statusNote }  // fleet
        monitor.start()
    }

    /// SIGHUP reloads and SIGUSR1 reopens the files (`PlaySignals`; SIGINT
    /// and SIGTERM are `Application.run`'s, see `stop(signal:)`); the hang
    /// guard watches for a draw that never returns and then remembers its
    /// item before the process exits 70.
    private func installSignalHandlers() {
        signals = PlaySignals(
            hangup: { [weak self] in
                self?.remote?.askNow()
                self?.player.reload(because: "SIGHUP")
            },
            reopen: { [weak self] in self?.files.reopen() })
        hangGuard.start(onHang: player.hungDrawHandler)
    }

    var application: Application? { app }

    /// SIGINT or SIGTERM: tells systemd, closes the control socket, takes
    /// the panels off and shuts down; `Application.run` returns.
    func stop(signal: StopSignal) {
        log("\(signal): tearing down")
        monitor?.stopping()
        remote?.stop()  // fleet
        mqtt?.stop()
        server?.close()
        frameStats?.stop()
        player.stop()
        app?.shutdown()
    }
}

extension PlayCommand {
    /// The player's settings from the command line, its messages as the
    /// tool's log, and the kiosk unit's sandbox named in a web item's failure.
    var playerOptions: PlayerOptions {
        var options = PlayerOptions(path: path)
        options.itemSeconds = itemSeconds
        options.outputPatterns = outputPatterns
        options.allOutputs = allOutputs
        options.skipPatterns = skipPatterns
        options.layer = layer
        options.allowIdle = allowIdle
        options.messages = .log
        options.webSandbox = WebSandboxPolicy(
            refusal: { WebSandboxProbe.refusal() }, explainLoadFailure: { NetworkSandbox.explained($0, error: nil) })
        return options
    }
}
