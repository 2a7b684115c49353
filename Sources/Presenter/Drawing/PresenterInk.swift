import Screenplay

// Drawing on the console's slide with the pointer or touch: a press in a
// drawing mode (d, m, x) starts a line instead of going on, each motion
// adds a segment and redraws only the box around it, on the console and
// on every audience screen that shows the slide, through each one's bars.
extension Presenter {
    /// Where the console's current slide lies in a console of this size;
    /// nil while the overview or the key list covers it.
    func consoleSlideFrame(width: Int, height: Int) -> SlideFrame? {
        guard !state.isOverviewShown, !state.isHelpShown else { return nil }
        let slide = slideSize(page: state.page)
        return SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height, in: ConsoleLayout(width: width, height: height).current)
    }

    /// A left press (or a touch) at `point` of the console's slide: in a
    /// drawing mode a line starts there (a dot until it moves) and the
    /// press does not go on; false outside drawing modes.
    func inkBegan(at point: SlidePoint) -> Bool {
        guard let tool = state.pointerMode.tool else { return false }
        let slide = state.slide
        let segment = changeDrawings { $0.begin(tool, at: point, slide: slide) }
        emit(["event": "ink", "phase": "began", "tool": tool.rawValue, "slide": slide + 1])
        if let segment { redraw(segment, slide: slide) }
        return true
    }

    /// The press moved to `point` (clamped to the slide).
    func inkMoved(to point: SlidePoint) {
        guard state.drawings.isDrawing else { return }
        let slide = state.slide
        guard let segment = changeDrawings({ $0.extend(to: point) }) else { return }
        redraw(segment, slide: slide)
    }

    /// The press ended (released, the pointer left, the touch lifted).
    func inkEnded() {
        guard state.drawings.isDrawing else { return }
        changeDrawings { $0.end() }
        let lines = state.drawings.strokes(onSlide: state.slide)
        emit([
            "event": "ink", "phase": "ended", "slide": state.slide + 1, "lines": lines.count,
            "points": lines.last?.points.count ?? 0,
        ])
    }

    /// Repaints the segment's box on the console and on each audience
    /// screen showing `slide`: not over black or white, and not while the
    /// room's view is frozen (it shows what it showed).
    private func redraw(_ segment: InkSegment, slide: Int) {
        var dirty: [String: [Int]] = [:]
        if let console, let frame = consoleSlideFrame(width: console.pixelSize.width, height: console.pixelSize.height)
        {
            let rect = segment.dirtyRect(on: frame).intersection(frame.rect)
            dirty["console"] = [rect.x, rect.y, rect.width, rect.height]
            pointerRedraws.request(console, in: rect)
        }
        if case let .page(page) = state.audience, state.frozenPage == nil, state.slides.slide(ofPage: page) == slide {
            for scene in audienceScenes.values where scene.isConnected {
                let frame = audienceSlideFrame(page: page, width: scene.pixelSize.width, height: scene.pixelSize.height)
                let rect = segment.dirtyRect(on: frame).intersection(frame.rect)
                dirty[label(scene)] = [rect.x, rect.y, rect.width, rect.height]
                pointerRedraws.request(scene, in: rect)
            }
        }
        emit([
            "event": "ink", "phase": "segment", "tool": segment.tool.rawValue, "dirty": dirty,
            "version": state.drawings.version,
        ])
    }

    /// Where `page`'s slide lies on an audience screen: edge to edge, aspect
    /// kept, between bars, as the slide is drawn there.
    func audienceSlideFrame(page: Int, width: Int, height: Int) -> SlideFrame {
        let slide = slideSize(page: page)
        return SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height,
            in: ConsoleLayout.Rect(x: 0, y: 0, width: width, height: height))
    }

    /// Draws `slide`'s lines over the slide drawn in `frame`, through the
    /// view's own `layer`; returns how many lines the slide has (for `--stats`).
    @discardableResult
    func drawInk(slide: Int, on frame: SlideFrame, layer: InkLayer, _ c: DrawingContext) throws -> Int {
        let lines = state.drawings.strokes(onSlide: slide)
        guard !lines.isEmpty else { return 0 }
        try layer.draw(lines.map { $0.ink(on: frame) }, clip: frame.rect, in: c)
        return lines.count
    }
}
