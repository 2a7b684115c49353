import Documents
import Screenplay

/// Clicks and scrolls on the console, as pdfpc takes them: a left click
/// goes on (or follows an internal link of the current slide: a table of
/// contents, a "back to the overview" button), a right click goes back, a
/// scroll moves by a page; in the overview a click shows that slide and a
/// scroll moves the selection.
extension Presenter {
    /// Scrolled device pixels that make one page (a wheel's notch is 10 to 15).
    static let scrollStep = 10.0
    /// The least time between two pages by scrolling: a touchpad's flick
    /// sends dozens of small scrolls, and a talk must not race ahead.
    static let scrollPauseNs: UInt64 = 150_000_000

    func consoleClicked(_ button: PointerButton, x: Double, y: Double, width: Int, height: Int) {
        let layout = ConsoleLayout(width: width, height: height)
        var action: PresenterAction?
        if let selection = state.overviewSelection {
            let grid = layout.overview(count: state.slides.count, aspect: overviewAspect, selected: selection)
            if button == .left, let cell = grid.cells.first(where: { $0.rect.contains(x: x, y: y) }) {
                action = .goToPage(state.slides.lastPage(ofSlide: cell.slide))
            }
        } else if button == .left {
            action = link(atX: x, y: y, layout: layout).map { .goToPage($0.page) } ?? .next
        } else if button == .right {
            action = .previous
        }
        emit([
            "event": "click", "button": button == .left ? "left" : button == .right ? "right" : "\(button.rawValue)",
            "x": Int(x), "y": Int(y), "action": action.map { "\($0)" } ?? "none",
        ])
        if let action { perform(action) }
    }

    /// The internal link under a point of the console's current slide.
    private func link(atX x: Double, y: Double, layout: ConsoleLayout) -> PageJumpLink? {
        guard let links = jumpLinks[state.page] else { return nil }
        let size = slideSize(page: state.page)
        let frame = SlideFrame(slideWidth: size.width, slideHeight: size.height, in: layout.current)
        guard let point = frame.point(atX: x, y: y) else { return nil }
        // The slide is a part of the page (a beamer page's slide half).
        let region = slideRegion
        let (u, v) = (region.x + point.x * region.width, region.y + point.y * region.height)
        return links.first { link in
            let r = link.region
            return u >= r.x && u <= r.x + r.width && v >= r.y && v <= r.y + r.height
        }
    }

    /// A scroll down goes on, up goes back: a page per step, and no faster
    /// than one every `scrollPauseNs`.
    func consoleScrolled(_ dy: Double) {
        let now = monotonicNanoseconds()
        if (scrolled.pending > 0) != (dy > 0) { scrolled.pending = 0 }  // the other way: start over
        scrolled.pending += dy
        guard abs(scrolled.pending) >= Self.scrollStep, now &- scrolled.lastStepNs >= Self.scrollPauseNs else { return }
        let action: PresenterAction = scrolled.pending > 0 ? .next : .previous
        scrolled = (0, now)
        emit(["event": "scroll", "action": "\(action)"])
        // In the grid it moves the selection, as the arrows do.
        perform(action)
    }
}

extension ConsoleLayout.Rect {
    func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
    }
}
