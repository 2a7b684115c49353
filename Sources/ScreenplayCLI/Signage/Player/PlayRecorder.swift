import Fleet
import Foundation
import Screenplay
import Signage

/// Where `play`'s record lines go: every event to `--stats`, the items
/// that reached a screen also to the proof-of-play file (`--proof`) and,
/// with `--mqtt`, to the broker. Without those options it writes nothing
/// (a schedule's switch and a placeholder are still logged).
@MainActor
final class PlayRecorder {
    /// `--stats`: nil without it (then no per-second timer runs either).
    private(set) var stats: StatsWriter?
    private var proof: StatsWriter?
    /// `--mqtt`: made after the files are open, so set later.
    var mqtt: MQTTBox?
    /// What a proof-of-play or override line changes is told (systemd's status).
    var changed: @MainActor () -> Void = {}

    /// Opens `--stats` and `--proof` (exit 66 when one cannot be opened).
    func open(_ command: PlayCommand) throws(CommandFailure) {
        stats = try StatsWriter.open(command.stats)
        if let path = command.proofPath {
            proof = try StatsWriter(appendingTo: path, role: "the proof-of-play file")
        }
    }

    /// A line for `--stats` only.
    func write(_ line: [String: Any]) { stats?.write(line) }

    /// One proof-of-play line; `region` names the layout's region the item
    /// played in, `override` marks an item an override brought.
    func itemShown(
        output: String, playlist: String, index: Int, item: PlayItem, shown: FrameShown, override: Bool = false,
        region: String? = nil
    ) {
        // The wall-clock time of the presentation: now, less how long ago it was.
        let ago = Double(Int64(bitPattern: monotonicNanoseconds() &- shown.monotonicNs)) / 1e9
        var line: [String: Any] = [
            "event": "item", "output": output, "playlist": playlist, "index": index, "source": item.label,
            "presented_ns": shown.monotonicNs, "clock": shown.clock, "at": iso8601(wallSeconds: wallSeconds() - ago),
        ].merging(override ? ["override": true] : [:]) { own, _ in own }
        if let region { line["region"] = region }
        stats?.write(line)
        proof?.write(line)
        mqtt?.proof(line)
        changed()
    }

    /// A line for `--stats` and, with `proof`, the proof of play (an
    /// override's start and end); otherwise the broker hears of a status change.
    func record(_ line: [String: Any], proof toProof: Bool) {
        stats?.write(line)
        if toProof {
            proof?.write(line)
            mqtt?.proof(line)
        } else {
            mqtt?.statusChanged()
        }
        changed()
    }

    /// A schedule's change reached a panel: one log line and a `schedule`
    /// line in `--stats`, so the switch's second is on record beside the
    /// item lines that show when it reached the screen.
    func scheduleSwitched(_ panel: PlayPanel, to entry: String, playlist: String, now: Double) {
        log("\(panel.outputName): the schedule switches to \(entry) (playlist \"\(playlist)\")")
        stats?.write([
            "event": "schedule", "output": panel.outputName, "entry": entry, "playlist": playlist,
            "at": iso8601(wallSeconds: now),
        ])
    }

    /// Every item of a panel's playlist failed: a warning and a `placeholder` line as the placeholder comes on.
    func placeholderShown(_ panel: PlayPanel, reason: String) {
        warn(
            "\(panel.outputName): every item of playlist \"\(panel.playlist.name)\" failed (\(reason)); showing a placeholder"
        )
        stats?.write([
            "event": "placeholder", "output": panel.outputName, "playlist": panel.playlist.name, "reason": reason,
        ])
    }

    /// `SCREENPLAY_PLAY_PROBE=1`: the colour in the middle of the frame
    /// about to be presented, as a `probe` line.
    func probeFrame(output: String, context: DrawingContext, values: [String: Any]) {
        guard let stats,
            let rgba = try? context.readPixels(
                x: context.pixelWidth / 2, y: context.pixelHeight / 2, width: 1, height: 1),
            rgba.count >= 3
        else { return }
        stats.write(
            [
                "event": "probe", "output": output, "ns": monotonicNanoseconds(),
                "rgb": String(format: "%02x%02x%02x", rgba[0], rgba[1], rgba[2]),
            ].merging(values) { own, _ in own })
    }

    /// SIGUSR1: the files opened afresh (logrotate's postrotate).
    func reopen() {
        proof?.reopen()
        stats?.reopen()
    }
}
