internal import CEGL
internal import CMpv
internal import Dispatch
internal import FrameTiming
package import Rendering

/// How a player plays.
package struct PlaybackOptions: Sendable, Equatable {
    package var loops = true
    package var audio = false
    /// Decode the first frame, then wait for `play()` (a playlist's next item).
    package var startsPaused = false
    package init(loops: Bool = true, audio: Bool = false, startsPaused: Bool = false) {
        self.loops = loops
        self.audio = audio
        self.startsPaused = startsPaused
    }
}

/// What the display link should do this refresh.
package enum FrameStep: Equatable {
    /// mpv has a new picture: draw it (and report the swap).
    case draw
    /// mpv wants the picture on screen kept for this refresh too (display
    /// sync repeats a 30 fps frame on a 60 Hz output); it has been told.
    case keep
    /// Nothing from mpv yet (decoding behind, or between files).
    case wait
}

/// Where playback is.
package enum PlaybackState: Equatable, Sendable {
    case loading
    /// The first frame is decoded.
    case playing
    /// Played to the end without looping (the last frame stays drawable).
    case ended
    case failed(String)
}

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
    /// Frames mpv dropped (display sync skipping frames, or a late VO).
    package private(set) var framesDropped = 0
    /// `hwdec-current`: the hardware decoder in use, "no" for software.
    package private(set) var hardwareDecoder = ""
    /// `current-ao`: the audio output mpv opened; empty when none.
    package private(set) var audioOutput = ""
    /// `aid`: the audio track selected ("no" without `audio`).
    package private(set) var audioTrack = ""
    package private(set) var codec = ""
    /// Refreshes that kept the picture (display-sync repeats) and that had
    /// nothing from mpv yet.
    package private(set) var refreshesKept = 0
    package private(set) var refreshesWaiting = 0
    package private(set) var framesPerSecond = 0.0
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

    private let core: MpvCore
    private var render: OpaquePointer?
    private let context: GraphicsContext
    private var wakeup: MainWakeup?
    private var hasPendingFrame = false
    /// mpv reported it has nothing loaded (its video output is closed).
    private var isIdle = false
    private var hasDrawn = false
    private var displayFPS = 0.0
    private var duration = 0.0
    private var furthestPosition = 0.0
    /// When playback last (re)started from the beginning (CLOCK_MONOTONIC
    /// seconds): how long a pass really took, which no sparse `time-pos`
    /// report can shorten.
    private var passStartedAt: Double?
    private var restarts = 0
    private var lastError = ""
    private var decoderDrops = 0
    private var outputDrops = 0
    private var displaySync = DisplaySyncMonitor()

    /// Starts playing `path` into `context` (made current here). `wlDisplay`
    /// lets mpv pick Wayland-specific hardware decoding interop.
    package init(
        path: String, options: PlaybackOptions, context: GraphicsContext, wlDisplay: OpaquePointer?
    ) throws(VideoError) {
        self.path = path
        self.options = options
        self.context = context
        var settings: [(String, String)] = [
            ("vo", "libmpv"), ("video-sync", "display-resample"),
            // The scene's display link is the clock; mpv must not sleep
            // until a frame's time on the render thread.
            ("video-timing-offset", "0"),
            ("keep-open", "yes"), ("loop-file", options.loops ? "inf" : "no"),
            ("pause", options.startsPaused ? "yes" : "no"),
            ("sid", "no"), ("osc", "no"), ("input-default-bindings", "no"), ("terminal", "no"),
            ("msg-level", "all=no"),
        ]
        settings += MpvCore.hardwareDecoding
        // Silent by default: no audio track, so no audio output is opened.
        settings += options.audio ? [("aid", "auto")] : [("aid", "no"), ("ao", "null")]
        core = try MpvCore(path: path, options: settings)
        do {
            try context.ensureCurrent()
        } catch {
            core.destroy()
            throw VideoError(path: path, isUnreadable: false, reason: "the GL context cannot be made current: \(error)")
        }
        var created: OpaquePointer?
        let status = withRenderCreateParams(wlDisplay: wlDisplay) {
            mpv_render_context_create(&created, core.handle, $0)
        }
        guard status >= 0, let created else {
            core.destroy()
            throw VideoError(
                path: path, isUnreadable: false,
                reason:
                    "mpv_render_context_create (OpenGL) failed: \(MpvCore.errorString(status)); see `screenplay doctor`"
            )
        }
        render = created
        let wakeup = MainWakeup { [weak self] in self?.wake() }
        self.wakeup = wakeup
        core.setWakeup(wakeup)
        mpv_render_context_set_update_callback(created, mainWakeupThunk, Unmanaged.passUnretained(wakeup).toOpaque())
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
        if !followsClock, state == .playing,
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
        if !hasPendingFrame {
            hasPendingFrame = mpv_render_context_update(render) & UInt64(MPV_RENDER_UPDATE_FRAME.rawValue) != 0
        }
        guard hasPendingFrame else {
            refreshesWaiting += 1
            return .wait
        }
        var info = mpv_render_frame_info()
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            mpv_render_context_get_info(render, mpv_render_param(type: MPV_RENDER_PARAM_NEXT_FRAME_INFO, data: pointer))
        }
        let flags = status >= 0 ? info.flags : 0
        if hasDrawn, flags & UInt64(MPV_RENDER_FRAME_INFO_REPEAT.rawValue) != 0 {
            // The picture on screen is the one mpv wants repeated: hand the
            // repeat back without GL work and count the refresh as shown.
            hasPendingFrame = false
            try? context.ensureCurrent()
            var skip: Int32 = 1
            withUnsafeMutablePointer(to: &skip) { skipPointer in
                var params = [
                    mpv_render_param(type: MPV_RENDER_PARAM_SKIP_RENDERING, data: skipPointer),
                    mpv_render_param(type: MPV_RENDER_PARAM_INVALID, data: nil),
                ]
                _ = mpv_render_context_render(render, &params)
            }
            mpv_render_context_report_swap(render)
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
        hasPendingFrame = false
        hasDrawn = true
        var target = mpv_opengl_fbo(fbo: Int32(fbo), w: Int32(width), h: Int32(height), internal_format: 0)
        // Every Screenplay target, the window and offscreen layers alike,
        // keeps GL's bottom-up rows (layers are composited that way).
        var flip: Int32 = 1
        var block: Int32 = 0
        withUnsafeMutablePointer(to: &target) { targetPointer in
            withUnsafeMutablePointer(to: &flip) { flipPointer in
                withUnsafeMutablePointer(to: &block) { blockPointer in
                    var params = [
                        mpv_render_param(type: MPV_RENDER_PARAM_OPENGL_FBO, data: targetPointer),
                        mpv_render_param(type: MPV_RENDER_PARAM_FLIP_Y, data: flipPointer),
                        mpv_render_param(type: MPV_RENDER_PARAM_BLOCK_FOR_TARGET_TIME, data: blockPointer),
                        mpv_render_param(type: MPV_RENDER_PARAM_INVALID, data: nil),
                    ]
                    _ = mpv_render_context_render(render, &params)
                }
            }
        }
        // mpv leaves its own GL state behind (render_gl.h: viewport,
        // scissor, blending, bound objects); Screenplay's other drawing in
        // the shared context sets what it needs but expects these unbound.
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
        glUseProgram(0)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(fbo))
        return isNew
    }

    /// The drawn buffer was swapped (committed to the compositor).
    package func reportSwap() {
        guard let render else { return }
        mpv_render_context_report_swap(render)
    }

    /// Frees the render context (GL context current), then the core.
    package func destroy() {
        guard let render else { return }
        try? context.ensureCurrent()
        mpv_render_context_set_update_callback(render, nil, nil)
        stopVideoOutput(render)
        mpv_render_context_free(render)
        self.render = nil
        core.destroy()
        wakeup = nil
    }

    /// Closes mpv's video output before the render context is freed.
    ///
    /// mpv's video output thread waits up to 200 ms for a queued frame to
    /// be rendered and its swap reported (vo_libmpv's `flip_page`), and
    /// freeing the render context waits for that thread. A video cut off
    /// while it played (the next item's turn) queued one more frame as it
    /// stopped and held the main thread for those 200 ms, so the next item
    /// came on late. Here playback is stopped and each frame queued until
    /// the core goes idle is handed back unrendered, which takes a few ms.
    private func stopVideoOutput(_ render: OpaquePointer) {
        guard !isIdle else { return }
        core.command(async: ["stop"])
        // Past mpv's own 200 ms wait nothing is gained by waiting longer.
        let deadline = DispatchTime.now() + .milliseconds(250)
        while DispatchTime.now() < deadline {
            handBackQueuedFrame(render)
            if case .idle = core.nextEvent(timeout: 0.002) { return }
        }
    }

    private func handBackQueuedFrame(_ render: OpaquePointer) {
        mpv_render_context_report_swap(render)
        guard mpv_render_context_update(render) & UInt64(MPV_RENDER_UPDATE_FRAME.rawValue) != 0 else { return }
        var skip: Int32 = 1
        var block: Int32 = 0
        withUnsafeMutablePointer(to: &skip) { skipPointer in
            withUnsafeMutablePointer(to: &block) { blockPointer in
                var params = [
                    mpv_render_param(type: MPV_RENDER_PARAM_SKIP_RENDERING, data: skipPointer),
                    mpv_render_param(type: MPV_RENDER_PARAM_BLOCK_FOR_TARGET_TIME, data: blockPointer),
                    mpv_render_param(type: MPV_RENDER_PARAM_INVALID, data: nil),
                ]
                _ = mpv_render_context_render(render, &params)
            }
        }
        mpv_render_context_report_swap(render)
    }

    // MARK: events

    private func wake() {
        guard let render else { return }
        while let event = core.nextEvent() { handle(event) }
        if !hasDrawn, !hasPendingFrame, self.render != nil {
            // Before the first draw, the update callback is the news that
            // the first picture is there (a preloaded item is ready).
            hasPendingFrame = mpv_render_context_update(render) & UInt64(MPV_RENDER_UPDATE_FRAME.rawValue) != 0
            if hasPendingFrame { onPicture?() }
        }
    }

    private func handle(_ event: MpvEvent) {
        switch event {
        case .idle:
            isIdle = true
        case .fileLoaded:
            isIdle = false
        case .playbackRestart:
            restarts += 1
            // A restart after the first is the loop seeking back to the start.
            if restarts > 1 { checkPlayedToTheEnd() }
            furthestPosition = 0
            passStartedAt = monotonicSeconds()
            if state == .loading { setState(.playing) }
        case let .endFile(reason, error):
            if reason == Int32(MPV_END_FILE_REASON_ERROR.rawValue) {
                fail("playback failed: \(MpvCore.errorString(error))")
            }
        case let .log(prefix, _, text):
            lastError = "\(prefix): \(text)"
        case let .property(name, value):
            property(name, value)
        default:
            break
        }
    }

    private func property(_ name: String, _ value: MpvValue) {
        switch (name, value) {
        case let ("time-pos", .double(position)):
            furthestPosition = max(furthestPosition, position)
        case let ("duration", .double(seconds)):
            duration = seconds
        case let ("container-fps", .double(fps)):
            framesPerSecond = fps
        case let ("eof-reached", .flag(reached)):
            guard reached, state == .playing else { return }
            checkPlayedToTheEnd()
            if case .playing = state { setState(.ended) }
        case let ("frame-drop-count", .int(count)):
            framesDropped += Self.increase(from: &outputDrops, to: Int(count))
        case let ("decoder-frame-drop-count", .int(count)):
            framesDropped += Self.increase(from: &decoderDrops, to: Int(count))
        case let ("hwdec-current", .string(text)):
            hardwareDecoder = text
            onInfoChange?()
        case ("hwdec-current", .none):
            hardwareDecoder = ""
        case let ("current-ao", .string(text)):
            audioOutput = text
            onInfoChange?()
        case ("current-ao", .none):
            audioOutput = ""
        case let ("aid", .string(text)):
            audioTrack = text
        case let ("video-codec", .string(text)):
            codec = text
        default:
            break
        }
    }

    /// mpv's drop counters start again at 0 each time the loop restarts
    /// the file; the total keeps counting.
    private static func increase(from last: inout Int, to count: Int) -> Int {
        defer { last = count }
        return count >= last ? count - last : count
    }

    /// A file that stops part-way (truncated, damaged) reaches its end, or
    /// loops, long before its stated duration: that is a failure, not a
    /// short video. Both the furthest position mpv reported and the time
    /// the pass took must fall short: on a loaded machine mpv reports
    /// `time-pos` sparsely and drops late frames by the clock, so the last
    /// position heard can be half a second before the end of a file that
    /// played whole (a signage soak beside busy cores hit exactly that).
    private func checkPlayedToTheEnd() {
        guard duration > 0, state == .playing else { return }
        let frame = framesPerSecond > 0 ? 1 / framesPerSecond : 0.04
        let margin = 0.5 + 2 * frame
        guard furthestPosition + margin < duration else { return }
        if let passStartedAt, monotonicSeconds() - passStartedAt + margin >= duration { return }
        fail(
            String(
                format: "playback stopped at %.2f s of its %.2f s: the file is truncated or damaged%@",
                furthestPosition,
                duration, lastError.isEmpty ? "" : " (\(lastError))"))
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

/// Calls `body` with the parameters of `mpv_render_context_create`: the
/// OpenGL API, GL entry points from eglGetProcAddress, and the Wayland
/// display (hardware decoding interop needs it on some drivers).
func withRenderCreateParams(
    wlDisplay: OpaquePointer?, _ body: (UnsafeMutablePointer<mpv_render_param>) -> Int32
) -> Int32 {
    var glInit = mpv_opengl_init_params(get_proc_address: screenplay_mpv_get_proc_address, get_proc_address_ctx: nil)
    return MPV_RENDER_API_TYPE_OPENGL.withCString { apiType in
        withUnsafeMutablePointer(to: &glInit) { glInitPointer in
            var params = [
                mpv_render_param(type: MPV_RENDER_PARAM_API_TYPE, data: UnsafeMutableRawPointer(mutating: apiType)),
                mpv_render_param(type: MPV_RENDER_PARAM_OPENGL_INIT_PARAMS, data: glInitPointer),
            ]
            if let wlDisplay {
                params.append(
                    mpv_render_param(type: MPV_RENDER_PARAM_WL_DISPLAY, data: UnsafeMutableRawPointer(wlDisplay)))
            }
            params.append(mpv_render_param(type: MPV_RENDER_PARAM_INVALID, data: nil))
            return params.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        }
    }
}
