import TestHarness
import XCTest

@testable import Presenter

/// What the presenter renders before it is asked: the room's page first,
/// then the pages the next keys show, never a page outside the document,
/// and the top bar's text from the talk's state.
final class RenderAheadTests: ScreenplayTestCase {
    func testTheAudiencePageComesFirstThenThePagesTheNextKeysShow() {
        var state = PresenterState(pageCount: 10)
        _ = state.apply(.goToPage(3), at: 0)
        let size = PixelSize(width: 640, height: 360)
        let keys = RenderAhead.keys(
            pages: RenderAhead.pages(state, pageCount: 10), sizes: [size], region: .whole, notesSize: nil,
            notesRegion: nil)
        XCTAssertEqual(keys.first, SlideKey(page: 3, size: size))
        XCTAssertEqual(keys.count, Set(keys).count, "each slide once: \(keys)")
        let pages = keys.map(\.page)
        for wanted in [4, 5, 2] { XCTAssertTrue(pages.contains(wanted), "page \(wanted + 1) ahead: \(pages)") }
        XCTAssertLessThan(pages.firstIndex(of: 4) ?? .max, pages.firstIndex(of: 2) ?? .max, "forward before back")

        // Frozen on page 4 while the speaker goes on: the room's page stays first.
        _ = state.apply(.toggleFreeze, at: 0)
        _ = state.apply(.next, at: 0)
        XCTAssertEqual(RenderAhead.pages(state, pageCount: 10).first, 3)
    }

    func testNothingOutsideTheDocumentAndNotesHalvesForBeamerPages() {
        var state = PresenterState(pageCount: 3)
        _ = state.apply(.last, at: 0)
        XCTAssertTrue(RenderAhead.pages(state, pageCount: 3).allSatisfy { (0..<3).contains($0) })
        let slide = PixelSize(width: 800, height: 450)
        let notes = PixelSize(width: 400, height: 450)
        let keys = RenderAhead.keys(
            pages: [2], sizes: [slide], region: .leftHalf, notesSize: notes, notesRegion: .rightHalf)
        XCTAssertEqual(
            keys,
            [SlideKey(page: 2, size: slide, region: .leftHalf), SlideKey(page: 2, size: notes, region: .rightHalf)])
    }

    func testOverviewThumbnailsGoOutwardsFromTheSelection() {
        var state = PresenterState(pageCount: 5)
        _ = state.apply(.goToPage(2), at: 0)
        XCTAssertEqual(RenderAhead.overviewOrder(state), [2, 3, 1, 4, 0])
    }

    func testTheTopBarSaysThePageTheTimerAndTheCountdown() {
        var state = PresenterState(pageCount: 4)
        let idle = ConsoleBar(
            state: state, pageCount: 4, timing: TalkTiming(target: .none), clock: nil, now: 0, date: Date())
        XCTAssertEqual(idle.page, "Page 1 / 4")
        XCTAssertFalse(idle.timerIsBig, "the timer waits for the first page change: \(idle.timer)")
        _ = state.apply(.next, at: 10)
        let timing = TalkTiming(target: .duration(60), lastMinutes: 0.5)
        let late = ConsoleBar(state: state, pageCount: 4, timing: timing, clock: "12:00:00", now: 50, date: Date())
        XCTAssertEqual(late.page, "Page 2 / 4")
        XCTAssertEqual(late.phase, "amber", "20 s left of a minute, amber from 30 s: \(late.timer)")
        XCTAssertEqual(late.clock, "12:00:00")
    }
}
