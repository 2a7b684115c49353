import Dispatch
import Documents
import Screenplay

// The presenter's pointer and spotlight (pdfpc's pointer and spotlight
// modes): the speaker points at the console's current slide and the room
// sees a dot, or everything but a circle darkened, at the same place of the
// slide on every audience screen, whatever its size.

/// What the pointer shows or does. As in pdfpc the modes are exclusive and
/// all start off: a speaker who reaches for the mouse for something else
/// (the notes, another window) sends nothing to the room until asking for
/// it. In the drawing modes a left press on the console's current slide
/// draws (PresenterDrawing.swift) instead of going on.
enum PointerMode: String, Equatable, Sendable {
    case off
    /// `l`: a red dot, half opaque (pdfpc's default pointer).
    case pointer
    /// `h`: everything but a circle around the point darkened by half.
    case spotlight
    /// `d`, `m`, `x`: drawing with pdfpc's pen, highlighter and eraser.
    case pen, highlighter, eraser

    /// The drawing tool of a drawing mode.
    var tool: InkTool? {
        switch self {
        case .off, .pointer, .spotlight: nil
        case .pen: .pen
        case .highlighter: .highlighter
        case .eraser: .eraser
        }
    }

    /// Each mode's key switches it on, or off when it is on.
    func toggled(_ mode: PointerMode) -> PointerMode { self == mode ? .off : mode }
}

/// A point on a slide in fractions of the slide's size (0...1 from the top
/// left), so it means the same place on a 1280x720 preview and on a 4:3
/// projector with bars.
struct SlidePoint: Equatable, Sendable {
    var x: Double
    var y: Double
}

/// Where a slide lies in a view: letterboxed, aspect kept, centred, exactly
/// as `PDFDocument.render` places it (the same `fitRect`), so a point maps
/// to the pixel the slide's content is drawn on.
struct SlideFrame: Equatable, Sendable {
    let x: Int
    let y: Int
    let width: Int
    let height: Int

    /// The slide (`slideWidth` x `slideHeight` in any unit) fitted into the
    /// view `rect` (pixels of the drawing target).
    init(slideWidth: Double, slideHeight: Double, in rect: ConsoleLayout.Rect) {
        let fit = fitRect(contentWidth: slideWidth, contentHeight: slideHeight, width: rect.width, height: rect.height)
        (x, y, width, height) = (rect.x + fit.x, rect.y + fit.y, fit.width, fit.height)
    }

    /// The slide point under pixel position (`px`, `py`); nil off the slide
    /// (in the bars, or outside the view).
    func point(atX px: Double, y py: Double) -> SlidePoint? {
        guard width > 0, height > 0 else { return nil }
        let u = (px - Double(x)) / Double(width), v = (py - Double(y)) / Double(height)
        guard (0...1).contains(u), (0...1).contains(v) else { return nil }
        return SlidePoint(x: u, y: v)
    }

    /// The slide point nearest pixel position (`px`, `py`): a line drawn
    /// off the slide's edge runs along it. Nil for an empty frame.
    func clampedPoint(atX px: Double, y py: Double) -> SlidePoint? {
        guard width > 0, height > 0 else { return nil }
        let u = (px - Double(x)) / Double(width), v = (py - Double(y)) / Double(height)
        return SlidePoint(x: min(1, max(0, u)), y: min(1, max(0, v)))
    }

    /// The frame as a scene rectangle (to clip a slide's drawing to it).
    var rect: SceneRect { SceneRect(x: x, y: y, width: width, height: height) }

    /// The pixel position of `point` in the target.
    func position(of point: SlidePoint) -> (x: Double, y: Double) {
        (Double(x) + point.x * Double(width), Double(y) + point.y * Double(height))
    }
}

/// How the pointer looks: pdfpc's defaults (`pointer-color` red,
/// `pointer-opacity` 50, `pointer-size` 10, `spotlight-opacity` 50,
/// `spotlight-size` 100, sizes in thousandths of the slide's height).
enum PointerLook {
    static let color = RGBColor(hex: 0xff0000)
    static let opacity = 0.5
    static let radius = 0.01
    static let spotlightColor = RGBColor.black
    static let spotlightOpacity = 0.5
    static let spotlightRadius = 0.1
    /// Never smaller than this many pixels (the console's small preview).
    static let minimumRadius = 2.5

