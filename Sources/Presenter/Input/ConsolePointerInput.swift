import Documents
import Screenplay

/// The console's pointer and touch: pointing at the current slide moves
/// the pointer on every screen, a press in a drawing mode (or the first
/// finger) draws on the slide, and clicks and scrolls go on or back as in
/// pdfpc.
@MainActor
final class ConsolePointerInput {
    unowned let presenter: Presenter
    /// Scrolled distance not yet turned into a page, and when the last step was taken.
    private var scrolledSoFar = (pending: 0.0, lastStepNs: UInt64(0))
    /// Scrolled device pixels that make one page (a wheel's notch is 10 to 15).
    static let scrollStep = 10.0
    /// The least time between two pages by scrolling: a touchpad's flick
    /// sends dozens of small scrolls, and a talk must not race ahead.
    static let scrollPauseNs: UInt64 = 150_000_000

    init(presenter: Presenter) { self.presenter = presenter }

    /// Pointing at the current slide moves the pointer on every screen; in
    /// a drawing mode a left press on the slide draws there instead of
    /// going on (a click without motion leaves a dot), until released.
    /// Presses elsewhere on the console, and the right button, do as always.
    func pointer(_ event: PointerEvent, in scene: Scene) {
        switch event.kind {
        case .entered, .moved:
            if presenter.state.drawings.isDrawing, let point = clampedSlidePoint(scene, x: event.x, y: event.y) {
                inkMoved(to: point)
            }
            presenter.pointerMoved(to: slidePoint(scene, x: event.x, y: event.y))
        case .left:
            inkEnded()
            presenter.pointerMoved(to: nil)
        case .pressed(.left) where presenter.state.pointerMode.tool != nil:
            if let point = inkPoint(scene, x: event.x, y: event.y), inkBegan(at: point) { return }
            clicked(
                .left, x: event.x, y: event.y, width: scene.pixelSize.width, height: scene.pixelSize.height)
        case let .pressed(button):
            clicked(
                button, x: event.x, y: event.y, width: scene.pixelSize.width, height: scene.pixelSize.height)
        case let .scrolled(_, dy):
            scrolled(dy)
        case .released(.left):
            inkEnded()
        case .released:
            break
        }
    }

    /// The first finger draws as the left button does in a drawing mode;
    /// touch does nothing else on the console.
    func touch(_ event: TouchEvent, in scene: Scene) {
        switch event.kind {
        case .began:
            guard drawingTouch == nil, let point = inkPoint(scene, x: event.x, y: event.y),
                inkBegan(at: point)
            else { return }
            drawingTouch = event.id
        case .moved:
            guard event.id == drawingTouch, let point = clampedSlidePoint(scene, x: event.x, y: event.y) else {
                return
            }
            inkMoved(to: point)
        case .ended, .cancelled:
            guard event.id == drawingTouch else { return }
            drawingTouch = nil
            inkEnded()
        }
    }
    /// The touch point drawing a line, if one is.
    private var drawingTouch: Int?

    /// The slide point a press draws at: on the current slide, and not
    /// while the key list covers it.
    private func inkPoint(_ scene: Scene, x: Double, y: Double) -> SlidePoint? {
        presenter.consoleSlideFrame(width: scene.pixelSize.width, height: scene.pixelSize.height)?.point(atX: x, y: y)
    }

    private func clampedSlidePoint(_ scene: Scene, x: Double, y: Double) -> SlidePoint? {
        presenter.consoleSlideFrame(width: scene.pixelSize.width, height: scene.pixelSize.height)?
            .clampedPoint(atX: x, y: y)
    }

