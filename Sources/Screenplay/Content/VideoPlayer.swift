import Foundation
import Rendering
import Video

/// A video file playing into one scene, decoded and drawn by libmpv on the
/// scene's own EGL/GLES context (the main thread), paced by the scene's
/// display link. Make it in `scene(_:willConnectTo:)`, return
/// `frameIsDue()` from `sceneShouldDrawFrame(_:)`, call
/// `DrawingContext.drawVideo(_:)` from `draw(_:in:)`, and `close()` it in
/// `sceneDidDisconnect(_:)`.
///
/// One player (one decoder) per scene, not one shared by every screen:
/// mpv paces video by one display clock (`report_swap` on one output), and
/// outputs have their own refresh clocks (60 and 30 Hz, or two 60 Hz panels
/// drifting apart), so only a decoder per output can show each frame for
/// an exact number of that output's refreshes. A scene's player also lives
/// and dies with it (hot-plug touches no other screen), and screens may
/// play different files. The cost is decoding once per screen. Screens
/// that show the same file at the same time (a mirrored playlist) can
/// share one player through `MirroredVideo`, paced by one of them.
@MainActor
public final class VideoPlayer {
    /// Where playback is.
    public enum Status: Equatable, Sendable {
        /// Opening the file; nothing to show yet.
        case loading
        /// The first frame is decoded (ready) and frames are coming.
        case playing
        /// Played to the end without looping; the last frame stays shown.
        case ended
        /// The file failed part-way (truncated, damaged): libmpv's reason.
        case failed(String)
    }

    /// The file.
    public let path: String
    /// Where playback is now.
    public var status: Status { Self.status(player.state) }
    /// Called once the first frame is decoded.
    public var onReady: (() -> Void)?
    /// Called when a non-looping video played to its end.
    public var onEnd: (() -> Void)?
    /// Called when playback fails part-way, with the reason.
    public var onFailure: ((String) -> Void)?
    /// Called when the decoder or audio output in use becomes known.
    public var onInfoChange: (() -> Void)?

    /// New video frames drawn into the scene (repeats not counted).
    public var framesDrawn: Int { player.framesDrawn }
    /// Video frames mpv dropped (a 60 fps clip on a 30 Hz output drops half).
    public var framesDropped: Int { player.facts.framesDropped }
    /// The hardware decoder in use (mpv's `hwdec-current`): "no" when
    /// decoding in software, empty before the first frame.
    public var hardwareDecoder: String { player.facts.hardwareDecoder }
    /// The audio output mpv opened (`current-ao`); empty when none, as
    /// always without `audio`.
    public var audioOutput: String { player.facts.audioOutput }
    /// The selected audio track (`aid`): "no" without `audio`.
    public var audioTrack: String { player.facts.audioTrack }
    /// Refreshes that kept the picture on screen because mpv repeats the
    /// frame (a 30 fps clip on 60 Hz keeps every other refresh).
    public var refreshesKept: Int { player.refreshesKept }
    /// Whether the video follows the system clock (dropping late frames)
    /// because this machine could not hand mpv a picture at enough
    /// refreshes to keep display sync; false while it is display-synced.
    public var followsClock: Bool { player.followsClock }
    /// What was measured when the video switched to the clock (how many
    /// refreshes of how many went without a picture), for the log line that
    /// says why; empty while it is display-synced.
    public var displaySyncReport: String { player.displaySyncReport }
    /// Refreshes with nothing new from the decoder yet (loading, or decoding behind).
    public var refreshesWaiting: Int { player.refreshesWaiting }
    /// The video codec, once known.
    public var codec: String { player.facts.codec }

    /// Called once the first picture is decoded and can be drawn.
    public var onPicture: (() -> Void)?
    /// The first picture is decoded: drawing now shows it, not black.
    public var hasPicture: Bool { player.hasPicture }

    let player: MpvPlayer
    /// A decoded picture not drawn yet, and the picture's size as shown.
    var hasNewPicture: Bool { player.hasNewPicture }
    var displaySize: (width: Int, height: Int)? { player.displaySize }
    private weak var scene: Scene?
    private var closed = false
    /// The last picture drawn into a rectangle, kept between frames: a frame
    /// that repaints the rectangle for another reason (a ticker beside it)
    /// draws it again without asking mpv to render the same picture.
    private var still: OffscreenTarget?
    /// `still` holds the last picture mpv drew.
    private var stillIsCurrent = false
    /// Made with `startsPaused`: the owner runs the scene's display link.
    private let ownerDrivesDisplayLink: Bool

