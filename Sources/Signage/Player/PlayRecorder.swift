import Foundation
import Screenplay

/// Where the player's record lines go: every event to the app's `onEvent`
/// (the tool's `--stats`), the items that reached a screen also to its
/// `onProofOfPlay` (the tool's `--proof` file and broker). Without those
/// hooks it writes nothing (a schedule's switch and a placeholder are
/// still logged).
@MainActor
final class PlayRecorder {
    /// Every line; nil: none is made (then no probe pixels are read either).
    var onEvent: (@MainActor ([String: Any]) -> Void)?
    /// Proof-of-play lines.
    var onProofOfPlay: (@MainActor ([String: Any]) -> Void)?
    /// What a proof-of-play or override line changes is told (the app's status).
    var changed: @MainActor () -> Void = {}
    private let messages: SignageMessages

    init(messages: SignageMessages) { self.messages = messages }

    /// An event line only.
    func write(_ line: [String: Any]) { onEvent?(line) }

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
        proof(line)
    }

    /// A line for the events and the proof of play (an override's start,
    /// end and expiry, an item shown).
    func proof(_ line: [String: Any]) {
        onEvent?(line)
        onProofOfPlay?(line)
        changed()
    }

    /// A schedule's change reached a panel: one log line and a `schedule`
    /// line in `--stats`, so the switch's second is on record beside the
    /// item lines that show when it reached the screen.
    func scheduleSwitched(_ panel: PlayPanel, to entry: String, playlist: String, now: Double) {
        messages.info("\(panel.outputName): the schedule switches to \(entry) (playlist \"\(playlist)\")")
        onEvent?([
            "event": "schedule", "output": panel.outputName, "entry": entry, "playlist": playlist,
            "at": iso8601(wallSeconds: now),
        ])
    }

    /// Every item of a panel's playlist failed: a warning and a `placeholder` line as the placeholder comes on.
    func placeholderShown(_ panel: PlayPanel, reason: String) {
        messages.warning(
            "\(panel.outputName): every item of playlist \"\(panel.playlist.name)\" failed (\(reason)); showing a placeholder"
        )
        onEvent?([
            "event": "placeholder", "output": panel.outputName, "playlist": panel.playlist.name, "reason": reason,
        ])
    }

    /// `SCREENPLAY_PLAY_PICTURES=1`: picture `serial` of the video on
    /// `output` (its frame number `videoFrame`, when known) reached the screen.
    func pictureShown(output: String, serial: Int, videoFrame: Int?, shown: FrameShown) {
        var line: [String: Any] = [
            "event": "picture", "output": output, "serial": serial, "shown_ns": shown.monotonicNs,
            "clock": shown.clock,
        ]
        if let videoFrame { line["frame"] = videoFrame }
        onEvent?(line)
    }

    /// `SCREENPLAY_PLAY_PROBE=1`: the colour in the middle of the frame
    /// about to be presented, as a `probe` line.
    func probeFrame(output: String, context: DrawingContext, values: [String: Any]) {
        guard let onEvent,
            let rgba = try? context.readPixels(
                x: context.pixelWidth / 2, y: context.pixelHeight / 2, width: 1, height: 1),
            rgba.count >= 3
        else { return }
        onEvent(
            [
                "event": "probe", "output": output, "ns": monotonicNanoseconds(),
                "rgb": String(format: "%02x%02x%02x", rgba[0], rgba[1], rgba[2]),
            ].merging(values) { own, _ in own })
    }
}
