import FrameTiming
import TestHarness
import XCTest

final class RefreshRateTests: ScreenplayTestCase {
    func testPresentationRefreshWins() {
        let rate = RefreshRate.resolve(presentationRefreshNs: 6_944_444, modeRefreshMilliHz: 60_000)
        XCTAssertEqual(rate, RefreshRate(durationNs: 6_944_444, source: .presentation))
        XCTAssertEqual(rate.hertz, 144.0, accuracy: 0.001)
    }

    func testZeroPresentationRefreshFallsBackToMode() {
        let rate = RefreshRate.resolve(presentationRefreshNs: 0, modeRefreshMilliHz: 59_940)
        XCTAssertEqual(rate.source, .outputMode)
        XCTAssertEqual(rate.durationNs, 16_683_350)
    }

    func testModeRefreshIsRoundedToNearestNanosecond() {
        for (mHz, ns) in [(60_000, 16_666_667), (144_000, 6_944_444), (1_000, 1_000_000_000), (1_000_000, 1_000_000)] {
            let rate = RefreshRate.resolve(presentationRefreshNs: nil, modeRefreshMilliHz: Int32(mHz))
            XCTAssertEqual(rate.durationNs, Int64(ns), "\(mHz) mHz")
            XCTAssertEqual(rate.source, .outputMode, "\(mHz) mHz")
        }
    }

    func testEverythingZeroOrMissingFallsBackTo60Hz() {
        for (presentation, mode) in [(UInt64?.none, Int32?.none), (0, 0), (nil, 0), (0, nil)] {
            let rate = RefreshRate.resolve(presentationRefreshNs: presentation, modeRefreshMilliHz: mode)
            XCTAssertEqual(
                rate, RefreshRate(durationNs: 16_666_667, source: .fallback),
                "\(String(describing: presentation)) \(String(describing: mode))")
        }
    }

    func testAbsurdValuesAreRejected() {
        let cases: [(UInt64?, Int32?, Int64, RefreshSource)] = [
            (1, nil, 16_666_667, .fallback),  // 1 GHz presentation refresh
            (999_999, nil, 16_666_667, .fallback),  // just above 1000 Hz
            (1_000_000_001, nil, 16_666_667, .fallback),  // just below 1 Hz
            (UInt64.max, nil, 16_666_667, .fallback),
            (nil, 999, 16_666_667, .fallback),  // 0.999 Hz
            (nil, 1_000_001, 16_666_667, .fallback),  // 1000.001 Hz
            (nil, -60_000, 16_666_667, .fallback),
            (nil, Int32.max, 16_666_667, .fallback),
            (UInt64.max, 75_000, 13_333_333, .outputMode),  // bad feedback, good mode
            (1_000_000, nil, 1_000_000, .presentation),  // exactly 1000 Hz
            (1_000_000_000, nil, 1_000_000_000, .presentation),  // exactly 1 Hz
        ]
        for (presentation, mode, expectedNs, expectedSource) in cases {
            let rate = RefreshRate.resolve(presentationRefreshNs: presentation, modeRefreshMilliHz: mode)
            XCTAssertEqual(
                rate.durationNs, expectedNs, "\(String(describing: presentation)) \(String(describing: mode))")
            XCTAssertEqual(
                rate.source, expectedSource, "\(String(describing: presentation)) \(String(describing: mode))")
        }
    }

    func testNonPositiveDurationIsReplacedByFallback() {
        XCTAssertEqual(
            RefreshRate(durationNs: 0, source: .presentation), RefreshRate(durationNs: 16_666_667, source: .fallback))
        XCTAssertEqual(RefreshRate(durationNs: -5, source: .outputMode).source, .fallback)
    }

    func testDescription() {
        XCTAssertEqual(RefreshRate(durationNs: 16_683_350, source: .outputMode).description, "59.94 Hz (outputMode)")
    }

    func testVBlankGrid() {
        XCTAssertEqual(VBlankGrid.next(after: 1_000, periodNs: 100), 1_100)
        XCTAssertEqual(VBlankGrid.next(after: 1_000, periodNs: 100, nowNs: 500), 1_100)
        XCTAssertEqual(VBlankGrid.next(after: 1_000, periodNs: 100, nowNs: 1_000), 1_100)
        XCTAssertEqual(VBlankGrid.next(after: 1_000, periodNs: 100, nowNs: 1_099), 1_100)
        XCTAssertEqual(VBlankGrid.next(after: 1_000, periodNs: 100, nowNs: 1_100), 1_200)
        XCTAssertEqual(VBlankGrid.next(after: 1_000, periodNs: 100, nowNs: 1_350), 1_400)
        XCTAssertEqual(VBlankGrid.next(after: 1_000, periodNs: 0), 1_001)
        XCTAssertEqual(VBlankGrid.next(after: UInt64.max - 10, periodNs: 100), UInt64.max)
    }
}
