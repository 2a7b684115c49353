import Foundation
import TestHarness
import XCTest

@testable import Signage

/// A panel's first item drawn too near the end of its slot is passed over,
/// so it never reaches the screen in the next item's slot (proof of play
/// would log two items in that second). A fresh CI machine showed a first
/// frame taking longer than the 100 ms once allowed.
final class LateFirstItemTests: ScreenplayTestCase {
    /// Three items of one second each, from 0.
    private static var schedule: PlaySchedule { PlaySchedule(durations: [1, 1, 1], origin: 0) }

    func testAFirstItemWithLessThanAQuarterSecondLeftIsLate() {
        MainActor.assumeIsolated { Self.checkAQuarterSecond() }
    }

    @MainActor private static func checkAQuarterSecond() {
        let schedule = Self.schedule
        let late = LateFirstItem()
        XCTAssertFalse(late.isLate(0, in: schedule, now: 0.70, refresh: 1 / 60.0), "0.30 s of its slot left")
        XCTAssertTrue(late.isLate(0, in: schedule, now: 0.80, refresh: 1 / 60.0), "0.20 s left: it would flash")
        XCTAssertTrue(late.isLate(1, in: schedule, now: 1.90, refresh: 1 / 60.0))
    }

    func testASlowRefreshNeedsThreeRefreshesOfItsSlot() {
        MainActor.assumeIsolated { Self.checkASlowRefresh() }
    }

    @MainActor private static func checkASlowRefresh() {
        let schedule = Self.schedule
        let late = LateFirstItem()
        // 5 Hz: three refreshes are 0.6 s.
        XCTAssertTrue(late.isLate(0, in: schedule, now: 0.5, refresh: 0.2))
        XCTAssertFalse(late.isLate(0, in: schedule, now: 0.3, refresh: 0.2))
    }

    func testAfterThreePassesTheItemShowsLateRatherThanNothing() {
        MainActor.assumeIsolated { Self.checkThreePasses() }
    }

    @MainActor private static func checkThreePasses() {
        let schedule = Self.schedule
        var late = LateFirstItem()
        for slot in 0..<3 {
            let now = Double(slot) + 0.9
            XCTAssertTrue(late.isLate(slot, in: schedule, now: now, refresh: 1 / 60.0))
            XCTAssertEqual(late.passOver(slot, in: schedule, now: now), Double(slot + 1))
        }
        XCTAssertFalse(late.isLate(0, in: schedule, now: 3.9, refresh: 1 / 60.0), "a box too slow for any slot")
    }

    func testAPassedOverSlotHoldsTheStartUntilItEnds() {
        MainActor.assumeIsolated { Self.checkAPassedOverSlotHoldsTheStartUntilItEnds() }
    }

    @MainActor private static func checkAPassedOverSlotHoldsTheStartUntilItEnds() {
        let schedule = Self.schedule
        var late = LateFirstItem()
        XCTAssertEqual(late.passOver(0, in: schedule, now: 0.9), 1)
        XCTAssertFalse(late.allowsStart(now: 0.95))
        XCTAssertEqual(late.wait(now: 0.95), 1)
        XCTAssertTrue(late.allowsStart(now: 1.0))
        XCTAssertNil(late.wait(now: 1.0))
    }
}
