import Dispatch
import Documents
import Foundation
import Screenplay

/// A video, decoded and drawn by libmpv on the panels' shared context. It
/// is made paused: ready once its first picture is decoded, it waits for
/// its turn there (`start()`), so the switch to it shows a real frame. A
/// video without its own "duration" plays once and holds its last frame
/// until its slot (its length) ends; with one it loops and is cut at that
/// length. Panels showing the same video at the same turn share one
/// decoder (`SharedVideo`).
@MainActor
final class VideoMedia: PlayMedia {
    private var shared: SharedVideo?
    /// A player of its own, for an item whose turn came after the shared
    /// player had started: it replaces `shared` once it has a picture.
    private var successor: SharedVideo?
    private let path: String
    /// It loops for its slot (an item with its own duration).
    let loops: Bool
    private(set) var failure: String?
    private weak var scene: Scene?
    private let sceneID: ObjectIdentifier
    /// `player.framesDrawn` already added to the panel's tally.
    private var tallied = 0
    /// The mirror's `serial` this panel last drew.
    private var drawnSerial = -1
    var isAnimated: Bool { true }
    /// The mirrored picture this panel drew last (`MirroredVideo.serial`),
    /// nil while it plays a player of its own.
    var mirroredSerial: Int? { shared?.isMirrored == true && drawnSerial >= 0 ? drawnSerial : nil }
    /// The picture this panel drew last: a serial new with each picture
    /// (the mirror's, or its own player's pictures drawn) and its frame
    /// number in the video, when known; nil before the first.
    var drawnPicture: (serial: Int, frame: Int?)? {
        guard let shared else { return nil }
        let fps = shared.player.framesPerSecond
        let frame = { (position: Double?) in
            position.flatMap { fps > 0 ? VideoClock.frameNumber(position: $0, framesPerSecond: fps) : nil }
        }
        if let serial = mirroredSerial { return (serial, frame(shared.mirror.keptPosition)) }
        guard !shared.isMirrored, tallied > 0 else { return nil }
        return (tallied, frame(shared.player.drawnPicture?.position))
    }
    var onChange: (() -> Void)?
    /// A wall's tile: the wall-clock start of the item's slot while it is
    /// the clock's item; the video is kept where the clock says. Given before `start()`.
    var slotStart: (@MainActor () -> Double?)?
    /// The display link already asked the player about this refresh.
    private var stepped = false

    init(path: String, loops: Bool, scene: Scene) {
        sceneID = ObjectIdentifier(scene)
        self.scene = scene
        (self.path, self.loops) = (path, loops)
        do {
            shared = try join(on: scene, alone: false)
        } catch {
            failure = error.reason
        }
    }

    private func join(on scene: Scene, alone: Bool) throws(VideoError) -> SharedVideo {
        try SharedVideo.join(
            path: path, loops: loops, scene: scene, member: self, alone: alone,
            onPicture: { [weak self] in self?.onChange?() },
            onFailure: { [weak self] reason in
                guard let self, self.failure == nil else { return }
                self.failure = reason
                self.onChange?()
            })
    }

    var isReady: Bool { failure == nil && shared?.player.hasPicture == true }
    func prepare(in context: DrawingContext) {}

    /// Plays the shared player; one started over a second ago by another
    /// panel is another turn, so this item gets a player of its own and
    /// shows the shared picture until that one has its first.
    func start() {
        guard let shared else { return }
        if shared.isLate(self), let scene, let own = try? join(on: scene, alone: true) {
            own.start(self, slotStart: slotStart)
            successor = own
        } else {
            shared.start(self, slotStart: slotStart)
        }
    }

    private func takeSuccessorIfReady() {
        guard let successor, successor.player.hasPicture else { return }
        shared?.leave(self)
        shared = successor
        self.successor = nil
        (tallied, drawnSerial) = (0, -1)
    }

    func refreshIsDue() -> Bool {
        takeSuccessorIfReady()
        guard let shared else { return false }
        // A mirrored panel draws a picture it has not shown, and renders a
        // waiting one once every other panel has shown the kept one.
        let mirrorIsDue =
            shared.isMirrored
            && (shared.mirror.serial != drawnSerial || (shared.mirror.hasNewPicture && shared.mayAdvance(self)))
        if shared.isMirrored, !shared.isPacer(self) { return mirrorIsDue }
        stepped = true
        return pace(shared) || mirrorIsDue
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        takeSuccessorIfReady()
        guard let shared else { return }
        step(shared)
        if shared.isMirrored {
            try drawMirrored(shared, x: 0, y: 0, width: context.pixelWidth, height: context.pixelHeight, on: context)
        } else {
            try context.drawVideo(shared.player)
            tally(shared.player)
        }
    }

    func draw(in context: DrawingContext, rect: SceneRect, seconds: Double, frame: Int) throws -> Bool {
        takeSuccessorIfReady()
        guard let shared else { return false }
        step(shared)
        if shared.isMirrored {
            try drawMirrored(shared, x: rect.x, y: rect.y, width: rect.width, height: rect.height, on: context)
        } else {
            try context.drawVideo(shared.player, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            tally(shared.player)
        }
        return true
    }

    /// Counts a picture new to this panel once, whichever panel rendered it.
    private func drawMirrored(
        _ shared: SharedVideo, x: Int, y: Int, width: Int, height: Int, on context: DrawingContext
    ) throws {
        try shared.mirror.draw(
            x: x, y: y, width: width, height: height, on: context, mayAdvance: shared.mayAdvance(self))
        shared.noteDrawn(self, serial: shared.mirror.serial)
        if shared.mirror.serial != drawnSerial {
            if drawnSerial >= 0 || shared.mirror.serial > 0 { VideoFrameTally.add(1, scene: sceneID) }
            drawnSerial = shared.mirror.serial
        }
        tallied = shared.player.framesDrawn
    }

    private func tally(_ player: VideoPlayer) {
        VideoFrameTally.add(player.framesDrawn - tallied, scene: sceneID)
        tallied = player.framesDrawn
    }

    /// Steps the player on this panel's display link, when this panel paces it.
    private func pace(_ shared: SharedVideo) -> Bool {
        guard let scene else { return false }
        shared.clocked?.keep()
        return shared.player.frameIsDue(pacedBy: scene)
    }

    /// In a crossfade, or a region beside others that move, a refresh may
    /// draw without the display link having asked the player: mpv is asked
    /// here (a frame it wants kept is drawn again, not reported as new).
    /// A panel that does not pace a mirrored video never asks.
    private func step(_ shared: SharedVideo) {
        if !stepped, !shared.isMirrored || shared.isPacer(self) { _ = pace(shared) }
        stepped = false
    }

    func release(from app: Application?) {
        shared?.leave(self)
        successor?.leave(self)
        (shared, successor) = (nil, nil)
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
