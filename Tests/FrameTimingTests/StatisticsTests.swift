import FrameTiming
import TestHarness
import XCTest

final class StatisticsTests: ScreenplayTestCase {
    let oneToTen: [Double] = [7, 1, 10, 3, 5, 2, 9, 4, 8, 6]

    func testEmptyInput() {
        XCTAssertNil(Statistics.mean([]))
        XCTAssertNil(Statistics.median([]))
        XCTAssertNil(Statistics.percentile([], 95))
        XCTAssertNil(Statistics.min([]))
        XCTAssertNil(Statistics.max([]))
        XCTAssertNil(Statistics.summary([.nan, .infinity]))
        XCTAssertEqual(Statistics.histogram([], bucketWidth: 1), [])
    }

    func testMeanMedianMinMax() {
        XCTAssertEqual(Statistics.mean(oneToTen), 5.5)
        XCTAssertEqual(Statistics.median(oneToTen), 5.5)
        XCTAssertEqual(Statistics.median([3, 1, 2]), 2)
        XCTAssertEqual(Statistics.median([42]), 42)
        XCTAssertEqual(Statistics.min(oneToTen), 1)
        XCTAssertEqual(Statistics.max(oneToTen), 10)
        XCTAssertEqual(Statistics.standardDeviation([2, 4, 4, 4, 5, 5, 7, 9]), 2)
    }

    func testLinearPercentileMatchesNumPy() {
        // numpy.percentile(range(1, 11), p) for p = 0, 25, 50, 90, 95, 100.
        let expected: [(Double, Double)] = [(0, 1), (25, 3.25), (50, 5.5), (90, 9.1), (95, 9.55), (100, 10)]
        for (p, value) in expected {
            XCTAssertEqual(Statistics.percentile(oneToTen, p) ?? .nan, value, accuracy: 1e-12, "p\(p)")
        }
    }

    func testNearestRankPercentile() {
        // Wikipedia's nearest-rank example: 15, 20, 35, 40, 50.
        let data: [Double] = [50, 15, 40, 20, 35]
        let expected: [(Double, Double)] = [(0, 15), (5, 15), (30, 20), (40, 20), (50, 35), (95, 50), (100, 50)]
        for (p, value) in expected {
            XCTAssertEqual(Statistics.percentile(data, p, method: .nearestRank), value, "p\(p)")
        }
        XCTAssertEqual(Statistics.percentile(oneToTen, 95, method: .nearestRank), 10)
        XCTAssertEqual(Statistics.percentile(oneToTen, 90, method: .nearestRank), 9)
    }

    func testPercentileClampsAndIgnoresNonFinite() {
        XCTAssertEqual(Statistics.percentile(oneToTen, -5), 1)
        XCTAssertEqual(Statistics.percentile(oneToTen, 250), 10)
        XCTAssertNil(Statistics.percentile(oneToTen, .nan))
        XCTAssertEqual(Statistics.median([1, .nan, 3, .infinity, -.infinity]), 2)
        XCTAssertEqual(Statistics.mean([1, .nan, 3]), 2)
    }

    func testSummary() throws {
        let summary = try XCTUnwrap(Statistics.summary(oneToTen))
        XCTAssertEqual(summary.count, 10)
        XCTAssertEqual(summary.mean, 5.5)
        XCTAssertEqual(summary.median, 5.5)
        XCTAssertEqual(summary.p95, 9.55, accuracy: 1e-12)
        XCTAssertEqual(summary.p99, 9.91, accuracy: 1e-12)
        XCTAssertEqual(summary.min, 1)
        XCTAssertEqual(summary.max, 10)
        XCTAssertEqual(summary.standardDeviation, 8.25.squareRoot(), accuracy: 1e-12)
    }

    func testHistogram() {
        let values: [Double] = [16.6, 16.7, 16.8, 33.3, 16.5, 100, -1, .nan]
        XCTAssertEqual(
            Statistics.histogram(values, bucketWidth: 1),
            [
                HistogramBucket(lowerBound: -1, upperBound: 0, count: 1),
                HistogramBucket(lowerBound: 16, upperBound: 17, count: 4),
                HistogramBucket(lowerBound: 33, upperBound: 34, count: 1),
                HistogramBucket(lowerBound: 100, upperBound: 101, count: 1),
            ])
        XCTAssertEqual(
            Statistics.histogram([0.5, 1.5, 2.5], bucketWidth: 2, origin: 0.5),
            [
                HistogramBucket(lowerBound: 0.5, upperBound: 2.5, count: 2),
                HistogramBucket(lowerBound: 2.5, upperBound: 4.5, count: 1),
            ])
        XCTAssertEqual(Statistics.histogram([1, 2], bucketWidth: 0), [])
        XCTAssertEqual(Statistics.histogram([1, 2], bucketWidth: -1), [])
        XCTAssertEqual(Statistics.histogram([1e300], bucketWidth: 1e-300), [])
    }
}
