import XCTest
import FrameTiming

final class FramePacerTests: XCTestCase {
    static let hz60: Int64 = 16_666_667
    static let hz144: Int64 = 6_944_444

    /// Feeds callbacks at the given refresh indices and returns the indices
    /// on which the pacer said to draw.
    func drawnRefreshes(_ pacer: inout FramePacer, refreshes: some Sequence<Int>, jitterNs: (Int) -> Int64 = { _ in 0 }) -> [Int] {
        var drawn: [Int] = []
        for index in refreshes {
            let ts = UInt64(1_000_000_000 + Int64(index) * pacer.refreshNs + jitterNs(index))
            if pacer.shouldDraw(atNs: ts) { drawn.append(index) }
        }
        return drawn
    }

    func testNativeRateDrawsEveryRefresh() {
        var pacer = FramePacer(refreshNs: Self.hz60)
        XCTAssertTrue(pacer.drawsEveryRefresh)
        XCTAssertEqual(pacer.frameInterval, 1)
        XCTAssertEqual(drawnRefreshes(&pacer, refreshes: 0..<10), Array(0..<10))
    }

    func testThirtyOnSixtyDrawsEveryOtherRefresh() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 30)
        XCTAssertEqual(pacer.frameInterval, 2, accuracy: 1e-6)
        XCTAssertEqual(drawnRefreshes(&pacer, refreshes: 0..<12), [0, 2, 4, 6, 8, 10])
        XCTAssertEqual(pacer.drawnFrames, 6)
        XCTAssertEqual(pacer.skippedCallbacks, 6)
    }

    func testThirtyOnSixtyWithTruncatedRefreshStillEveryOther() {
        // 60 Hz truncated instead of rounded: 30 * 16_666_666 < 1e9, which an
        // exact comparison would turn into a 3-refresh gap.
        var pacer = FramePacer(refreshNs: 16_666_666, preferredFramesPerSecond: 30)
        let drawn = drawnRefreshes(&pacer, refreshes: 0..<600)
        XCTAssertEqual(drawn, Array(stride(from: 0, to: 600, by: 2)))
    }

    func testTwentyFourOnSixtyIsThreeTwoPulldown() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 24)
        XCTAssertEqual(pacer.frameInterval, 2.5, accuracy: 1e-6)
        let drawn = drawnRefreshes(&pacer, refreshes: 0..<60)
        XCTAssertEqual(drawn.count, 24)
        let gaps = zip(drawn.dropFirst(), drawn).map { $0 - $1 }
        XCTAssertEqual(Set(gaps), [2, 3])
        // Alternating, never two long or two short gaps in a row.
        for (a, b) in zip(gaps, gaps.dropFirst()) { XCTAssertNotEqual(a, b, "\(gaps)") }
        // Over ten seconds the average stays exactly 24.
        var long = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 24)
        XCTAssertEqual(drawnRefreshes(&long, refreshes: 0..<600).count, 240)
    }

    func testRatesOn144Hz() {
        for (fps, expectedPerSecond) in [(0, 144), (144, 144), (200, 144), (72, 72), (60, 60), (30, 30), (24, 24), (48, 48)] {
            var pacer = FramePacer(refreshNs: Self.hz144, preferredFramesPerSecond: fps)
            // 10 s of callbacks; the first one always draws, so count 1440 callbacks.
            let drawn = drawnRefreshes(&pacer, refreshes: 0..<1440)
            XCTAssertEqual(drawn.count, expectedPerSecond * 10, "fps \(fps)")
        }
        let pacer = FramePacer(refreshNs: Self.hz144, preferredFramesPerSecond: 60)
        XCTAssertEqual(pacer.frameInterval, 2.4, accuracy: 1e-5)
        XCTAssertEqual(pacer.effectiveFramesPerSecond, 60, accuracy: 1e-3)
    }

    func testAboveRefreshRateMeansEveryRefresh() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 120)
        XCTAssertTrue(pacer.drawsEveryRefresh)
        XCTAssertEqual(pacer.frameInterval, 1)
        XCTAssertEqual(drawnRefreshes(&pacer, refreshes: 0..<5), [0, 1, 2, 3, 4])
        XCTAssertTrue(FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: Int.max).drawsEveryRefresh)
    }

    func testZeroAndNegativeInputsAreSanitised() {
        let pacer = FramePacer(refreshNs: 0, preferredFramesPerSecond: -3)
        XCTAssertEqual(pacer.refreshNs, 16_666_667)
        XCTAssertEqual(pacer.preferredFramesPerSecond, 0)
        XCTAssertTrue(pacer.drawsEveryRefresh)
    }

    func testJitteredCallbacksKeepTheCadence() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 30)
        // Up to ±4 ms of jitter (a quarter refresh) must not change anything.
        let drawn = drawnRefreshes(&pacer, refreshes: 0..<12, jitterNs: { $0 % 2 == 0 ? 4_000_000 : -4_000_000 })
        XCTAssertEqual(drawn, [0, 2, 4, 6, 8, 10])
    }

    func testSkippedCallbackDoesNotCauseCatchUp() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 30)
        // Refresh 2 never produced a callback: draw at 3, then keep a 2-refresh gap.
        let drawn = drawnRefreshes(&pacer, refreshes: [0, 1, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(drawn, [0, 3, 5, 7])
    }

    func testLongStallDrawsOnceThenResumesCadence() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 24)
        let drawn = drawnRefreshes(&pacer, refreshes: [0, 1, 2] + Array(100..<110))
        // One frame after the stall, then the normal 2/3 cadence: no burst.
        XCTAssertEqual(drawn.first, 0)
        let afterStall = drawn.filter { $0 >= 100 }
        XCTAssertEqual(afterStall.first, 100)
        let gaps = zip(afterStall.dropFirst(), afterStall).map { $0 - $1 }
        XCTAssertTrue(gaps.allSatisfy { $0 >= 2 }, "\(afterStall)")
        XCTAssertEqual(afterStall.count, 4) // 100, 102/103, 105, 107/108
    }

    func testLateCallbackInSixtyOnSixtyStillDrawsEveryCallback() {
        var pacer = FramePacer(refreshNs: Self.hz60)
        XCTAssertEqual(drawnRefreshes(&pacer, refreshes: [0, 1, 5, 6, 30]), [0, 1, 5, 6, 30])
    }

    func testCoarseOrBackwardsTimestampsCountAsOneRefresh() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 30)
        XCTAssertEqual(pacer.elapsedRefreshes(from: 100, to: 100), 1)
        XCTAssertEqual(pacer.elapsedRefreshes(from: 100, to: 50), 1)
        XCTAssertEqual(pacer.elapsedRefreshes(from: 0, to: 16_000_000), 1)
        XCTAssertEqual(pacer.elapsedRefreshes(from: 0, to: 40_000_000), 2)
        XCTAssertEqual(pacer.elapsedRefreshes(from: 0, to: UInt64.max), 1_000_000)
        XCTAssertTrue(pacer.shouldDraw(atNs: 1_000))
        XCTAssertFalse(pacer.shouldDraw(atNs: 1_000))
        XCTAssertTrue(pacer.shouldDraw(atNs: 900))
    }

    func testResetDrawsImmediately() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 30)
        XCTAssertTrue(pacer.shouldDraw(atNs: 0))
        XCTAssertFalse(pacer.shouldDraw(atNs: UInt64(Self.hz60)))
        pacer.reset()
        XCTAssertNil(pacer.lastCallbackNs)
        XCTAssertTrue(pacer.shouldDraw(atNs: UInt64(2 * Self.hz60) + 1))
    }

    func testChangingRates() {
        var pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 30)
        pacer.setRefresh(ns: Self.hz144)
        XCTAssertEqual(pacer.frameInterval, 4.8, accuracy: 1e-5)
        pacer.setRefresh(ns: -1)
        XCTAssertEqual(pacer.refreshNs, 16_666_667)
        pacer.setPreferredFramesPerSecond(0)
        XCTAssertTrue(pacer.drawsEveryRefresh)
    }

    func testTargetTimestamp() {
        let pacer = FramePacer(refreshNs: Self.hz60, preferredFramesPerSecond: 30)
        XCTAssertEqual(pacer.targetTimestamp(after: 1_000_000_000), 1_016_666_667)
        XCTAssertEqual(pacer.targetTimestamp(after: 1_000_000_000, nowNs: 1_020_000_000), 1_033_333_334)
        XCTAssertEqual(pacer.targetTimestamp(after: 1_000_000_000, nowNs: 900_000_000), 1_016_666_667)
    }
}
