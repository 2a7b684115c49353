import Foundation
import Screenplay

/// The player's overrides (`screenplay ctl override`): which are in force, on
/// which panels, until when; kept in the state folder (`OverrideStore`) so
/// a restart brings them back, and logged in `--stats` and proof of play as
/// `override` lines (`start`, `clear`, `expired`).
///
/// A panel shows the newest entry that covers it. A new override replaces
/// an older one given the same `--output` (or none); `--clear` without
/// `--output` ends them all, with one it ends those given that pattern and
/// takes the matched panels out of the others.
@MainActor
final class PlayOverrides {
    private unowned let runner: PlayRunner
    private let store: OverrideStore?
    private(set) var entries: [OverrideEntry] = []
    /// Their content as resolved when they began (a reload keeps what was asked for).
    private var contents: [String: OverrideContent] = [:]
    /// More are not kept: an override is for an emergency, not a schedule.
    static let limit = 16

    init(runner: PlayRunner, playlist: String) {
        self.runner = runner
        store = OverrideStore(playlist: playlist)
    }

    /// At start: the kept overrides that have not expired, resolved
    /// against the configuration; expired ones are logged and deleted.
    func restore(now: Double) {
        guard let store else { return }
        let (kept, problem) = store.load()
        if let problem { return runner.messages.warning(problem) }
        for entry in kept {
            if let until = entry.until, until <= now {
                runner.messages.info(
                    "the override \(entry.label) expired at \(iso8601(wallSeconds: until)) while play was not running"
                )
                record("expired", entry, outputs: [], now: until)
                continue
            }
            switch OverrideContent.resolve(entry, config: runner.config, itemSeconds: runner.options.itemSeconds) {
            case let .failure(error):
                runner.messages.warning("the kept override \(entry.label) cannot be shown: \(error.reason); dropped")
            case let .success(content):
                entries.append(entry)
                contents[entry.key] = content
                runner.messages.info("the override \(entry.label) is in force again (\(until(entry)))")
            }
        }
        if entries != kept { save() }
    }

    /// The earliest expiry (wall clock), for the runner's tick timer.
    var nextExpiry: Double? { entries.compactMap(\.until).min() }

    /// Ends the overrides whose time has come; the panels go back to their schedule.
    func expire(now: Double) {
        let gone = entries.filter { ($0.until ?? .infinity) <= now }
        guard !gone.isEmpty else { return }
        let shown = gone.map { panels(showing: $0) }
        entries.removeAll { entry in gone.contains { $0.key == entry.key } }
        contents = contents.filter { key, _ in entries.contains { $0.key == key } }
        save()
        apply()
        // Written once the panels changed, so systemd's status line (updated with each line) is current.
        for (entry, outputs) in zip(gone, shown) {
            runner.messages.info(
                "the override \(entry.label) expired; \(outputs.isEmpty ? "no panel showed it" : outputs.joined(separator: ", ")) back to the schedule"
            )
            record("expired", entry, outputs: outputs, now: now)
        }
    }

    /// The override a panel that connects shows, if one covers it.
    func panelConnected(_ panel: PlayPanel) { apply(to: [panel]) }

    /// `ctl override`: starts or clears; the reply's fields or why not.
    func handle(_ request: OverrideRequest, output: String?, now: Double) -> Result<[String: Any], ControlError> {
        switch request {
        case .clear: return clear(output: output, now: now)
        case let .start(what, text, seconds):
            var entry = OverrideEntry(
                kind: .text, what: text ?? "", output: output, since: now, until: seconds.map { now + $0 })
            if let what {
                // A playlist of the running file first; an absolute path is a
                // file; anything else is a playlist name that resolve refuses.
                entry.kind = runner.config.playlists[what] == nil && what.hasPrefix("/") ? .file : .playlist
                entry.what = what
            }
            return start(entry)
        }
    }

    private func start(_ entry: OverrideEntry) -> Result<[String: Any], ControlError> {
        let content: OverrideContent
        switch OverrideContent.resolve(entry, config: runner.config, itemSeconds: runner.options.itemSeconds) {
        case let .failure(error): return .failure(error)
        case let .success(resolved): content = resolved
        }
        var chosen: [PlayPanel] = []
        if entry.output != nil || !runner.allPanels.isEmpty {
            switch ControlTargets.panels(runner.allPanels, matching: entry.output) {
            case let .failure(error): return .failure(error)
            case let .success(matched): chosen = matched
            }
        }
        // Each panel loads the first item now; one that cannot show it
        // refuses the whole request, and nothing changes.
        let made = chosen.map { ($0, $0.makeOverride(entry: entry, content: content)) }
        if let failure = made.lazy.compactMap({ $0.1?.failure }).first
            ?? made.first(where: { $0.1 == nil }).map({ _ in "the panel has no scene now" })
        {
            for (_, override) in made { override?.release(from: runner.app) }
            return .failure(ControlError("\(entry.label) cannot be shown: \(failure)"))
        }
        for replaced in entries where replaced.output == entry.output {
            record("clear", replaced, outputs: panels(showing: replaced), now: entry.since)
        }
        entries.removeAll { $0.output == entry.output }
        entries.append(entry)
        for dropped in entries.prefix(max(0, entries.count - Self.limit)) {
            record("clear", dropped, outputs: panels(showing: dropped), now: entry.since)
        }
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
        contents = contents.filter { key, _ in entries.contains { $0.key == key } }
        contents[entry.key] = content
        let saved = save()
        for (panel, override) in made { panel.setOverride(override) }
        apply()
        let outputs = chosen.map(\.outputName)
        runner.messages.info(
            "override \(entry.label) on \(outputs.isEmpty ? "every panel that connects" : outputs.joined(separator: ", ")) \(until(entry))"
        )
        record("start", entry, outputs: outputs, now: entry.since)
        var fields: [String: Any] = ["panels": chosen.map { $0.status(now: entry.since) }]
        fields["message"] =
            "override \(entry.label): \(outputs.isEmpty ? "no panel is connected; it shows on each that connects" : outputs.joined(separator: ", ")), \(until(entry))"
            + (saved.map { "; WARNING: \($0), so a restart would not bring it back" } ?? "")
        return .success(fields)
    }

