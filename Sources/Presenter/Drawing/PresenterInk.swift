import Screenplay

// Where the slide lies on the console and on an audience screen, for the
// pointer and the lines drawn on it (ConsolePointerInput draws them).
extension Presenter {
    /// Where the console's current slide lies in a console of this size;
    /// nil while the overview or the key list covers it.
    func consoleSlideFrame(width: Int, height: Int) -> SlideFrame? {
        guard !state.isOverviewShown, !state.isHelpShown else { return nil }
        let slide = files.slideSize(page: state.page)
        return SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height, in: ConsoleLayout(width: width, height: height).current)
    }

    /// Where `page`'s slide lies on an audience screen: edge to edge, aspect
    /// kept, between bars, as the slide is drawn there.
    func audienceSlideFrame(page: Int, width: Int, height: Int) -> SlideFrame {
        let slide = files.slideSize(page: page)
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
