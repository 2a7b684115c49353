import Rendering

/// A freehand line to draw with ``DrawingContext/drawInk(_:clip:)``: a pen
/// or highlighter line, or an eraser's path over the lines before it.
public struct InkStroke: Equatable, Sendable {
    /// A point of the line in device pixels of the drawing target.
    public struct Point: Equatable, Sendable {
        /// Pixels from the target's left edge; fractions are drawn anti-aliased.
        public var x: Double
        /// Pixels from the target's top edge.
        public var y: Double
        /// A point at (`x`, `y`) pixels of the target.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The line's points in the order drawn; one point is a dot.
    public var points: [Point]
    /// The line's width in pixels.
    public var width: Double
    /// The line's colour (an eraser's is not drawn).
    public var color: RGBColor
    /// 0...1: a highlighter's is well below 1, and its line is as light
    /// where it crosses itself as elsewhere.
    public var opacity: Double
    /// Clears what the line covers of the lines before it instead of painting.
    public var erases: Bool

    /// A line through `points`, `width` pixels wide, of `color` at
    /// `opacity`; with `erases`, an eraser's path instead.
    public init(points: [Point], width: Double, color: RGBColor, opacity: Double = 1, erases: Bool = false) {
        self.points = points
        self.width = width
        self.color = color
        self.opacity = opacity
        self.erases = erases
    }

    /// The pixels the line can touch: its points' box widened by half the
    /// width and a pixel of anti-aliasing; empty without points.
    public var bounds: SceneRect {
        guard let first = points.first, width > 0 else { return SceneRect(x: 0, y: 0, width: 0, height: 0) }
        var (left, top, right, bottom) = (first.x, first.y, first.x, first.y)
        for point in points.dropFirst() {
            (left, right) = (min(left, point.x), max(right, point.x))
            (top, bottom) = (min(top, point.y), max(bottom, point.y))
        }
        let reach = width / 2 + 1
        let x = Int((left - reach).rounded(.down)), y = Int((top - reach).rounded(.down))
        return SceneRect(
            x: x, y: y, width: Int((right + reach).rounded(.up)) - x, height: Int((bottom + reach).rounded(.up)) - y)
    }
}

extension DrawingContext {
    /// Draws `strokes` in order as one layer over what is drawn: pen and
    /// highlighter lines painted (round joins and caps, anti-aliased), an
    /// eraser's line clearing the layer where it passes, so the picture
    /// below shows again. Only the part inside `clip` (a slide's frame, so
    /// no line reaches its bars) and inside ``redrawRect`` is rasterized:
    /// a frame that repaints a new segment's box costs that box, however
    /// many lines the layer holds. A view that repaints whole frames often
    /// (a moving pointer, a video) keeps its lines in an ``InkLayer``.
    /// - Returns: the pixels rasterized (0 when no line reaches the area).
    @discardableResult
    public func drawInk(_ strokes: [InkStroke], clip: SceneRect? = nil) throws -> Int {
        var area = redrawRect.intersection(SceneRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))
        if let clip { area = area.intersection(clip) }
        return try InkRaster.draw(strokes, within: area, on: self)
    }
}

/// Lines drawn over one view, kept as a picture between frames: a frame
/// that repaints all of `clip` (a page change, a pointer dot moving, a
/// video's new picture) draws the kept picture while the lines are the
/// same, and rasterizes them once when they changed; a frame that repaints
/// a part (a new segment's box) rasterizes that part alone, as
/// ``DrawingContext/drawInk(_:clip:)`` does. One layer per view: each
/// keeps the picture at its own size.
@MainActor
public final class InkLayer {
    /// The lines last rasterized whole, where, and their texture.
    private var kept: (strokes: [InkStroke], clip: SceneRect, texture: Texture)?
    /// Pixels rasterized so far (whole layers and parts), for `--stats`
    /// and checks: a frame that reuses the kept picture adds nothing.
    public private(set) var rasterizedPixels = 0

    /// An empty layer.
    public init() {}

    /// Draws `strokes` in order over `c`, inside `clip` (see
    /// ``DrawingContext/drawInk(_:clip:)`` for erasing and clipping).
    public func draw(_ strokes: [InkStroke], clip: SceneRect, in c: DrawingContext) throws {
        let whole = clip.intersection(SceneRect(x: 0, y: 0, width: c.pixelWidth, height: c.pixelHeight))
        let area = c.redrawRect.intersection(whole)
        guard !area.isEmpty, strokes.contains(where: { !$0.erases }) else { return }
        guard area == whole else {
            rasterizedPixels += try c.drawInk(strokes, clip: clip)
            return
        }
        let texture: Texture
        if let kept, kept.strokes == strokes, kept.clip == whole {
            texture = kept.texture
        } else {
            let canvas = try InkRaster.canvas(strokes, in: whole)
            rasterizedPixels += whole.area
            // The same size: uploaded in place, no new texture.
            if let old = kept?.texture, old.width == whole.width, old.height == whole.height {
                try canvas.update(old)
                texture = old
            } else {
                texture = try canvas.makeTexture(context: c.resources.context)
            }
            kept = (strokes, whole, texture)
        }
        try InkRaster.draw(texture, at: whole, on: c)
    }
}

/// Strokes rasterized into one box of a target: the box their painting
/// lines reach, and a canvas of its size with every stroke that crosses it
/// drawn, offset to it.
enum InkRaster {
    /// Rasterizes the part of `area` that `strokes` reach and draws it on
    /// `context`; the pixels rasterized (0 when no line reaches the area).
    @MainActor
    static func draw(_ strokes: [InkStroke], within area: SceneRect, on context: DrawingContext) throws -> Int {
        guard let box = paintedBox(of: strokes, within: area) else { return 0 }
        let texture = try canvas(strokes, in: box).makeTexture(context: context.resources.context)
        defer { texture.destroy() }
        try draw(texture, at: box, on: context)
        return box.area
    }

    /// Draws a texture of `box`'s size, rasterized for it, at `box` of `context`'s target.
    @MainActor
    static func draw(_ texture: Texture, at box: SceneRect, on context: DrawingContext) throws {
        try context.resources.quads().draw(
            texture, regions: [PixelRect(x: 0, y: 0, width: box.width, height: box.height)], x: Double(box.x),
            y: Double(box.y), on: context.target)
    }

    /// The part of `area` that `strokes`' painting lines reach; nil when
    /// none does. Lines outside the area cost nothing; erasers only clear
    /// what is painted.
    static func paintedBox(of strokes: [InkStroke], within area: SceneRect) -> SceneRect? {
        var painted: SceneRect?
        for stroke in strokes where !stroke.erases {
            let inside = stroke.bounds.intersection(area)
            if !inside.isEmpty { painted = painted.map { $0.union(inside) } ?? inside }
        }
        guard let painted, !painted.isEmpty else { return nil }
        return painted
    }

    /// A canvas of `box`'s size with the strokes that cross it drawn in order.
    static func canvas(_ strokes: [InkStroke], in box: SceneRect) throws -> Canvas {
        let canvas = try Canvas(width: box.width, height: box.height)
        for stroke in strokes where !stroke.bounds.intersection(box).isEmpty {
            var color = stroke.color.rendering
            color.alpha = min(max(stroke.opacity, 0), 1)
            canvas.strokeLine(
                stroke.points.map { (x: $0.x - Double(box.x), y: $0.y - Double(box.y)) }, width: stroke.width,
                color: color, erase: stroke.erases)
        }
        return canvas
    }
}