    private func clear(output: String?, now: Double) -> Result<[String: Any], ControlError> {
        var chosen: [PlayPanel] = []
        if output != nil, !entries.contains(where: { $0.output == output }) {
            switch ControlTargets.panels(runner.allPanels, matching: output) {
            case let .failure(error): return .failure(error)
            case let .success(matched): chosen = matched
            }
        } else if output != nil, case let .success(matched) = ControlTargets.panels(runner.allPanels, matching: output)
        {
            chosen = matched
        }
        let before = entries
        var cleared: [(OverrideEntry, [String])] = []
        for entry in before {
            var outputs = panels(showing: entry)
            if output == nil || entry.output == output {
                entries.removeAll { $0.key == entry.key }
                contents[entry.key] = nil
            } else {
                // Taken out of the panels it covers, shown there now or under a newer one.
                let covered = chosen.filter { covers(entry, $0) }.map(\.outputName)
                guard !covered.isEmpty, let index = entries.firstIndex(where: { $0.key == entry.key }) else { continue }
                entries[index].except += covered
                outputs = outputs.filter(covered.contains)
            }
            cleared.append((entry, outputs))
        }
        guard entries != before else { return .success(["message": "no override to clear", "panels": []]) }
        let saved = save()
        apply()
        for (entry, outputs) in cleared { record("clear", entry, outputs: outputs, now: now) }
        runner.messages.info("override cleared\(output.map { " on \($0)" } ?? ""): back to the schedule")
        var fields: [String: Any] = [
            "panels": runner.allPanels.sorted { $0.outputName < $1.outputName }.map { $0.status(now: now) }
        ]
        fields["message"] =
            "override cleared; the panels show what the schedule says now" + (saved.map { "; WARNING: \($0)" } ?? "")
        return .success(fields)
    }

    /// The entry `panel` shows: the newest that covers it.
    private func entry(for panel: PlayPanel) -> OverrideEntry? {
        entries.last { covers($0, panel) }
    }

    private func covers(_ entry: OverrideEntry, _ panel: PlayPanel) -> Bool {
        let matches = entry.output.map { pattern in panel.screen.map(ScreenPattern(pattern).matches) ?? false }
        return entry.covers(panel.outputName, patternMatches: matches ?? true)
    }

    /// Gives each panel the override it should show (nil: its schedule).
    private func apply(to panels: [PlayPanel]? = nil) {
        for panel in panels ?? runner.allPanels {
            let wanted = entry(for: panel)
            guard panel.override?.entry.key != wanted?.key else { continue }
            guard let wanted, let content = contents[wanted.key] else {
                panel.setOverride(nil)
                continue
            }
            let override = panel.makeOverride(entry: wanted, content: content)
            if let failure = override?.failure {
                runner.messages.warning("\(panel.outputName): the override \(wanted.label) cannot be shown: \(failure)")
                override?.release(from: runner.app)
                panel.setOverride(nil)
            } else {
                panel.setOverride(override)
            }
        }
    }

    private func panels(showing entry: OverrideEntry) -> [String] {
        runner.allPanels.filter { $0.override?.entry.key == entry.key }.map(\.outputName).sorted()
    }

    /// Keeps the entries; returns why it could not (logged too), or nil.
    @discardableResult
    private func save() -> String? {
        guard let store else { return "neither XDG_STATE_HOME nor HOME is set" }
        let failure = store.save(entries, playlist: runner.options.path)
        if let failure { runner.messages.warning("\(failure); the overrides in force would not survive a restart") }
        return failure
    }

    /// "until 2026-12-01T09:20:00+01:00 (20m)" or "until screenplay ctl override --clear"
    private func until(_ entry: OverrideEntry) -> String {
        guard let until = entry.until else { return "until screenplay ctl override --clear" }
        let clock = SignageSchedule(entries: [], fallback: .playlist(""), timeZone: runner.config.timeZone)
        return "until \(clock.localISO8601(until)) (\(OverrideDuration.format(until - entry.since)))"
    }

    /// An `override` line in `--stats` and in the proof-of-play file.
    private func record(_ action: String, _ entry: OverrideEntry, outputs: [String], now: Double) {
        runner.records.proof(
            [
                "event": "override", "action": action, "kind": entry.kind.rawValue, "what": entry.what,
                "source": entry.label, "pattern": entry.output ?? NSNull(), "outputs": outputs,
                "since": iso8601(wallSeconds: entry.since),
                "until": entry.until.map { iso8601(wallSeconds: $0) } ?? NSNull(),
                "at": iso8601(wallSeconds: now), "ns": monotonicNanoseconds(),
            ])
    }
}

extension OverrideEntry {
    /// Which entry this is, whatever panels were taken out of it since.
    var key: String { "\(kind.rawValue)|\(what)|\(output ?? "")|\(since)" }
}
