import Fleet
import Foundation
import Screenplay
import Signage

/// The requests `play` answers, from `screenplay ctl`'s socket and from
/// `--mqtt`'s broker alike: one request line in, one reply line out
/// (a screenshot's reply comes later). It holds the outputs `ctl pause`
/// holds; the panels, the playlist and the overrides are the runner's.
@MainActor
final class PlayControl {
    private unowned let runner: PlayRunner
    private var server: ControlServer?
    /// `--mqtt`: status, proof of play and commands over a broker (MQTTBox.swift).
    private(set) var mqtt: MQTTBox?
    /// Outputs `ctl pause` holds (kept across replugs and reconnects).
    private(set) var heldOutputs: Set<String> = []

    init(runner: PlayRunner) {
        self.runner = runner
    }

    /// Opens the control socket and makes the MQTT box (not yet connected).
    func open(_ command: PlayCommand) throws(CommandFailure) {
        try openSocket(command)
        try makeMQTTBox(command)
    }

    /// The socket goes (its file is removed); the broker is `mqtt`'s to stop.
    func close() { server?.close() }

    /// The control socket: `--socket`, or the default under
    /// `$XDG_RUNTIME_DIR` (none, with a warning, when that is unset).
    private func openSocket(_ command: PlayCommand) throws(CommandFailure) {
        guard let path = command.socketPath ?? ControlSocketPath.default else {
            warn(
                "XDG_RUNTIME_DIR is not set, so there is no control socket (screenplay ctl); give --socket PATH for one"
            )
            return
        }
        server = try ControlServer(path: path) { [weak self] line, later in
            guard let self else { return ControlReply.error("shutting down") }
            return self.answer(line, later: later)
        }
        log("control socket: \(path)")
    }

    /// `--mqtt`: the same requests as the control socket, from the broker.
    private func makeMQTTBox(_ command: PlayCommand) throws(CommandFailure) {
        guard command.remote.mqtt != nil else { return }
        mqtt = try MQTTBox(
            options: command.remote, boxID: RemotePlaylistSource.boxID(command.remote),
            answer: { [weak self] line, later in
                // nil is a reply that comes later (a screenshot), not a refusal.
                guard let self else { return ControlReply.error("shutting down") }
                return self.answer(line, later: later)
            },
            statusLine: { [weak self] in
                self?.answer(Data(#"{"command":"status"}"#.utf8), later: { _ in }) ?? Data()
            })
    }

    /// One request line in, one reply line out.
    private func answer(_ line: Data, later: @escaping @MainActor (Data) -> Void) -> Data? {
        switch ControlRequest.parse(line) {
        case let .failure(error):
            return ControlReply.error(error.reason)
        case let .success(request) where request.command == .screenshot:
            switch PlayScreenshot.panel(among: runner.allPanels, pattern: request.output) {
            case let .failure(error): return ControlReply.error(error.reason)
            case let .success(panel):
                PlayScreenshot.take(of: panel, reply: later)
                return nil
            }
        case let .success(request):
            switch execute(request) {
            case let .success(fields): return ControlReply.encode(fields.merging(["ok": true]) { _, new in new })
            case let .failure(error): return ControlReply.error(error.reason)
            }
        }
    }

    private func execute(_ request: ControlRequest) -> Result<[String: Any], ControlError> {
        let now = runner.now()
        if request.command == .reload {
            if let remote = runner.remote {
                remote.askNow()
                return .success([
                    "message":
                        "asking \(remote.url) now; a new playlist takes over at each panel's next item once every file is downloaded and checked"
                ])
            }
            if let error = runner.reloader.reload(because: "screenplay ctl reload") {
                return .failure(ControlError("reload refused: \(error)"))
            }
            return .success(["message": "reloaded \(runner.command.path); it takes over at each panel's next item"])
        }
        let chosen: [PlayPanel]
        switch ControlTargets.panels(runner.allPanels, matching: request.output) {
        case let .success(matched): chosen = matched
        // status with a pattern that matches nothing reports no panels;
        // override works out its own panels (an unplugged one's may be cleared).
        case .failure where request.command == .status || request.command == .override: chosen = []
        case let .failure(error): return .failure(error)
        }
        switch request.command {
        case .screenshot:
            return .failure(ControlError("screenshot is answered on its own path"))
        case .status:
            var fields: [String: Any] = [
                "path": runner.command.path, "pid": Int(getpid()), "connected": !runner.compositorGone,
                "panels": chosen.map { $0.status(now: now) },
            ]
            if let reason = runner.nothingShownReason() { fields["nothing_shown"] = reason }
            fields["overrides"] = runner.overrides.entries.map(\.label)  // OVERRIDE
            fields["source"] = runner.remote?.status  // fleet
            fields["mqtt"] = mqtt?.status
            return .success(fields)
        case .next, .previous:
            for panel in chosen { panel.skip(by: request.command == .next ? 1 : -1, now: now) }
        case .pause, .resume:
            for panel in chosen {
                if request.command == .pause {
                    heldOutputs.insert(panel.outputName)
                } else {
                    heldOutputs.remove(panel.outputName)
                }
                panel.hold(request.command == .pause, now: now)
            }
            if request.output == nil, request.command == .resume { heldOutputs = [] }
        case .show:
            let item = request.item ?? ""
            let targets = chosen.compactMap { panel in panel.index(of: item).map { (panel, $0) } }
            guard targets.count == chosen.count else {
                let missing = chosen.filter { $0.index(of: item) == nil }.map {
                    "\($0.outputName) (playlist \"\($0.playlist.name)\", \($0.playlist.items.count) items)"
                }
                return .failure(
                    ControlError(
                        "no item '\(item)' on \(missing.joined(separator: ", ")): give its position (1 is the first) or its file name"
                    ))
            }
            for (panel, index) in targets { panel.show(index: index, now: now) }
        case .reload:
            break
        case .override:
            // OVERRIDE: `PlayOverrides` answers, after its own checks.
            let result = runner.overrides.handle(request.override ?? .clear, output: request.output, now: now)
            runner.ticker.schedule()
            return result
        }
        runner.ticker.schedule()
        log(
            "screenplay ctl \(request.command.rawValue)\(request.item.map { " \($0)" } ?? "")\(request.output.map { " --output \($0)" } ?? ""): \(chosen.map(\.outputName).joined(separator: ", "))"
        )
        return .success(["panels": chosen.map { $0.status(now: now) }])
    }
}
