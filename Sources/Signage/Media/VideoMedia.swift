import Dispatch
import Documents
import Foundation
import Screenplay

/// A video, decoded and drawn by libmpv on the panel's own context. It is
/// made paused: ready once its first picture is decoded, it waits for its
/// turn there (`start()`), so the switch to it shows a real frame. A video
/// without its own "duration" plays once and holds its last frame until its
/// slot (its length) ends; with one it loops and is cut at that length.
@MainActor
final class VideoMedia: PlayMedia {
    private var player: VideoPlayer?
    private(set) var failure: String?
    private let sceneID: ObjectIdentifier
    /// `player.framesDrawn` already added to the panel's tally.
    private var tallied = 0
    var isAnimated: Bool { true }
    var onChange: (() -> Void)?
    /// The display link already asked the player about this refresh.
    private var stepped = false

    init(path: String, loops: Bool, scene: Scene) {
        sceneID = ObjectIdentifier(scene)
        do {
            let player = try VideoPlayer(path: path, scene: scene, loops: loops, startsPaused: true)
            self.player = player
            player.onPicture = { [weak self] in self?.onChange?() }
            player.onFailure = { [weak self] reason in
                guard let self, self.failure == nil else { return }
                self.failure = reason
                self.onChange?()
            }
        } catch {
            failure = error.reason
        }
    }

    var isReady: Bool { failure == nil && player?.hasPicture == true }
    func prepare(in context: DrawingContext) {}
    func start() { player?.play() }

    func refreshIsDue() -> Bool {
        guard let player else { return false }
        stepped = true
        return player.frameIsDue()
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        guard let player else { return }
        step(player)
        try context.drawVideo(player)
        tally(player)
    }

    func draw(in context: DrawingContext, rect: SceneRect, seconds: Double, frame: Int) throws -> Bool {
        guard let player else { return false }
        step(player)
        try context.drawVideo(player, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        tally(player)
        return true
    }

    private func tally(_ player: VideoPlayer) {
        VideoFrameTally.add(player.framesDrawn - tallied, scene: sceneID)
        tallied = player.framesDrawn
    }

    /// In a crossfade, or a region beside others that move, a refresh may
    /// draw without the display link having asked the player: mpv is asked
    /// here (a frame it wants kept is drawn again, not reported as new).
    private func step(_ player: VideoPlayer) {
        if !stepped { _ = player.frameIsDue() }
        stepped = false
    }

    func release(from app: Application?) {
        player?.close()
        player = nil
    }
}

/// New video pictures drawn on each panel's scene since `--stats` last
/// said: the `video_frames` of play's frames line, so CPU can be counted
/// per video frame shown (the layout benchmark's measure) on a machine
/// too slow to show every frame.
@MainActor
enum VideoFrameTally {
    private static var counts: [ObjectIdentifier: Int] = [:]

    static func add(_ frames: Int, scene: ObjectIdentifier) {
        guard frames > 0 else { return }
        counts[scene, default: 0] += frames
    }

    static func take(_ scene: Scene) -> Int { counts.removeValue(forKey: ObjectIdentifier(scene)) ?? 0 }
}
