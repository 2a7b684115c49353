import Rendering

/// A scene's own copy of its picture, for partial frames where the driver
/// does not say what a new back buffer holds (no EGL_EXT_buffer_age, as
/// Mesa's software path over wl_shm): the changed rectangles are drawn
/// into this copy, whose content is always the last frame, and the copy
/// is drawn whole into each new buffer. That costs one full-window copy
/// (and the copy's memory, 4 bytes a pixel) per frame, far less than
/// drawing slides, text and pictures again for a clock's second.
///
/// Made on the first partial frame; let go after a run of full frames
/// (animated content), which then draw straight into the window again.
@MainActor
struct RetainedFrame {
    /// Full frames in a row after which the copy goes: two seconds at 60 Hz.
    static let fullFramesBeforeRelease = 120
    private(set) var copy: OffscreenTarget?
    private var fullFramesInARow = 0

    /// Where this frame draws and how old that target's content is (1: the
    /// last frame; 0: unknown, draw all): the copy for a partial frame or
    /// while it is kept, nil for the window itself.
    mutating func target(
        partial: Bool, width: Int, height: Int, context: GraphicsContext
    ) throws -> (target: OffscreenTarget, age: Int)? {
        fullFramesInARow = partial ? 0 : fullFramesInARow + 1
        if let copy, copy.pixelWidth != width || copy.pixelHeight != height { release() }
        if !partial, copy == nil || fullFramesInARow >= Self.fullFramesBeforeRelease {
            release()
            return nil
        }
        if let copy { return (copy, 1) }
        let made = try OffscreenTarget(context: context, width: width, height: height)
        copy = made
        return (made, 0)
    }

    /// Draws the whole copy into the window's new buffer, opaque.
    func draw(_ copy: OffscreenTarget, into window: WindowSurface, quads: QuadRenderer) throws {
        // Alpha 1 in the copy's repainted part (content such as a shader may
        // write less; the rest is 1 from earlier frames): the unblended copy
        // carries it into the buffer of a surface declared opaque.
        try copy.makeOpaque()
        try quads.copy(copy, onto: window)
    }

    mutating func release() {
        copy?.destroy()
        copy = nil
    }
}
