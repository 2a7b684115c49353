import Foundation
import Screenplay

/// The requests the player answers, from `screenplay ctl`'s socket and
/// from a broker alike (the app hands their lines on): one request line
/// in, one reply line out (a screenshot's reply comes later). It holds the
/// outputs `ctl pause` holds; the panels, the playlist and the overrides
/// are the runner's.
@MainActor
final class PlayControl {
    private unowned let runner: PlayRunner
    /// Outputs `ctl pause` holds (kept across replugs and reconnects).
    private(set) var heldOutputs: Set<String> = []
    /// The app's answer to `reload` (a remote source asked now); nil: the file is read again.
    var onReloadRequest: (@MainActor () -> String?)?
    /// Fields the app adds to `status`.
    var statusFields: (@MainActor () -> [String: Any])?

    init(runner: PlayRunner) {
        self.runner = runner
    }

    /// One request line in, one reply line out.
    func answer(_ line: Data, later: @escaping @MainActor (Data) -> Void) -> Data? {
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
            switch perform(request) {
            case let .success(fields): return ControlReply.encode(fields.merging(["ok": true]) { _, new in new })
            case let .failure(error): return ControlReply.error(error.reason)
            }
        }
    }

    /// Carries out `request`: the reply's fields, or why not.
    func perform(_ request: ControlRequest) -> Result<[String: Any], ControlError> {
        let now = runner.now()
        if request.command == .reload {
            if let message = onReloadRequest?() { return .success(["message": message]) }
            if let error = runner.reloader.reload(because: "screenplay ctl reload") {
                return .failure(ControlError("reload refused: \(error)"))
            }
            return .success(["message": "reloaded \(runner.options.path); it takes over at each panel's next item"])
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
                "path": runner.options.path, "pid": Int(getpid()), "connected": !runner.compositorGone,
                "panels": chosen.map { $0.status(now: now) },
            ]
            if let reason = runner.nothingShownReason() { fields["nothing_shown"] = reason }
            fields["overrides"] = runner.overrides.entries.map(\.label)  // OVERRIDE
            fields.merge(statusFields?() ?? [:]) { own, _ in own }
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
        runner.messages.info(
            "screenplay ctl \(request.command.rawValue)\(request.item.map { " \($0)" } ?? "")\(request.output.map { " --output \($0)" } ?? ""): \(chosen.map(\.outputName).joined(separator: ", "))"
        )
        return .success(["panels": chosen.map { $0.status(now: now) }])
    }
}
