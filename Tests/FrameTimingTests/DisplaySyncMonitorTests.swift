import FrameTiming
import TestHarness
import XCTest

final class DisplaySyncMonitorTests: ScreenplayTestCase {
    private let refresh: UInt64 = 16_666_667

    /// Feeds `count` refreshes from `startNs`, each `step` refreshes after
    /// the last, with a picture where `picture(i)` says; returns whether any
    /// refresh made the monitor give up on display sync.
    private func feed(
        _ monitor: inout DisplaySyncMonitor, from startNs: UInt64, count: Int, step: UInt64 = 1,
        jitterNs: (Int) -> Int64 = { _ in 0 }, picture: (Int) -> Bool
    ) -> (gaveUp: Bool, endNs: UInt64) {
        var gaveUp = false
        var now = startNs
        for i in 0..<count {
            let at = UInt64(Int64(now) + jitterNs(i))
            if monitor.refresh(nowNs: at, refreshNs: refresh, handedOver: picture(i)) { gaveUp = true }
            now += step * refresh
        }
        return (gaveUp, now)
    }

    func testAPictureAtEveryRefreshKeepsDisplaySyncEvenWithJitteryCallbacks() {
        var monitor = DisplaySyncMonitor()
        // Callbacks arriving up to 6 ms early or late round to the right refresh.
        let result = feed(&monitor, from: 1_000_000_000, count: 1200, jitterNs: { Int64($0 % 3 - 1) * 6_000_000 }) {
            _ in
            true
        }
        XCTAssertFalse(result.gaveUp)
        // A window's first and last callbacks 6 ms early and late can add
        // up to more than half a refresh: at most one is miscounted.
        XCTAssertLessThanOrEqual(monitor.lastLost, 1)
    }

    func testOneRefreshInFiveWithoutAPictureGivesUp() {
        var monitor = DisplaySyncMonitor()
        let result = feed(&monitor, from: 1_000_000_000, count: 240) { $0 % 5 != 4 }
        XCTAssertTrue(result.gaveUp)
        XCTAssertGreaterThan(monitor.lastLost, monitor.lostLimit)
    }

    /// A frame that takes longer than a refresh to draw: its refresh comes
    /// one late, and the refresh in between is lost though every callback
    /// handed a picture over.
    func testRefreshesSkippedByLongDrawsCountAsLost() {
        var monitor = DisplaySyncMonitor()
        var now: UInt64 = 1_000_000_000
        var gaveUp = false
        for i in 0..<200 {
            if monitor.refresh(nowNs: now, refreshNs: refresh, handedOver: true) { gaveUp = true }
            now += (i % 4 == 3 ? 2 : 1) * refresh
        }
        XCTAssertTrue(gaveUp)
    }

    /// A loop seam where mpv needs a couple of refreshes to seek back is
    /// well inside the limit.
    func testAFewWaitsAtALoopSeamAreTolerated() {
        var monitor = DisplaySyncMonitor()
        let result = feed(&monitor, from: 1_000_000_000, count: 2400) { $0 % 180 < 3 ? false : true }
        XCTAssertFalse(result.gaveUp)
    }

    func testStartUpAndPausesAreNotLosses() {
        var monitor = DisplaySyncMonitor()
        // Two seconds of waiting for the first decoded frame.
        var result = feed(&monitor, from: 1_000_000_000, count: 120) { _ in false }
        XCTAssertFalse(result.gaveUp)
        result = feed(&monitor, from: result.endNs, count: 100) { _ in true }
        XCTAssertFalse(result.gaveUp)
        // The link stopped for ten seconds (output off), then goes on.
        result = feed(&monitor, from: result.endNs + 10_000_000_000, count: 300) { _ in true }
        XCTAssertFalse(result.gaveUp)
        XCTAssertEqual(monitor.lastLost, 0)
    }

    func testResetStartsAWindowAfresh() {
        var monitor = DisplaySyncMonitor()
        var result = feed(&monitor, from: 1_000_000_000, count: 100) { $0 % 2 == 0 }
        XCTAssertFalse(result.gaveUp, "the window is not complete yet")
        monitor.reset()
        result = feed(&monitor, from: result.endNs, count: 240) { _ in true }
        XCTAssertFalse(result.gaveUp)
    }
}