    /// Starts playing `path` into `scene`'s context. Looping is seamless
    /// (mpv's `loop-file`); without `audio` no audio output is opened.
    /// With `startsPaused` it decodes the first picture and waits for
    /// `play()` (a playlist's next item, loaded before its turn), and
    /// leaves the scene's display link to the caller, at its end too.
    public init(
        path: String, scene: Scene, loops: Bool = true, audio: Bool = false, startsPaused: Bool = false
    ) throws(VideoError) {
        self.path = path
        self.scene = scene
        ownerDrivesDisplayLink = startsPaused
        do {
            player = try CurrentContext.preserving {
                try MpvPlayer(
                    path: path, options: PlaybackOptions(loops: loops, audio: audio, startsPaused: startsPaused),
                    context: try scene.host.graphics.context(), wlDisplay: scene.host.graphics.waylandDisplay)
            }
        } catch let error as Video.VideoError {
            throw VideoError(error)
        } catch {
            throw VideoError(path: path, isUnreadable: false, reason: "no graphics context: \(error)")
        }
        player.onStateChange = { [weak self] state in self?.stateChanged(state) }
        player.onInfoChange = { [weak self] in self?.onInfoChange?() }
        player.onPicture = { [weak self] in self?.onPicture?() }
        player.setDisplayRefresh(hz: 1 / scene.displayLink.duration)
        if !startsPaused { scene.displayLink.isPaused = false }
        MemoryTrimmer.videoStarted()
    }

    /// Starts a player made with `startsPaused`.
    public func play() {
        guard !closed else { return }
        player.play()
    }

    /// Opens `path` headless and decodes its first frame: missing or
    /// unreadable files (`VideoError.isUnreadable`) and files that are not
    /// playable video fail here with libmpv's reason, before anything shows.
    nonisolated public static func probe(path: String) throws(VideoError) -> VideoInfo {
        do {
            let info = try VideoProbe.probe(path: path)
            return VideoInfo(
                width: info.width, height: info.height, framesPerSecond: info.framesPerSecond,
                duration: info.duration, codec: info.codec)
        } catch {
            throw VideoError(error)
        }
    }

    /// Whether this refresh shows a new video frame; return it from
    /// `SceneDelegate.sceneShouldDrawFrame(_:)`. When mpv wants the current
    /// frame kept (display sync repeats), it is told here and the scene
    /// commits nothing.
    public func frameIsDue() -> Bool {
        guard let scene else { return false }
        return frameIsDue(pacedBy: scene)
    }

    /// `frameIsDue()` on `scene`'s display link: another scene than the
    /// player's own keeps it paced once that one is gone (a mirrored video).
    public func frameIsDue(pacedBy scene: Scene) -> Bool {
        guard !closed else { return false }
        player.setDisplayRefresh(hz: 1 / scene.displayLink.duration)
        let refreshNs = UInt64(max(scene.displayLink.refresh.durationNs, 1))
        return player.step(nowNs: monotonicNanoseconds(), refreshNs: refreshNs) == .draw
    }

    /// Stops playback and frees the decoder. Idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        CurrentContext.preserving {
            still?.destroy()
            player.destroy()
        }
        still = nil
        MemoryTrimmer.videoEnded()
        scene?.host.sceneFreedMemory()
    }

    func draw(into target: any RenderTarget, afterPresent: inout [() -> Void]) throws {
        guard !closed else { return }
        try target.makeCurrent()
        // Only a new picture is reported as swapped: mpv counts one swap per
        // picture it handed over, and a redraw is none.
        if player.draw(framebuffer: target.framebufferObject, width: target.pixelWidth, height: target.pixelHeight) {
            afterPresent.append { [player] in player.reportSwap() }
        }
    }

    /// Draws the current picture into `rect` of `context`'s target through
    /// the kept `still`: mpv renders only a new picture (or a first, or at a
    /// new size); otherwise the last one is drawn again.
    func drawStill(in rect: PixelRect, on context: DrawingContext) throws {
        guard !closed else { return }
        let graphics = try context.resources.context
        if let kept = still,
            kept.pixelWidth != rect.width || kept.pixelHeight != rect.height || kept.context !== graphics
        {
            kept.destroy()
            still = nil
        }
        let target: OffscreenTarget
        if let kept = still {
            target = kept
        } else {
            target = try OffscreenTarget(context: graphics, width: rect.width, height: rect.height)
            still = target
            stillIsCurrent = false
        }
        if player.hasNewPicture || !stillIsCurrent {
            try draw(into: target, afterPresent: &context.frameInProgress.afterPresent)
            try target.makeOpaque()
            stillIsCurrent = true
        }
        try context.resources.quads().draw(target, mapping: .layer, in: rect, on: context.target)
    }

    private func stateChanged(_ state: PlaybackState) {
        switch state {
        case .loading: break
        case .playing: onReady?()
        case .ended:
            if !ownerDrivesDisplayLink { scene?.displayLink.isPaused = true }
            onEnd?()
        case let .failed(reason):
            if !ownerDrivesDisplayLink { scene?.displayLink.isPaused = true }
            onFailure?(reason)
        }
    }

    private static func status(_ state: PlaybackState) -> Status {
        switch state {
        case .loading: .loading
        case .playing: .playing
        case .ended: .ended
        case let .failed(reason): .failed(reason)
        }
    }
}

