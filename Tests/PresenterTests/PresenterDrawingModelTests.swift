import Screenplay
import TestHarness
import XCTest

@testable import Presenter

/// Drawing on slides, without Wayland: the keys and modes, lines kept per
/// slide, the eraser's reach, clearing, and the box a new segment repaints
/// on views of other sizes.
final class PresenterDrawingModelTests: ScreenplayTestCase {
    func testKeysSwitchTheDrawingModesAndClear() {
        var state = PresenterState(pageCount: 4)
        XCTAssertEqual(PresenterKeys.action(keysym: "d", text: "d"), .togglePen)
        XCTAssertEqual(PresenterKeys.action(keysym: "m", text: "m"), .toggleHighlighter)
        XCTAssertEqual(PresenterKeys.action(keysym: "x", text: "x"), .toggleEraser)
        XCTAssertEqual(PresenterKeys.action(keysym: "c", text: "c"), .clearDrawing)
        XCTAssertEqual(PresenterKeys.action(keysym: "C", text: "C", shift: true), .clearAllDrawings)
        state.apply(.togglePen, at: 0)
        XCTAssertEqual(state.pointerMode, .pen)
        state.apply(.toggleHighlighter, at: 0)
        XCTAssertEqual(state.pointerMode, .highlighter, "another tool's key switches to it")
        state.apply(.togglePointer, at: 0)
        XCTAssertEqual(state.pointerMode, .pointer, "the pointer and the tools exclude each other")
        state.apply(.toggleEraser, at: 0)
        state.apply(.toggleEraser, at: 0)
        XCTAssertEqual(state.pointerMode, .off, "a tool's key again: off")
        XCTAssertEqual(state.apply(.clearDrawing, at: 0), .unchanged, "nothing to clear")
        XCTAssertFalse(state.audienceSeesPointer, "off: nothing of the pointer reaches the room")
    }

    func testLinesAreKeptPerSlideAndCleared() {
        // Pages 1-2 are one slide (overlays), 3 and 4 slides of their own.
        var state = PresenterState(slides: Slides(labels: ["1", "1", "2", "3"], forcedOverlays: []))
        state.drawings.begin(.pen, at: SlidePoint(x: 0.1, y: 0.1), slide: state.slide)
        state.drawings.extend(to: SlidePoint(x: 0.2, y: 0.1))
        state.drawings.end()
        XCTAssertNil(state.drawings.extend(to: SlidePoint(x: 0.3, y: 0.1)), "released: motion draws nothing")
        state.apply(.next, at: 0)
        XCTAssertEqual(state.page, 1)
        XCTAssertEqual(state.drawings.strokes(onSlide: state.slide).count, 1, "an overlay's next step keeps its lines")
        state.apply(.next, at: 0)
        XCTAssertTrue(state.drawings.strokes(onSlide: state.slide).isEmpty, "the next slide has its own")
        state.drawings.begin(.highlighter, at: SlidePoint(x: 0.5, y: 0.5), slide: state.slide)
        state.drawings.end()
        state.apply(.previous, at: 0)
        XCTAssertEqual(
            state.drawings.strokes(onSlide: state.slide),
            [SlideStroke(tool: .pen, points: [SlidePoint(x: 0.1, y: 0.1), SlidePoint(x: 0.2, y: 0.1)])],
            "back: the slide's line as drawn")
        let version = state.drawings.version
        XCTAssertEqual(state.apply(.clearDrawing, at: 0), .changed)
        XCTAssertGreaterThan(state.drawings.version, version)
        XCTAssertTrue(state.drawings.strokes(onSlide: 0).isEmpty)
        XCTAssertEqual(state.drawings.strokes(onSlide: 1).count, 1, "c clears this slide only")
        XCTAssertEqual(state.apply(.clearAllDrawings, at: 0), .changed)
        XCTAssertTrue(state.drawings.strokes.isEmpty)
        XCTAssertEqual(state.apply(.clearAllDrawings, at: 0), .unchanged)

        // A key that leaves the slide mid-line ends the line there; an
        // overlay's next step does not.
        state.drawings.begin(.pen, at: SlidePoint(x: 0.1, y: 0.1), slide: state.slide)
        XCTAssertEqual(state.page, 0)
        state.apply(.next, at: 0)
        XCTAssertTrue(state.drawings.isDrawing, "page 2 is the same slide")
        state.apply(.next, at: 0)
        XCTAssertFalse(state.drawings.isDrawing, "page 3 is another slide")
        XCTAssertNil(state.drawings.extend(to: SlidePoint(x: 0.5, y: 0.5)))
        XCTAssertEqual(state.drawings.strokes(onSlide: 0).map(\.points.count), [1])
    }

