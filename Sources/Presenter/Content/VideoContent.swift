import Foundation
import Screenplay

/// Tells an app when `ContentDelegate`'s video stops: every scene's video
/// played once (not looping), or one failed part-way. `screenplay present`
/// exits then (0 after `--no-loop`'s end, 65 naming the file).
@MainActor
public final class VideoLifecycle {
    private var playing: Set<ObjectIdentifier> = []
    private var ended: Set<ObjectIdentifier> = []
    /// Every video that played has reached its end.
    public let onAllEnded: () -> Void
    /// A video could not start or stopped part-way: the file and the reason.
    public let onFailure: (String) -> Void

    /// A lifecycle calling `onAllEnded` and `onFailure`.
    public init(onAllEnded: @escaping () -> Void, onFailure: @escaping (String) -> Void) {
        self.onAllEnded = onAllEnded
        self.onFailure = onFailure
    }

    func started(_ player: VideoPlayer) { playing.insert(ObjectIdentifier(player)) }

    func stopped(_ player: VideoPlayer) {
        playing.remove(ObjectIdentifier(player))
        ended.remove(ObjectIdentifier(player))
    }

    func ended(_ player: VideoPlayer) {
        ended.insert(ObjectIdentifier(player))
        if ended.isSuperset(of: playing) { onAllEnded() }
    }
}

/// A video playing in one scene for `ContentDelegate`: the player, its
/// `--stats` lines and, with `ContentDiagnostics.probesVideoPixels`, a
/// read-back of the centre pixel of every presented frame (tests prove "no
/// black frame at the loop seam" with it; grim misses single frames).
@MainActor
final class SceneVideo {
    let player: VideoPlayer
    private let stats: (([String: Any]) -> Void)?
    private let messages: TalkMessages
    private let label: String
    private let lifecycle: VideoLifecycle?
    private var reportedFrames = 0
    private var reportedDrops = 0
    private var reportedKept = 0
    private var reportedWaiting = 0
    private var toldFollowsClock = false
    private let probesPixels: Bool

    init(
        path: String, loops: Bool, audio: Bool, scene: Scene, stats: (([String: Any]) -> Void)?,
        messages: TalkMessages, label: String, lifecycle: VideoLifecycle?, probesPixels: Bool
    ) throws {
        player = try VideoPlayer(path: path, scene: scene, loops: loops, audio: audio)
        self.stats = stats
        self.messages = messages
        self.probesPixels = probesPixels
        self.label = label
        self.lifecycle = lifecycle
        lifecycle?.started(player)
        player.onReady = { [weak self] in self?.writeInfo(ready: true) }
        player.onInfoChange = { [weak self] in self?.writeInfo(ready: false) }
        player.onEnd = { [weak self] in
            guard let self else { return }
            // The totals too: the once-a-second frames lines miss the last
            // partial second, and a reader wants to know the clip played whole.
            self.stats?([
                "event": "video_ended", "output": self.label, "video_frames_total": self.player.framesDrawn,
                "video_dropped_total": self.player.framesDropped,
            ])
            self.lifecycle?.ended(self.player)
        }
        player.onFailure = { [weak self] reason in
            guard let self else { return }
            self.lifecycle?.onFailure("\(path): \(reason)")
        }
    }

    /// Fields for the once-a-second `frames` line: new video frames
    /// presented and frames mpv dropped since the previous line.
    func framesFields() -> [String: Any] {
        defer {
            reportedFrames = player.framesDrawn
            reportedDrops = player.framesDropped
            reportedKept = player.refreshesKept
            reportedWaiting = player.refreshesWaiting
        }
        return [
            "video_frames": player.framesDrawn - reportedFrames, "video_dropped": player.framesDropped - reportedDrops,
            "video_kept": player.refreshesKept - reportedKept,
            "video_waiting": player.refreshesWaiting - reportedWaiting,
        ]
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        try context.drawVideo(player)
        guard probesPixels, let stats else { return }
        let pixel = try context.readPixels(x: context.pixelWidth / 2, y: context.pixelHeight / 2, width: 1, height: 1)
        stats([
            "event": "video_frame", "output": label, "frame": player.framesDrawn,
            "rgb": String(format: "%02X%02X%02X", pixel[0], pixel[1], pixel[2]),
        ])
    }

    func close() {
        lifecycle?.stopped(player)
        player.close()
    }

    private func writeInfo(ready: Bool) {
        if player.followsClock, !toldFollowsClock {
            toldFollowsClock = true
            messages.warning(
                "video on \(label): frames came too late for display sync (\(player.displaySyncReport)); "
                    + "playing by the clock so the video keeps its speed, dropping late frames (a smaller or "
                    + "lower-rate video, or hardware decoding and rendering, avoids this)")
        }
        stats?([
            "event": ready ? "video_ready" : "video", "output": label, "hwdec": player.hardwareDecoder,
            "audio_output": player.audioOutput, "audio_track": player.audioTrack, "codec": player.codec,
            "video_sync": player.followsClock ? "clock" : "display",
        ])
    }
}
