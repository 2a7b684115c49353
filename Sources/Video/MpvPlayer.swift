internal import CMpv
internal import FrameTiming
package import Rendering

/// One libmpv core plus its OpenGL render context on the app's own EGL/GLES
/// context, driven from the thread that owns that context (main).
///
/// Pacing: mpv runs with `video-sync=display-resample` and is told the
/// output's refresh (`override-display-fps`). In that mode mpv's video
/// output thread hands over one picture per refresh (a new frame, or a
/// repeat of the last one) and waits for `mpv_render_context_report_swap`
/// before the next; the scene's display link is therefore the only clock.
/// A 30 fps clip on 60 Hz gets frame, repeat, frame, repeat (each frame
/// exactly two refreshes); a 60 fps clip on 30 Hz gets every other frame.
/// Repeats cost nothing here: the picture stays on screen and no buffer is
/// committed (`FrameStep.keep`).
///
/// A machine too slow to hand mpv a picture at every refresh would make
/// that clock run slow (see `DisplaySyncMonitor`); the player then
/// switches mpv to `video-sync=audio` (the system clock, as there is no
/// audio clock without `--audio`), and late frames are dropped instead.
@MainActor
package final class MpvPlayer {
    package let path: String
    package let options: PlaybackOptions
    package private(set) var state: PlaybackState = .loading
    /// New video frames drawn (repeats not counted).
    package private(set) var framesDrawn = 0
    /// The decoder, audio output, codec and drops mpv reports.
    package private(set) var facts = MpvStreamFacts()
    /// Refreshes that kept the picture (display-sync repeats) and that had
    /// nothing from mpv yet.
    package private(set) var refreshesKept = 0
    package private(set) var refreshesWaiting = 0
    package private(set) var framesPerSecond = 0.0, duration = 0.0
    /// Whether the video follows the system clock because display sync
    /// lost too many refreshes, and what was measured then.
    package private(set) var followsClock = false
    package private(set) var displaySyncReport = ""
    /// Called on the main thread when `state` changes.
    package var onStateChange: ((PlaybackState) -> Void)?
    /// Called when a statistic property (decoder, audio output, drops) changes.
    package var onInfoChange: (() -> Void)?
    /// Called once the render context holds the first picture (drawable now).
    package var onPicture: (() -> Void)?
    /// A decoded picture can be drawn (not the empty black of a render
    /// context that has none yet).
    package var hasPicture: Bool { hasPendingFrame || hasDrawn }
    /// A decoded picture not drawn yet: drawing now shows something new.
    package var hasNewPicture: Bool { hasPendingFrame }
    /// The picture's size as shown (`dwidth`, `dheight`), once decoded.
    package var displaySize: (width: Int, height: Int)? {
        guard let width = core.double("dwidth"), let height = core.double("dheight"), width > 0, height > 0 else {
            return nil
        }
        return (Int(width), Int(height))
    }

    /// The newest `time-pos`, and the one read when the last new picture
    /// was drawn with when (monotonic s); seeks asked for and done: `MpvPlayerClock.swift`.
    package private(set) var position: Double?
    package private(set) var drawnPicture: (position: Double, at: Double)?
    var seekPending = false, seeksDone = 0, timedBySystemClock = false
    let core: MpvCore
    private var render: MpvRenderContext?
    private var wakeup: MainWakeup?
    private var hasPendingFrame = false
    /// mpv reported it has nothing loaded (its video output is closed).
    private var isIdle = false
    private var hasDrawn = false
    private var displayFPS = 0.0
    /// Whether each pass played to the end of the file (see `PlayedPassCheck`).
    private var passCheck = PlayedPassCheck(readingStartsAt: monotonicSeconds())
    private var passErrors = PassErrors()
    private var displaySync = DisplaySyncMonitor()

    /// Starts playing `path` into `context` (made current here). `wlDisplay`
    /// lets mpv pick Wayland-specific hardware decoding interop.
    package init(
        path: String, options: PlaybackOptions, context: GraphicsContext, wlDisplay: OpaquePointer?
    ) throws(VideoError) {
        self.path = path
        self.options = options
        core = try MpvCore(path: path, options: options.mpvSettings)
        let render: MpvRenderContext
        do throws(VideoError) {
            render = try MpvRenderContext(core: core, context: context, wlDisplay: wlDisplay, path: path)
        } catch {
            core.destroy()
            throw error
        }
        self.render = render
        let wakeup = MainWakeup { [weak self] in self?.wake() }
        self.wakeup = wakeup
        core.setWakeup(wakeup)
        render.setUpdateCallback(wakeup)
        mpv_request_log_messages(core.handle, "error")
        for name in ["hwdec-current", "current-ao", "aid", "video-codec"] { core.observe(name, as: MPV_FORMAT_STRING) }
        for name in ["time-pos", "duration", "container-fps"] { core.observe(name, as: MPV_FORMAT_DOUBLE) }
        for name in ["frame-drop-count", "decoder-frame-drop-count"] { core.observe(name, as: MPV_FORMAT_INT64) }
        core.observe("eof-reached", as: MPV_FORMAT_FLAG)
        core.command(["loadfile", path])
    }

    /// Keeps mpv's display sync on the output's refresh (call when the
    /// scene's screen or mode changes, and before the first frame).
    package func setDisplayRefresh(hz: Double) {
        guard hz > 0, abs(hz - displayFPS) > 0.01 else { return }
        displayFPS = hz
        core.setPropertyAsync("override-display-fps", String(hz))
    }

    /// Starts a player made with `startsPaused` (its first frame stays
    /// until then).
    package func play() {
        displaySync.reset()
        core.setPropertyAsync("pause", "no")
    }

    /// Called on the display link's refresh at `nowNs` (monotonic), on an
    /// output refreshing every `refreshNs`: what to do with this refresh.
    package func step(nowNs: UInt64, refreshNs: UInt64) -> FrameStep {
        let step = nextStep()
        if !followsClock, !timedBySystemClock, state == .playing,
            displaySync.refresh(nowNs: nowNs, refreshNs: refreshNs, handedOver: step != .wait)
        {
            followClock()
        }
        return step
    }

    /// Display sync cannot keep the video's speed on this machine: follow
    /// the system clock and let mpv drop the frames that come too late.
    private func followClock() {
        followsClock = true
        displaySyncReport =
            "\(displaySync.lastLost) of \(displaySync.lastWindow) refreshes passed without a picture for mpv"
        core.setPropertyAsync("video-sync", "audio")
        onInfoChange?()
    }

    private func nextStep() -> FrameStep {
        guard let render else { return .wait }
        if !hasPendingFrame { hasPendingFrame = render.hasNewFrame() }
        guard hasPendingFrame else {
            refreshesWaiting += 1
            return .wait
        }
        let isRepeat = render.nextFrameIsRepeat()
        if hasDrawn, isRepeat {
            hasPendingFrame = false
            render.keepRepeat()
            refreshesKept += 1
            return .keep
        }
        return .draw
    }

    /// Draws the current picture into framebuffer `fbo` (0: the window),
    /// fitted and letterboxed in black by mpv. Call `reportSwap()` after
    /// the buffer is swapped when it returns true (a new picture); a redraw
    /// (resize, a crossfade's refresh that mpv wants kept) draws the last
    /// picture again and reports nothing.
    @discardableResult
    package func draw(framebuffer fbo: UInt32, width: Int, height: Int) -> Bool {
        guard let render else { return false }
        let isNew = hasPendingFrame
        if hasPendingFrame, state != .ended { framesDrawn += 1 }
        // A clock-timed video's measure is asked now: the observed `time-pos`
        // of the picture just handed over may not have been read yet.
        if isNew, let at = (timedBySystemClock ? core.double("time-pos") : nil) ?? position {
            drawnPicture = (at, monotonicSeconds())
        }
        hasPendingFrame = false
        hasDrawn = true
        render.draw(framebuffer: fbo, width: width, height: height)
        return isNew
    }

    /// The drawn buffer was swapped (committed to the compositor).
    package func reportSwap() {
        render?.reportSwap()
    }

    /// Frees the render context (GL context current), then the core.
    package func destroy() {
        guard let render else { return }
        render.free(stopping: core, coreIsIdle: isIdle)
        self.render = nil
        core.destroy()
        wakeup = nil
    }

    // MARK: events

    private func wake() {
        guard let render else { return }
        // The time is taken before each asking: when mpv has nothing, no
        // news read later can have happened before it (a held main thread
        // reads late, and must not take that as the time things happened).
        while true {
            let askedAt = monotonicSeconds()
            guard let event = core.nextEvent() else {
                passCheck.queueSeenEmpty(at: askedAt)
                break
            }
            handle(event)
        }
        if !hasDrawn, !hasPendingFrame, self.render != nil {
            // Before the first draw, the update callback is the news that
            // the first picture is there (a preloaded item is ready).
            hasPendingFrame = render.hasNewFrame()
            if hasPendingFrame { onPicture?() }
        }
    }

    private func handle(_ event: MpvEvent) {
        switch event {
        case .idle:
            isIdle = true
        case .fileLoaded:
            isIdle = false
        case .playbackRestart where seekPending:
            seekPending = false
            seeksDone += 1
            if state == .loading { setState(.playing) }
        case .playbackRestart:
            // A restart after the first is the loop seeking back to the start.
            let now = monotonicSeconds()
            if let shortfall = passCheck.restarted(readAt: now) { failShort(at: shortfall) }
            passErrors.passStarted(notBefore: passCheck.startedNoEarlierThan ?? now)
            if state == .loading { setState(.playing) }
        case let .endFile(reason, error):
            if reason == Int32(MPV_END_FILE_REASON_ERROR.rawValue) {
                fail("playback failed: \(MpvCore.errorString(error))")
            }
        case let .log(prefix, _, text):
            passErrors.heard("\(prefix): \(text)", at: monotonicSeconds())
        case let .property(name, value):
            property(name, value)
        default:
            break
        }
    }

    private func property(_ name: String, _ value: MpvValue) {
        switch (name, value) {
        case let ("time-pos", .double(position)):
            passCheck.heard(position: position)
            self.position = position
        case let ("duration", .double(seconds)):
            duration = seconds
            passCheck.duration = seconds
        case let ("container-fps", .double(fps)):
            framesPerSecond = fps
            passCheck.framesPerSecond = fps
        case let ("eof-reached", .flag(reached)):
            guard reached, state == .playing else { return }
            if let shortfall = passCheck.reachedEnd(readAt: monotonicSeconds()) { failShort(at: shortfall) }
            if case .playing = state { setState(.ended) }
        default:
            if facts.take(name, value) == true { onInfoChange?() }
        }
    }

    /// A pass ended long before the file's stated length: the file is cut
    /// off or damaged. mpv's error from that pass says where (the demuxer's
    /// "partial file"); lines from before it (hardware decoder probing at
    /// load) say nothing about the file and are not quoted.
    private func failShort(at position: Double) {
        guard state == .playing else { return }
        let said = passErrors.telling.map { " (mpv: \($0))" } ?? ""
        fail(
            String(
                format: "playback stopped at %.2f s of its %.2f s: the file is truncated or damaged%@; "
                    + "copy it again, or re-encode it if the copy is whole",
                position, passCheck.duration, said))
    }

    private func fail(_ reason: String) {
        if case .failed = state { return }
        setState(.failed(reason))
    }

    private func setState(_ next: PlaybackState) {
        state = next
        onStateChange?(next)
    }
}
