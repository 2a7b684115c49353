import FrameTiming
import TestHarness
import XCTest

final class StallDetectorTests: ScreenplayTestCase {
    func testThresholdIsMaxOfFourRefreshesAnd250ms() {
        XCTAssertEqual(StallDetector.thresholdNs(refreshNs: 16_666_667), 250_000_000)
        XCTAssertEqual(StallDetector.thresholdNs(refreshNs: 6_944_444), 250_000_000)
        XCTAssertEqual(StallDetector.thresholdNs(refreshNs: 100_000_000), 400_000_000)  // 10 Hz
        XCTAssertEqual(StallDetector.thresholdNs(refreshNs: 1_000_000_000), 4_000_000_000)  // 1 Hz
        XCTAssertEqual(StallDetector.thresholdNs(refreshNs: 0), 250_000_000)
        XCTAssertEqual(StallDetector.thresholdNs(refreshNs: Int64.max), UInt64.max)
    }

    func testStaticCheck() {
        XCTAssertFalse(
            StallDetector.isStalled(lastCallbackNs: 1_000_000_000, refreshNs: 16_666_667, nowNs: 1_249_999_999))
        XCTAssertTrue(
            StallDetector.isStalled(lastCallbackNs: 1_000_000_000, refreshNs: 16_666_667, nowNs: 1_250_000_000))
        XCTAssertFalse(StallDetector.isStalled(lastCallbackNs: 1_000_000_000, refreshNs: 16_666_667, nowNs: 10))
        XCTAssertFalse(StallDetector.isStalled(lastCallbackNs: 0, refreshNs: 500_000_000, nowNs: 1_999_999_999))
        XCTAssertTrue(StallDetector.isStalled(lastCallbackNs: 0, refreshNs: 500_000_000, nowNs: 2_000_000_000))
    }

    func testNeverTickingLinkIsReportedOnceAndResumes() {
        var detector = StallDetector(refreshNs: 16_666_667, startNs: 1_000_000_000)
        XCTAssertNil(detector.poll(nowNs: 1_100_000_000))
        XCTAssertEqual(detector.poll(nowNs: 1_300_000_000), .stalled)
        XCTAssertTrue(detector.isStalledReported)
        XCTAssertEqual(detector.stalledDurationNs(nowNs: 1_300_000_000), 300_000_000)
        XCTAssertNil(detector.poll(nowNs: 2_000_000_000), "reported only once")
        XCTAssertEqual(detector.frameCallback(atNs: 2_100_000_000), .resumed)
        XCTAssertFalse(detector.isStalled(nowNs: 2_200_000_000))
        XCTAssertNil(detector.stalledDurationNs(nowNs: 2_200_000_000))
        XCTAssertNil(detector.frameCallback(atNs: 2_116_666_667))
        XCTAssertEqual(detector.poll(nowNs: 2_400_000_000), .stalled)
    }

    func testRegularCallbacksNeverStall() {
        var detector = StallDetector(refreshNs: 16_666_667, startNs: 0)
        for i in 1...600 {
            let now = UInt64(i) * 16_666_667
            XCTAssertNil(detector.frameCallback(atNs: now))
            XCTAssertNil(detector.poll(nowNs: now + 10_000_000))
        }
    }

    func testOutOfOrderCallbackDoesNotMoveBackwards() {
        var detector = StallDetector(refreshNs: 16_666_667, startNs: 1_000)
        _ = detector.frameCallback(atNs: 500)
        XCTAssertEqual(detector.lastCallbackNs, 1_000)
    }

    func testRefreshChangeMovesThreshold() {
        var detector = StallDetector(refreshNs: 16_666_667, startNs: 0)
        detector.setRefresh(ns: 200_000_000)
        XCTAssertEqual(detector.thresholdNs, 800_000_000)
        XCTAssertFalse(detector.isStalled(nowNs: 500_000_000))
        detector.setRefresh(ns: 0)
        XCTAssertEqual(detector.refreshNs, 16_666_667)
    }
}