    /// The eraser keeps a line only where it reaches a drawn one, so
    /// rubbing an empty slide stores nothing; its reach is its half width
    /// plus the line's.
    func testTheEraserIsKeptOnlyWhereItReachesALine() {
        var d = SlideDrawings()
        d.aspect = 1
        XCTAssertNil(d.begin(.eraser, at: SlidePoint(x: 0.5, y: 0.5), slide: 0), "no lines: nothing erased")
        XCTAssertNil(d.extend(to: SlidePoint(x: 0.6, y: 0.5)))
        d.end()
        XCTAssertTrue(d.strokes(onSlide: 0).isEmpty)
        d.begin(.pen, at: SlidePoint(x: 0.1, y: 0.5), slide: 0)
        d.extend(to: SlidePoint(x: 0.9, y: 0.5))
        d.end()
        // Reach: (0.05 + 0.006) / 2 = 0.028 of the slide's height.
        let near = SlideStroke(tool: .eraser, points: [SlidePoint(x: 0.5, y: 0.527)])
        let far = SlideStroke(tool: .eraser, points: [SlidePoint(x: 0.5, y: 0.53)])
        XCTAssertTrue(d.erases(near, onSlide: 0))
        XCTAssertFalse(d.erases(far, onSlide: 0))
        XCTAssertFalse(d.erases(near, onSlide: 1), "another slide's lines")
        let crossing = SlideStroke(tool: .eraser, points: [SlidePoint(x: 0.5, y: 0.2), SlidePoint(x: 0.5, y: 0.8)])
        XCTAssertTrue(d.erases(crossing, onSlide: 0), "a path across the line, no point near it")
        // A press beside the line, then a drag onto it: kept from the press on.
        XCTAssertNil(d.begin(.eraser, at: SlidePoint(x: 0.5, y: 0.2), slide: 0))
        let segment = d.extend(to: SlidePoint(x: 0.5, y: 0.8))
        XCTAssertEqual(
            segment, InkSegment(tool: .eraser, from: SlidePoint(x: 0.5, y: 0.2), to: SlidePoint(x: 0.5, y: 0.8)))
        XCTAssertEqual(d.strokes(onSlide: 0).map(\.tool), [.pen, .eraser])
        // On a wide slide x counts by the slide's width over its height.
        d.aspect = 2
        let beside = SlideStroke(tool: .eraser, points: [SlidePoint(x: 0.915, y: 0.5)])
        XCTAssertFalse(d.erases(beside, onSlide: 0), "0.015 of the width is 0.03 of the height there")
        d.aspect = 1
        XCTAssertTrue(d.erases(beside, onSlide: 0), "on a square slide 0.015 past the line's end is within 0.028")
    }

    func testSegmentDistance() {
        func p(_ x: Double, _ y: Double) -> SlidePoint { SlidePoint(x: x, y: y) }
        XCTAssertEqual(
            SlideDrawings.distance((p(0, 0), p(1, 0)), (p(0.5, 0.2), p(0.5, 0.3)), aspect: 1), 0.2, accuracy: 1e-9)
        XCTAssertEqual(SlideDrawings.distance((p(0, 0), p(1, 1)), (p(0, 1), p(1, 0)), aspect: 1), 0, "crossing")
        XCTAssertEqual(
            SlideDrawings.distance((p(0, 0), p(0, 0)), (p(0.3, 0.4), p(0.3, 0.4)), aspect: 1), 0.5, accuracy: 1e-9)
    }

    /// A segment repaints its box widened by half the line and a pixel, at
    /// the slide's place on each view: letterboxed on a 4:3 screen, the
    /// console's small preview, a full HD screen.
    func testASegmentsDirtyRectOnViewsOfOtherSizes() {
        let segment = InkSegment(tool: .pen, from: SlidePoint(x: 0.25, y: 0.5), to: SlidePoint(x: 0.5, y: 0.5))
        let fourByThree = SlideFrame(
            slideWidth: 16, slideHeight: 9, in: ConsoleLayout.Rect(x: 0, y: 0, width: 1024, height: 768))
        XCTAssertEqual([fourByThree.x, fourByThree.y, fourByThree.width, fourByThree.height], [0, 96, 1024, 576])
        // Half the pen's 0.006 x 576 = 3.456 px, and a pixel.
        XCTAssertEqual(
            segment.dirtyRect(on: fourByThree), SceneRect(x: 253, y: 381, width: 262, height: 6),
            "x 256...512 and y 384 (below the 96-pixel bar), widened by 2.728 and rounded out")
        let hd = SlideFrame(
            slideWidth: 16, slideHeight: 9, in: ConsoleLayout.Rect(x: 0, y: 0, width: 1920, height: 1080))
        let r = segment.dirtyRect(on: hd)
        XCTAssertEqual(r, SceneRect(x: 475, y: 535, width: 490, height: 10))
        XCTAssertLessThan(r.area * 100, 1920 * 1080, "under 1 % of the screen")
        let preview = SlideFrame(
            slideWidth: 16, slideHeight: 9, in: ConsoleLayout.Rect(x: 21, y: 130, width: 360, height: 203))
        let small = segment.dirtyRect(on: preview)
        XCTAssertTrue(small.width >= 90 + 2 && small.height >= 2, "the 1.5-pixel minimum width: \(small)")
        // Stroke pixels land where the view maps the slide points.
        let ink = SlideStroke(tool: .pen, points: [segment.from, segment.to]).ink(on: fourByThree)
        XCTAssertEqual(ink.points, [InkStroke.Point(x: 256, y: 384), InkStroke.Point(x: 512, y: 384)])
        XCTAssertEqual(ink.width, 3.456, accuracy: 1e-9)
        XCTAssertFalse(ink.erases)
        let highlighter = SlideStroke(tool: .highlighter, points: [segment.from]).ink(on: hd)
        XCTAssertEqual(highlighter.opacity, 0.4)
        XCTAssertEqual(highlighter.color, RGBColor(hex: 0xffff00))
        XCTAssertTrue(SlideStroke(tool: .eraser, points: [segment.from]).ink(on: hd).erases)
    }
}
