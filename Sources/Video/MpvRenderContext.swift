internal import CEGL
internal import CMpv
internal import Dispatch
internal import Rendering

/// mpv's OpenGL render context on the app's own GL context: it hands over
/// one picture per refresh (drawn into a framebuffer, or a repeat given
/// back without GL work) and, when playback stops, gives queued frames back
/// so that freeing it never waits on mpv's video output thread.
///
/// `MpvPlayer` owns one and decides, per refresh, which of these to do.
@MainActor
final class MpvRenderContext {
    private var render: OpaquePointer?
    private let context: GraphicsContext

    /// Makes `context` current and creates the render context on `core`.
    /// The caller still owns `core` (and destroys it when this throws).
    init(core: MpvCore, context: GraphicsContext, wlDisplay: OpaquePointer?, path: String) throws(VideoError) {
        self.context = context
        do {
            try context.ensureCurrent()
        } catch {
            throw VideoError(path: path, isUnreadable: false, reason: "the GL context cannot be made current: \(error)")
        }
        var created: OpaquePointer?
        let status = withRenderCreateParams(wlDisplay: wlDisplay) {
            mpv_render_context_create(&created, core.handle, $0)
        }
        guard status >= 0, let created else {
            throw VideoError(
                path: path, isUnreadable: false,
                reason:
                    "mpv_render_context_create (OpenGL) failed: \(MpvCore.errorString(status)); see `screenplay doctor`"
            )
        }
        render = created
    }

    /// mpv calls `wakeup` (on its own thread) when a new frame is ready.
    func setUpdateCallback(_ wakeup: MainWakeup) {
        guard let render else { return }
        mpv_render_context_set_update_callback(render, mainWakeupThunk, Unmanaged.passUnretained(wakeup).toOpaque())
    }

    /// Whether mpv has queued a frame since the last one was taken; false
    /// once freed.
    func hasNewFrame() -> Bool {
        guard let render else { return false }
        return mpv_render_context_update(render) & UInt64(MPV_RENDER_UPDATE_FRAME.rawValue) != 0
    }

    /// Whether the queued frame is display sync's repeat of the last one.
    func nextFrameIsRepeat() -> Bool {
        guard let render else { return false }
        var info = mpv_render_frame_info()
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            mpv_render_context_get_info(render, mpv_render_param(type: MPV_RENDER_PARAM_NEXT_FRAME_INFO, data: pointer))
        }
        let flags = status >= 0 ? info.flags : 0
        return flags & UInt64(MPV_RENDER_FRAME_INFO_REPEAT.rawValue) != 0
    }

    /// The picture on screen is the one mpv wants repeated: hand the
    /// repeat back without GL work, and count the refresh as shown.
    func keepRepeat() {
        guard let render else { return }
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
    }

    /// Draws mpv's current picture into framebuffer `fbo` (0: the window),
    /// fitted and letterboxed in black by mpv.
    func draw(framebuffer fbo: UInt32, width: Int, height: Int) {
        guard let render else { return }
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
    }

    /// The drawn buffer was swapped (committed to the compositor).
    func reportSwap() {
        guard let render else { return }
        mpv_render_context_report_swap(render)
    }

    /// Stops `core`'s video output (unless it is idle already) and frees
    /// the render context; the GL context is made current first.
    func free(stopping core: MpvCore, coreIsIdle: Bool) {
        guard let render else { return }
        try? context.ensureCurrent()
        mpv_render_context_set_update_callback(render, nil, nil)
        if !coreIsIdle { stopVideoOutput(render, core: core) }
        mpv_render_context_free(render)
        self.render = nil
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
    private func stopVideoOutput(_ render: OpaquePointer, core: MpvCore) {
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
