import Foundation
import TestHarness
import XCTest

@testable import Presenter

/// The audience waits up to the grace for its page, then shows the
/// placeholder once, and never redraws for a page that came in time.
final class PlaceholderDelayTests: ScreenplayTestCase {
    private static let key = SlideKey(page: 0, size: PixelSize(width: 1280, height: 720))

    // XCTest runs tests on the main thread.
    func testAPageThatComesInTimeIsTheOnlyDraw() throws { MainActor.assumeIsolated { Self.pageInTime() } }

    func testASlowPageGetsThePlaceholderAfterTheGrace() throws { MainActor.assumeIsolated { Self.slowPage() } }

    @MainActor
    private static func pageInTime() {
        let delay = PlaceholderDelay()
        var redraws = 0
        XCTAssertFalse(delay.mayDraw(key, isRendered: false, nowNs: 1_000) { redraws += 1 }, "waits for the page")
        XCTAssertFalse(
            delay.mayDraw(key, isRendered: false, nowNs: 1_000 + PlaceholderDelay.graceNs / 2) { redraws += 1 },
            "another size arriving within the grace draws nothing")
        XCTAssertTrue(delay.mayDraw(key, isRendered: true, nowNs: 2_000) { redraws += 1 }, "the page draws")
        XCTAssertNil(delay.waitedMs(nowNs: 3_000), "the page itself was not a placeholder")
        // The grace timer has passed by now; the page came first, so it asks for nothing.
        RunLoop.main.run(until: Date().addingTimeInterval(Double(PlaceholderDelay.graceNs) / 1e9 + 0.15))
        XCTAssertEqual(redraws, 0, "no redraw for a page that came in time")
    }

    @MainActor
    private static func slowPage() {
        let delay = PlaceholderDelay()
        var redraws = 0
        let start = monotonicNanosecondsForTests()
        XCTAssertFalse(delay.mayDraw(key, isRendered: false, nowNs: start) { redraws += 1 })
        RunLoop.main.run(until: Date().addingTimeInterval(Double(PlaceholderDelay.graceNs) / 1e9 + 0.15))
        XCTAssertEqual(redraws, 1, "one redraw when the grace is over")
        let now = start + PlaceholderDelay.graceNs
        XCTAssertTrue(delay.mayDraw(key, isRendered: false, nowNs: now) { redraws += 1 }, "the placeholder draws")
        XCTAssertEqual(delay.waitedMs(nowNs: now), Int(PlaceholderDelay.graceNs / 1_000_000))
        XCTAssertTrue(delay.mayDraw(key, isRendered: true, nowNs: now + 1) { redraws += 1 }, "then the page")
        XCTAssertTrue(delay.mayDraw(nil, isRendered: true, nowNs: now + 2) { redraws += 1 }, "black waits for nothing")
        XCTAssertEqual(redraws, 1)
    }

    private static func monotonicNanosecondsForTests() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
