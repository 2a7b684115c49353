/// What changed since the last frame: rectangles, or the whole buffer.
/// Pure arithmetic, unit-tested apart from EGL.
struct FrameDamage: Equatable {
    /// More rectangles than this in one frame merge into their bounding
    /// box: every rectangle costs a scissored pass and a swap rectangle.
    static let maxRects = 16
    /// nil: the whole buffer.
    private(set) var rects: [SceneRect]? = []

    /// Nothing changed.
    var isEmpty: Bool { rects?.isEmpty == true }

    mutating func addAll() { rects = nil }

    /// Adds `rect` (an empty one adds nothing).
    mutating func add(_ rect: SceneRect) {
        guard !rect.isEmpty, var list = rects else { return }
        if list.contains(where: { $0.intersection(rect) == rect }) { return }
        list.append(rect)
        if list.count > Self.maxRects { list = [list.reduce(list[0]) { $0.union($1) }] }
        rects = list
    }

    /// The rectangles inside `bounds` (nil: the whole buffer).
    func clipped(to bounds: SceneRect) -> [SceneRect]? {
        rects.map { list in list.map { $0.intersection(bounds) }.filter { !$0.isEmpty } }
    }
}

/// The damage of the last few frames presented, so a frame drawn into a
/// buffer of age n (EGL_EXT_buffer_age: the buffer shows the frame
/// presented n frames ago) repaints what changed in those n - 1 frames
/// too. The repaint region is one rectangle, the bounding box: a GL
/// scissor holds one, and drawing a few pixels more costs less than a
/// pass per rectangle.
struct DamageHistory {
    /// Frames remembered: Mesa's Wayland platform keeps up to 4 buffers,
    /// so an age above 5 does not occur there; an older buffer repaints all.
    static let depth = 4
    /// Newest first; nil: that frame repainted the whole buffer.
    private var recent: [[SceneRect]?] = []
    private var bounds: SceneRect?

    /// The rectangle to repaint so a buffer of age `bufferAge` (0: unknown
    /// content) shows the frame whose own damage is `damage` (clipped to
    /// `bounds`; nil: all), and records the frame. The whole buffer when
    /// the age is unknown or older than the history, or the size changed.
    mutating func repaint(_ damage: [SceneRect]?, bufferAge: Int, bounds: SceneRect) -> SceneRect {
        if bounds != self.bounds { recent = [] }
        self.bounds = bounds
        let frame = damage.map { list in list.map { $0.intersection(bounds) }.filter { !$0.isEmpty } }
        defer {
            recent.insert(frame, at: 0)
            if recent.count > Self.depth { recent.removeLast(recent.count - Self.depth) }
        }
        guard var region = frame, bufferAge > 0, bufferAge - 1 <= recent.count else { return bounds }
        for older in recent.prefix(bufferAge - 1) {
            guard let older else { return bounds }
            region += older
        }
        return region.reduce(SceneRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
    }
}
