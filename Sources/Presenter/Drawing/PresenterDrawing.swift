import Screenplay

// Drawing on slides (pdfpc's pen, highlighter and eraser): the speaker
// draws on the console's current slide and every audience screen shows the
// lines at the same place of the slide, whatever its size and bars. Lines
// are kept per slide for the talk, in memory, as in pdfpc.

/// What a drawing mode's line is: pdfpc's look, sizes in fractions of the
/// slide's height so a line is as thick on a projector as on the console.
enum InkTool: String, Equatable, Sendable {
    /// `d`: a thin opaque red line (pdfpc's pen colour).
    case pen
    /// `m`: a wide translucent yellow line.
    case highlighter
    /// `x`: clears the lines it passes over (the slide shows again).
    case eraser

    var width: Double {
        switch self {
        case .pen: 0.006
        case .highlighter: 0.035
        case .eraser: 0.05
        }
    }
    var color: RGBColor {
        switch self {
        case .pen: RGBColor(hex: 0xff0000)
        case .highlighter: RGBColor(hex: 0xffff00)
        case .eraser: .black
        }
    }
    var opacity: Double { self == .highlighter ? 0.4 : 1 }
    /// Never thinner than this many pixels (the console's small preview).
    static let minimumPixels = 1.5

    /// The line's width in pixels on a slide drawn `frame`'s size.
    func pixelWidth(on frame: SlideFrame) -> Double { max(Self.minimumPixels, width * Double(frame.height)) }
}

/// One line drawn on a slide, in slide points.
struct SlideStroke: Equatable, Sendable {
    var tool: InkTool
    var points: [SlidePoint]

    /// The line in the pixels of a view showing the slide in `frame`.
    func ink(on frame: SlideFrame) -> InkStroke {
        InkStroke(
            points: points.map {
                let p = frame.position(of: $0)
                return InkStroke.Point(x: p.x, y: p.y)
            }, width: tool.pixelWidth(on: frame), color: tool.color, opacity: tool.opacity, erases: tool == .eraser)
    }
}

/// The talk's drawings: lines by slide (an overlay's steps share them, as
/// they share the slide), and the line the speaker is drawing.
struct SlideDrawings: Equatable, Sendable {
    private(set) var strokes: [Int: [SlideStroke]] = [:]
    /// The line being drawn (a press not yet released): its slide and index.
    private var drawing: LineIndex?
    /// Where an eraser was pressed while it touched no line yet.
    private var pendingEraser: PendingEraser?
    /// Counts every change, so a view knows its picture of the lines is old.
    private(set) var version = 0
    /// The slide's width over its height, for the eraser's reach.
    var aspect = 16.0 / 9

    private struct LineIndex: Equatable, Sendable {
        var slide: Int
        var index: Int
    }
    private struct PendingEraser: Equatable, Sendable {
        var slide: Int
        var point: SlidePoint
    }

    func strokes(onSlide slide: Int) -> [SlideStroke] { strokes[slide] ?? [] }

    /// Starts a line at `point` (a press): the segment to redraw, a dot.
    /// An eraser that starts where no line is records nothing until it
    /// reaches one, so rubbing at an empty slide keeps no lines.
    @discardableResult
    mutating func begin(_ tool: InkTool, at point: SlidePoint, slide: Int) -> InkSegment? {
        end()
        let stroke = SlideStroke(tool: tool, points: [point])
        if tool == .eraser, !erases(stroke, onSlide: slide) {
            // Held for the motion that reaches a line.
            pendingEraser = PendingEraser(slide: slide, point: point)
            return nil
        }
        strokes[slide, default: []].append(stroke)
        drawing = LineIndex(slide: slide, index: strokes[slide, default: []].count - 1)
        version += 1
        return InkSegment(tool: tool, from: point, to: point)
    }

    /// The line goes on to `point` (a drag): the new segment, to redraw
    /// where it lies; nil when nothing is being drawn.
    @discardableResult
    mutating func extend(to point: SlidePoint) -> InkSegment? {
        if let pending = pendingEraser {
            let path = SlideStroke(tool: .eraser, points: [pending.point, point])
            guard erases(path, onSlide: pending.slide) else {
                pendingEraser = PendingEraser(slide: pending.slide, point: point)
                return nil
            }
            pendingEraser = nil
            strokes[pending.slide, default: []].append(path)
            drawing = LineIndex(slide: pending.slide, index: strokes[pending.slide, default: []].count - 1)
            version += 1
            return InkSegment(tool: .eraser, from: pending.point, to: point)
        }
        guard let drawing, var line = strokes[drawing.slide]?[drawing.index], let last = line.points.last,
            last != point
        else { return nil }
        line.points.append(point)
        strokes[drawing.slide]?[drawing.index] = line
        version += 1
        return InkSegment(tool: line.tool, from: last, to: point)
    }