    /// Where the current slide lies in the console (nil in the overview,
    /// which shows no current slide).
    func currentSlideFrame(width: Int, height: Int) -> SlideFrame? {
        guard !presenter.state.isOverviewShown else { return nil }
        let slide = presenter.files.slideSize(page: presenter.state.page)
        return SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height, in: ConsoleLayout(width: width, height: height).current)
    }

    private func slidePoint(_ scene: Scene, x: Double, y: Double) -> SlidePoint? {
        currentSlideFrame(width: scene.pixelSize.width, height: scene.pixelSize.height)?.point(atX: x, y: y)
    }

    // MARK: drawing

    /// A left press (or a touch) at `point` of the console's slide: in a
    /// drawing mode a line starts there (a dot until it moves) and the
    /// press does not go on; false outside drawing modes.
    private func inkBegan(at point: SlidePoint) -> Bool {
        guard let tool = presenter.state.pointerMode.tool else { return false }
        let slide = presenter.state.slide
        let segment = presenter.changeDrawings { $0.begin(tool, at: point, slide: slide) }
        presenter.emit(["event": "ink", "phase": "began", "tool": tool.rawValue, "slide": slide + 1])
        if let segment { redraw(segment, slide: slide) }
        return true
    }

    /// The press moved to `point` (clamped to the slide).
    private func inkMoved(to point: SlidePoint) {
        guard presenter.state.drawings.isDrawing else { return }
        let slide = presenter.state.slide
        guard let segment = presenter.changeDrawings({ $0.extend(to: point) }) else { return }
        redraw(segment, slide: slide)
    }

    /// The press ended (released, the pointer left, the touch lifted).
    private func inkEnded() {
        guard presenter.state.drawings.isDrawing else { return }
        presenter.changeDrawings { $0.end() }
        let lines = presenter.state.drawings.strokes(onSlide: presenter.state.slide)
        presenter.emit([
            "event": "ink", "phase": "ended", "slide": presenter.state.slide + 1, "lines": lines.count,
            "points": lines.last?.points.count ?? 0,
        ])
    }

    /// Repaints the segment's box on the console and on each audience
    /// screen showing `slide`: not over black or white, and not while the
    /// room's view is frozen (it shows what it showed).
    private func redraw(_ segment: InkSegment, slide: Int) {
        var dirty: [String: [Int]] = [:]
        if let console = presenter.console,
            let frame = presenter.consoleSlideFrame(width: console.pixelSize.width, height: console.pixelSize.height)
        {
            let rect = segment.dirtyRect(on: frame).intersection(frame.rect)
            dirty["console"] = [rect.x, rect.y, rect.width, rect.height]
            presenter.pointerRedraws.request(console, in: rect)
        }
        if case let .page(page) = presenter.state.audience, presenter.state.frozenPage == nil,
            presenter.state.slides.slide(ofPage: page) == slide
        {
            for scene in presenter.audienceScenes.values where scene.isConnected {
                let frame = presenter.audienceSlideFrame(
                    page: page, width: scene.pixelSize.width, height: scene.pixelSize.height)
                let rect = segment.dirtyRect(on: frame).intersection(frame.rect)
                dirty[presenter.label(scene)] = [rect.x, rect.y, rect.width, rect.height]
                presenter.pointerRedraws.request(scene, in: rect)
            }
        }
        presenter.emit([
            "event": "ink", "phase": "segment", "tool": segment.tool.rawValue, "dirty": dirty,
            "version": presenter.state.drawings.version,
        ])
    }

    // MARK: clicks and scrolls

    /// A click: in the overview it shows the slide clicked; on the slide a
    /// left click goes on (or follows an internal link: a table of
    /// contents, a "back" button), a right click goes back.
    private func clicked(_ button: PointerButton, x: Double, y: Double, width: Int, height: Int) {
        let layout = ConsoleLayout(width: width, height: height)
        var action: PresenterAction?
        if let selection = presenter.state.overviewSelection {
            let grid = layout.overview(
                count: presenter.state.slides.count, aspect: presenter.files.overviewAspect, selected: selection)
            if button == .left, let cell = grid.cells.first(where: { $0.rect.contains(x: x, y: y) }) {
                action = .goToPage(presenter.state.slides.lastPage(ofSlide: cell.slide))
            }
        } else if button == .left {
            action = link(atX: x, y: y, layout: layout).map { .goToPage($0.page) } ?? .next
        } else if button == .right {
            action = .previous
        }
        presenter.emit([
            "event": "click", "button": button == .left ? "left" : button == .right ? "right" : "\(button.rawValue)",
            "x": Int(x), "y": Int(y), "action": action.map { "\($0)" } ?? "none",
        ])
        if let action { presenter.perform(action) }
    }

    /// The internal link under a point of the console's current slide.
    private func link(atX x: Double, y: Double, layout: ConsoleLayout) -> PageJumpLink? {
        guard let links = presenter.files.jumpLinks[presenter.state.page] else { return nil }
        let size = presenter.files.slideSize(page: presenter.state.page)
        let frame = SlideFrame(slideWidth: size.width, slideHeight: size.height, in: layout.current)
        guard let point = frame.point(atX: x, y: y) else { return nil }
        // The slide is a part of the page (a beamer page's slide half).
        let region = presenter.files.slideRegion
        let (u, v) = (region.x + point.x * region.width, region.y + point.y * region.height)
        return links.first { link in
            let r = link.region
            return u >= r.x && u <= r.x + r.width && v >= r.y && v <= r.y + r.height
        }
    }

    /// A scroll down goes on, up goes back: a page per step, and no faster
    /// than one every `scrollPauseNs`.
    private func scrolled(_ dy: Double) {
        let now = monotonicNanoseconds()
        if (scrolledSoFar.pending > 0) != (dy > 0) { scrolledSoFar.pending = 0 }  // the other way: start over
        scrolledSoFar.pending += dy
        guard abs(scrolledSoFar.pending) >= Self.scrollStep, now &- scrolledSoFar.lastStepNs >= Self.scrollPauseNs
        else { return }
        let action: PresenterAction = scrolledSoFar.pending > 0 ? .next : .previous
        scrolledSoFar = (0, now)
        presenter.emit(["event": "scroll", "action": "\(action)"])
        // In the grid it moves the selection, as the arrows do.
        presenter.perform(action)
    }
}