extension DrawingContext {
    /// Draws the player's current frame over the whole buffer, fitted and
    /// letterboxed in black (by mpv).
    public func drawVideo(_ player: VideoPlayer) throws {
        try player.draw(into: target, afterPresent: &frameInProgress.afterPresent)
    }

    /// Draws the player's current frame into a rectangle (device pixels,
    /// top-left origin), fitted and letterboxed in black inside it: a video
    /// placed on a slide, or in a region of a layout. The picture is kept
    /// between frames at the rectangle's size, so a frame that repaints the
    /// rectangle without a new video frame (something else beside it moved)
    /// draws the kept picture instead of having libmpv render it again.
    public func drawVideo(_ player: VideoPlayer, x: Int, y: Int, width: Int, height: Int) throws {
        guard width > 0, height > 0 else { return }
        try player.drawStill(in: PixelRect(x: x, y: y, width: width, height: height), on: self)
    }
}

/// What `VideoPlayer.probe` found.
public struct VideoInfo: Sendable, Equatable {
    /// Width of the video stream in pixels.
    public let width: Int
    /// Height of the video stream in pixels.
    public let height: Int
    /// The container's frame rate; 0 when it does not say.
    public let framesPerSecond: Double
    /// Seconds; 0 when unknown.
    public let duration: Double
    /// The video codec as libmpv names it (`h264`, `vp9`...).
    public let codec: String
}

/// A video that cannot be played: `isUnreadable` (missing, no permission)
/// or not playable video (not media, corrupt, no decodable video stream),
/// with libmpv's reason.
public struct VideoError: Error, CustomStringConvertible, Sendable {
    /// The file.
    public let path: String
    /// True when the file is missing or cannot be read (exit 66 in the CLI), false when it is no playable video (exit 65).
    public let isUnreadable: Bool
    /// Why, in words (libmpv's reason where it gave one).
    public let reason: String
    /// `path: reason` on one line.
    public var description: String { "\(path): \(reason)" }

    init(_ error: Video.VideoError) {
        self.init(path: error.path, isUnreadable: error.isUnreadable, reason: error.reason)
    }

    init(path: String, isUnreadable: Bool, reason: String) {
        self.path = path
        self.isUnreadable = isUnreadable
        self.reason = reason
    }
}

/// Which decoder video will use on this machine, from libmpv itself.
public struct VideoDecodingReport: Sendable {
    /// mpv's `hwdec-current` after decoding a small H.264 clip with the
    /// options every scene uses (`hwdec=auto-safe`): "no" means software.
    public let hardwareDecoder: String
    /// Why, in words: mpv's decoder log and the machine's facts.
    public let explanation: String
    /// `mpv-version` of the linked libmpv.
    public let mpvVersion: String
    /// Whether a hardware decoder is in use.
    public var usesHardware: Bool {
        hardwareDecoder != "no" && !hardwareDecoder.isEmpty && !hardwareDecoder.hasPrefix("unknown")
    }
}

extension VideoPlayer {
    /// Decodes a built-in H.264 clip through libmpv's OpenGL render API on
    /// the application's own GL context and reports the decoder mpv chose
    /// (for `screenplay doctor`).
    public static func checkDecoding(on application: Application) throws -> VideoDecodingReport {
        let context = try CurrentContext.preserving { try application.graphics.context() }
        let report = try DecoderCheck.run(context: context)
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).filter {
            $0.hasPrefix("renderD")
        }
        var why: [String] = []
        if nodes.isEmpty {
            why.append("this machine has no GPU render node (/dev/dri/renderD*), which VA-API and VDPAU need")
        }
        if context.renderer.contains("llvmpipe") || context.renderer.contains("softpipe") {
            why.append("the GL renderer is \(context.renderer), a software rasteriser with no hardware-frame interop")
        }
        if !report.log.isEmpty { why.append("mpv: " + report.log.suffix(3).joined(separator: "; ")) }
        return VideoDecodingReport(
            hardwareDecoder: report.hardwareDecoder, explanation: why.joined(separator: "; "),
            mpvVersion: report.mpvVersion)
    }
}
