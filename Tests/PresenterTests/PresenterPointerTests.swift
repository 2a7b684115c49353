import TestHarness
import XCTest

@testable import Presenter

/// The presenter's pointer without a compositor: its keys and modes, the
/// mapping from the console's slide view to a slide point and on to a pixel
/// of a differently shaped audience screen, and the once-per-refresh limit.
final class PresenterPointerTests: ScreenplayTestCase {
    func testLAndHToggleThePointerAndTheSpotlightAndDotStaysBlack() {
        XCTAssertEqual(PresenterKeys.action(keysym: "l", text: "l"), .togglePointer)
        XCTAssertEqual(PresenterKeys.action(keysym: "L", text: "L", shift: true), .togglePointer)
        XCTAssertEqual(PresenterKeys.action(keysym: "h", text: "h"), .toggleSpotlight)
        XCTAssertEqual(PresenterKeys.action(keysym: "period", text: "."), .toggleBlack, "the clickers' black key")
        XCTAssertEqual(PresenterKeys.action(keysym: "l", text: "l", overview: true), .togglePointer)

        var state = PresenterState(pageCount: 3)
        XCTAssertEqual(state.pointerMode, .off, "off until asked for, as in pdfpc")
        XCTAssertEqual(state.apply(.togglePointer, at: 0), .changed)
        XCTAssertEqual(state.pointerMode, .pointer)
        state.apply(.toggleSpotlight, at: 0)
        XCTAssertEqual(state.pointerMode, .spotlight, "the modes are exclusive: h replaces the dot")
        state.apply(.toggleSpotlight, at: 0)
        XCTAssertEqual(state.pointerMode, .off)
        state.apply(.togglePointer, at: 0)
        state.apply(.togglePointer, at: 0)
        XCTAssertEqual(state.pointerMode, .off, "l twice: off again")
        XCTAssertEqual(state.page, 0, "no page change")
        XCTAssertFalse(state.timer.hasStarted, "pointing starts no timer")

        // In the overview the keys act as always.
        state.apply(.toggleOverview, at: 0)
        XCTAssertEqual(state.apply(.togglePointer, at: 0), .changed)
        XCTAssertEqual(state.pointerMode, .pointer)
        XCTAssertTrue(state.isOverviewShown, "the grid stays up")
    }

    func testTheAudienceSeesThePointerOnlyOverTheConsolesSlide() {
        var state = PresenterState(pageCount: 3)
        XCTAssertFalse(state.audienceSeesPointer, "off")
        state.apply(.togglePointer, at: 0)
        XCTAssertTrue(state.audienceSeesPointer)
        state.apply(.toggleBlack, at: 0)
        XCTAssertFalse(state.audienceSeesPointer, "not over black")
        state.apply(.toggleBlack, at: 0)
        state.apply(.toggleWhite, at: 0)
        XCTAssertFalse(state.audienceSeesPointer, "not over white")
        state.apply(.toggleWhite, at: 0)
        state.apply(.toggleFreeze, at: 0)
        XCTAssertFalse(state.audienceSeesPointer, "a frozen audience view stays as it was")
        state.apply(.toggleFreeze, at: 0)
        XCTAssertTrue(state.audienceSeesPointer)
    }

    /// The console's 16:9 view of a 4:3 slide has bars left and right; the
    /// audience's 1920x1080 screen shows the same slide pillarboxed and a
    /// 1024x768 one edge to edge: one slide point, the same place on each.
    func testConsolePointMapsThroughTheSlideToEveryAudienceScreen() throws {
        let slide = (width: 800.0, height: 600.0)
        let view = ConsoleLayout.Rect(x: 20, y: 100, width: 640, height: 360)
        let console = SlideFrame(slideWidth: slide.width, slideHeight: slide.height, in: view)
        XCTAssertEqual([console.x, console.y, console.width, console.height], [20 + 80, 100, 480, 360])

        XCTAssertNil(console.point(atX: 90, y: 200), "in the left bar: no point")
        XCTAssertNil(console.point(atX: 300, y: 470), "below the view")
        let point = try XCTUnwrap(console.point(atX: 100 + 120, y: 100 + 270))
        XCTAssertEqual(point.x, 0.25, accuracy: 1e-9)
        XCTAssertEqual(point.y, 0.75, accuracy: 1e-9)
        let corner = try XCTUnwrap(console.point(atX: 100, y: 100))
        XCTAssertEqual([corner.x, corner.y], [0, 0], "the slide's top-left corner")

        let wide = SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height,
            in: ConsoleLayout.Rect(x: 0, y: 0, width: 1920, height: 1080))
        XCTAssertEqual([wide.x, wide.width], [240, 1440], "pillarboxed")
        let onWide = wide.position(of: point)
        XCTAssertEqual(onWide.x, 240 + 360, accuracy: 1e-9)
        XCTAssertEqual(onWide.y, 810, accuracy: 1e-9)

        let square = SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height,
            in: ConsoleLayout.Rect(x: 0, y: 0, width: 1024, height: 768))
        let onSquare = square.position(of: point)
        XCTAssertEqual(onSquare.x, 256, accuracy: 1e-9)
        XCTAssertEqual(onSquare.y, 576, accuracy: 1e-9)

        // A 16:9 slide on a 4:3 screen: letterboxed, bars above and below.
        let letterboxed = SlideFrame(
            slideWidth: 960, slideHeight: 540, in: ConsoleLayout.Rect(x: 0, y: 0, width: 1024, height: 768))
        XCTAssertEqual([letterboxed.y, letterboxed.height], [96, 576])
        let p = letterboxed.position(of: SlidePoint(x: 0.25, y: 0.25))
        XCTAssertEqual(p.x, 256, accuracy: 1e-9)
        XCTAssertEqual(p.y, 96 + 144, accuracy: 1e-9)
        XCTAssertNil(letterboxed.point(atX: 500, y: 50), "in the top bar")
    }

    func testPointerRedrawsWaitForTheRestOfTheRefresh() {
        let refresh: UInt64 = 16_666_667
        XCTAssertEqual(RefreshThrottle.delayNs(nowNs: 1_000, lastNs: nil, refreshNs: refresh), 0, "the first at once")
        XCTAssertEqual(
            RefreshThrottle.delayNs(nowNs: 5_000_000, lastNs: 1_000_000, refreshNs: refresh), refresh - 4_000_000,
            "4 ms after the last one: wait for the rest of the refresh")
        XCTAssertEqual(
            RefreshThrottle.delayNs(nowNs: 1_000_000 + refresh, lastNs: 1_000_000, refreshNs: refresh), 0,
            "a refresh later: at once")
        XCTAssertEqual(RefreshThrottle.delayNs(nowNs: 1, lastNs: 2, refreshNs: refresh), 0, "a clock going back")
    }

    /// pdfpc's spotlight stays where the pointer left the slide; the dot goes with it.
    func testSpotlightStaysWhereThePointerLeftTheSlide() {
        var tracker = PointerTracker()
        XCTAssertNil(tracker.drawing(.spotlight), "nowhere yet")
        tracker.moved(to: SlidePoint(x: 0.25, y: 0.5))
        tracker.moved(to: nil)
        XCTAssertNil(tracker.drawing(.pointer), "the dot leaves with the pointer")
        XCTAssertEqual(
            tracker.drawing(.spotlight), PointerDrawing(mode: .spotlight, point: SlidePoint(x: 0.25, y: 0.5)))
        XCTAssertNil(tracker.drawing(.pen), "drawing modes show no pointer")
    }
}