    /// The press ends: the next `extend` draws nothing.
    mutating func end() {
        drawing = nil
        pendingEraser = nil
    }

    var isDrawing: Bool { drawing != nil || pendingEraser != nil }

    /// `c`: the slide's lines go; false when it had none.
    mutating func clear(slide: Int) -> Bool {
        end()
        guard strokes[slide] != nil else { return false }
        strokes[slide] = nil
        version += 1
        return true
    }

    /// `Shift+c`: every slide's lines go; false when there were none.
    mutating func clearAll() -> Bool {
        end()
        guard !strokes.isEmpty else { return false }
        strokes = [:]
        version += 1
        return true
    }

    /// Whether an eraser's path comes near a painted line of the slide:
    /// within half of each line's width (in slide heights), tested segment
    /// against segment.
    func erases(_ eraser: SlideStroke, onSlide slide: Int) -> Bool {
        strokes(onSlide: slide).contains { line in
            guard line.tool != .eraser else { return false }
            let reach = (eraser.tool.width + line.tool.width) / 2
            return Self.segments(of: eraser).contains { e in
                Self.segments(of: line).contains { l in
                    Self.distance(e, l, aspect: aspect) <= reach
                }
            }
        }
    }

    private static func segments(of stroke: SlideStroke) -> [(SlidePoint, SlidePoint)] {
        guard stroke.points.count > 1 else { return stroke.points.map { ($0, $0) } }
        return zip(stroke.points, stroke.points.dropFirst()).map { ($0, $1) }
    }

    /// The least distance between two segments, in slide heights (x is
    /// scaled by the slide's width over height, so a circle stays round).
    static func distance(_ a: (SlidePoint, SlidePoint), _ b: (SlidePoint, SlidePoint), aspect: Double) -> Double {
        func scaled(_ p: SlidePoint) -> (Double, Double) { (p.x * aspect, p.y) }
        let (p1, p2, q1, q2) = (scaled(a.0), scaled(a.1), scaled(b.0), scaled(b.1))
        func pointToSegment(_ p: (Double, Double), _ s: (Double, Double), _ t: (Double, Double)) -> Double {
            let (dx, dy) = (t.0 - s.0, t.1 - s.1)
            let length = dx * dx + dy * dy
            let u = length == 0 ? 0 : min(1, max(0, ((p.0 - s.0) * dx + (p.1 - s.1) * dy) / length))
            let (cx, cy) = (s.0 + u * dx - p.0, s.1 + u * dy - p.1)
            return (cx * cx + cy * cy).squareRoot()
        }
        // Crossing segments touch; else the nearest pair has an end point in it.
        func side(_ p: (Double, Double), _ s: (Double, Double), _ t: (Double, Double)) -> Double {
            (t.0 - s.0) * (p.1 - s.1) - (t.1 - s.1) * (p.0 - s.0)
        }
        let d1 = side(q1, p1, p2), d2 = side(q2, p1, p2), d3 = side(p1, q1, q2), d4 = side(p2, q1, q2)
        if d1 * d2 < 0, d3 * d4 < 0 { return 0 }
        return min(
            pointToSegment(p1, q1, q2), pointToSegment(p2, q1, q2), pointToSegment(q1, p1, p2),
            pointToSegment(q2, p1, p2))
    }
}

/// A line's new piece, to redraw where it lies and nowhere else.
struct InkSegment: Equatable, Sendable {
    var tool: InkTool
    var from: SlidePoint
    var to: SlidePoint

    /// The pixels the piece can change in a view showing the slide in
    /// `frame`: the box of its ends widened by half the line's width and a
    /// pixel of anti-aliasing (the stroke's round caps and joins reach no
    /// further).
    func dirtyRect(on frame: SlideFrame) -> SceneRect {
        InkStroke(
            points: [from, to].map {
                let p = frame.position(of: $0)
                return InkStroke.Point(x: p.x, y: p.y)
            }, width: tool.pixelWidth(on: frame), color: tool.color
        ).bounds
    }
}
