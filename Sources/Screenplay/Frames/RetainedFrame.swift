import Rendering

/// A scene's own copy of its picture, for partial frames where the driver
/// does not say what a new back buffer holds (no EGL_EXT_buffer_age, as
/// Mesa's software path over wl_shm): the changed rectangles are drawn
/// into this copy, whose content is always the last frame, and the copy
/// is drawn whole into each new buffer. That costs one full-window copy
/// (and the copy's memory, 4 bytes a pixel) per frame, far less than
/// drawing slides, text and pictures again for a clock's second.
///
/// The copy only pays while most frames change a small part of the
/// window. A frame whose repaint covers half the window or more costs
/// about as much drawn whole into the window, and when most recent frames
/// are like that (a video region beside a ticker: the ticker's frames are
/// small, the video's span the video, the clock and the ticker) keeping
/// the copy current would add a full-window copy to every frame, so every
/// frame draws straight into the window instead. Made on the first small
/// frame; let go when most of the recent frames are large (a run of full
/// frames, animated content, included).
@MainActor
struct RetainedFrame {
    /// A frame whose repaint (its damage's bounding box, as scissored)
    /// covers at least this share of the window is large.
    static let largeShare = 0.5
    /// How many recent frames decide whether most are large: one second
    /// at 60 Hz, so a crossfade's quarter second does not drop the copy.
    static let recentFrames = 60
    private(set) var copy: OffscreenTarget?
    /// Newest last: whether each recent frame was large.
    private var recentLarge: [Bool] = []

    /// Where this frame draws and how old that target's content is (1: the
    /// last frame; 0: unknown, draw all): the copy for a small frame or
    /// while it is kept, nil for the window itself. `damageShare` is the
    /// share of the window this frame's repaint covers (nil: all of it).
    mutating func target(
        damageShare: Double?, width: Int, height: Int, context: GraphicsContext
    ) throws -> (target: OffscreenTarget, age: Int)? {
        let large = damageShare.map { $0 >= Self.largeShare } ?? true
        recentLarge.append(large)
        if recentLarge.count > Self.recentFrames { recentLarge.removeFirst(recentLarge.count - Self.recentFrames) }
        if let copy, copy.pixelWidth != width || copy.pixelHeight != height { release() }
        let mostlyLarge = recentLarge.filter { $0 }.count * 2 > recentLarge.count
        // A large frame with no copy yet has no reason to make one.
        if mostlyLarge || (large && copy == nil) {
            release()
            return nil
        }
        if let copy { return (copy, 1) }
        let made = try OffscreenTarget(context: context, width: width, height: height)
        copy = made
        return (made, 0)
    }

    /// The share of `bounds` that `damage` repaints: its bounding box, as
    /// the scissor is one rectangle (nil damage: all of it).
    nonisolated static func share(of damage: [SceneRect]?, in bounds: SceneRect) -> Double? {
        guard let damage, bounds.area > 0 else { return nil }
        let box = damage.reduce(SceneRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
        return Double(box.intersection(bounds).area) / Double(bounds.area)
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
