import FrameTiming
import TestHarness
import XCTest

final class CadenceTests: ScreenplayTestCase {
    let refresh: Int64 = 16_666_667

    /// Simulates a compositor calling back at uneven times after each
    /// commit, and a timer after skipped refreshes; counts drawn frames.
    private func framesPerSecond(fps: Int, jitterNs: (Int) -> UInt64) -> Double {
        var c = Cadence(refreshNs: refresh, preferredFramesPerSecond: fps)
        var now: UInt64 = 1_000_000_000
        var drawn = 0
        let end = now + 10_000_000_000
        var i = 0
        while now < end {
            if c.shouldDraw(targetNs: now) {
                drawn += 1
                now += UInt64(refresh) / 3 + jitterNs(i)  // callback soon after the commit
            } else {
                now += c.retryDelayNs(nowNs: now)
            }
            i += 1
        }
        return Double(drawn) / 10
    }

    func testThirtyOnSixtyWithEarlyCallbacks() {
        XCTAssertEqual(framesPerSecond(fps: 30) { _ in 0 }, 30, accuracy: 0.5)
        XCTAssertEqual(framesPerSecond(fps: 30) { UInt64(($0 * 7919) % 5_000_000) }, 30, accuracy: 0.5)
    }

    func testTwentyFourAndTen() {
        XCTAssertEqual(framesPerSecond(fps: 24) { _ in 0 }, 24, accuracy: 0.5)
        XCTAssertEqual(framesPerSecond(fps: 10) { _ in 0 }, 10, accuracy: 0.5)
    }

    func testAtOrAboveRefreshDrawsEveryTime() {
        var c = Cadence(refreshNs: refresh, preferredFramesPerSecond: 60)
        XCTAssertNil(c.frameIntervalNs)
        XCTAssertTrue(c.shouldDraw(targetNs: 1))
        XCTAssertTrue(c.shouldDraw(targetNs: 2))
        var zero = Cadence(refreshNs: refresh, preferredFramesPerSecond: 0)
        XCTAssertTrue(zero.shouldDraw(targetNs: 5))
    }

    func testLateFrameRestartsWithoutBurst() {
        var c = Cadence(refreshNs: refresh, preferredFramesPerSecond: 30)
        XCTAssertTrue(c.shouldDraw(targetNs: 0))
        // A stall of a second, then callbacks every refresh: no catch-up burst.
        XCTAssertTrue(c.shouldDraw(targetNs: 1_000_000_000))
        XCTAssertFalse(c.shouldDraw(targetNs: 1_000_000_000 + UInt64(refresh)))
        XCTAssertTrue(c.shouldDraw(targetNs: 1_000_000_000 + 2 * UInt64(refresh)))
    }
}