    /// Draws `mode` at `point` over the slide that fills `frame`; the
    /// spotlight darkens the slide only, never the rest of the console.
    @MainActor
    static func draw(_ mode: PointerMode, at point: SlidePoint?, on frame: SlideFrame, _ c: DrawingContext) throws {
        guard let point else { return }
        let (x, y) = frame.position(of: point)
        switch mode {
        case .off, .pen, .highlighter, .eraser:
            return
        case .pointer:
            try c.fillCircle(
                centerX: x, centerY: y, radius: max(minimumRadius, radius * Double(frame.height)), color: color,
                opacity: opacity)
        case .spotlight:
            try c.fillOutsideCircle(
                x: frame.x, y: frame.y, width: frame.width, height: frame.height, centerX: x, centerY: y,
                radius: max(minimumRadius, spotlightRadius * Double(frame.height)), color: spotlightColor,
                opacity: spotlightOpacity)
        }
    }
}

/// When a redraw for pointer motion may happen: at once when the scene's
/// last one was a refresh or more ago, else when that refresh has passed.
/// Motion arrives at the mouse's rate (125 to 1000 events a second); the
/// room needs one picture per refresh.
enum RefreshThrottle {
    /// Nanoseconds to wait from `nowNs`; 0: draw now.
    static func delayNs(nowNs: UInt64, lastNs: UInt64?, refreshNs: UInt64) -> UInt64 {
        guard let lastNs, nowNs >= lastNs else { return 0 }
        let since = nowNs - lastNs
        return since >= refreshNs ? 0 : refreshNs - since
    }
}

/// Redraws scenes for pointer motion, at most once per refresh each: a
/// request inside the refresh of the last one waits for its end (one timer,
/// however many motions come meanwhile), and the draw then shows the newest
/// point. Nothing runs while the pointer rests. A request may name the
/// part that changed (a drawn line's new segment): the waiting ones'
/// rectangles add up, and the draw repaints their box, not the screen.
@MainActor
final class PointerRedraws {
    private var lastNs: [ObjectIdentifier: UInt64] = [:]
    private var waiting: Set<ObjectIdentifier> = []
    /// What the waiting draw repaints: a box, or nil for everything.
    private var pending: [ObjectIdentifier: SceneRect?] = [:]

    /// `rect`: the part of the scene that changed; nil: all of it.
    func request(_ scene: Scene, in rect: SceneRect? = nil) {
        let id = ObjectIdentifier(scene)
        if let known = pending[id] {
            pending[id] = .some(known.flatMap { old in rect.map { old.union($0) } })
        } else {
            pending[id] = .some(rect)
        }
        guard !waiting.contains(id) else { return }
        let now = monotonicNanoseconds()
        let refreshNs = UInt64(max(0.001, scene.displayLink.duration) * 1e9)
        let delay = RefreshThrottle.delayNs(nowNs: now, lastNs: lastNs[id], refreshNs: refreshNs)
        guard delay > 0 else {
            lastNs[id] = now
            redraw(scene, id)
            return
        }
        waiting.insert(id)
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { [weak self, weak scene] in
            MainActor.assumeIsolated {
                guard let self, self.waiting.remove(id) != nil, let scene else { return }
                self.lastNs[id] = monotonicNanoseconds()
                self.redraw(scene, id)
            }
        }
    }

    private func redraw(_ scene: Scene, _ id: ObjectIdentifier) {
        let rect = pending.removeValue(forKey: id) ?? nil
        if let rect { scene.setNeedsDisplay(in: rect) } else { scene.setNeedsDisplay() }
    }

    /// A scene that went away (its identifier may be reused).
    func forget(_ scene: Scene) {
        let id = ObjectIdentifier(scene)
        lastNs[id] = nil
        waiting.remove(id)
        pending[id] = nil
    }
}

/// What a view draws of the pointer: the mode and where.
struct PointerDrawing: Equatable {
    var mode: PointerMode
    var point: SlidePoint
}

/// Where the pointer is on the console's current slide, and where it last
/// was: the spotlight stays there when the pointer leaves the slide, as in
/// pdfpc.
struct PointerTracker {
    /// The slide point under the pointer; nil while the pointer is elsewhere.
    private(set) var onSlide: SlidePoint?
    private(set) var last: SlidePoint?

    /// The pointer moved (nil: off the slide).
    mutating func moved(to point: SlidePoint?) {
        onSlide = point
        if let point { last = point }
    }

    /// What the console draws in `mode`: the dot while the pointer is on
    /// the slide, the spotlight where it last was; nothing otherwise.
    func drawing(_ mode: PointerMode) -> PointerDrawing? {
        switch mode {
        case .off: return nil
        case .pointer: return onSlide.map { PointerDrawing(mode: .pointer, point: $0) }
        case .spotlight: return last.map { PointerDrawing(mode: .spotlight, point: $0) }
        case .pen, .highlighter, .eraser: return nil
        }
    }
}
