import FrameTiming
import TestHarness
import XCTest

final class PresentationHistoryTests: ScreenplayTestCase {
    static let refresh: UInt64 = 16_666_667

    func testEmptyHistory() {
        var history = PresentationHistory()
        XCTAssertNil(history.lastPresentationNs)
        XCTAssertNil(history.predictedNextPresentationNs())
        XCTAssertNil(history.measuredFramesPerSecond())
        XCTAssertNil(history.refreshNs)
        XCTAssertEqual(history.intervalsNs, [])
        XCTAssertEqual(
            history.drainWindow(nowNs: 5), FrameWindow(presented: 0, discarded: 0, refreshNs: nil, windowSeconds: 0))
    }

    func testSteadySixtyHertz() {
        var history = PresentationHistory()
        for i in 0...60 {
            history.presented(
                timestampNs: 1_000_000_000 + UInt64(i) * Self.refresh, refreshNs: Self.refresh,
                sequence: 500 + UInt64(i))
        }
        XCTAssertEqual(history.lastPresentationNs, 1_000_000_000 + 60 * Self.refresh)
        XCTAssertEqual(history.lastSequence, 560)
        XCTAssertEqual(history.refreshNs, Int64(Self.refresh))
        XCTAssertEqual(history.measuredRefreshNs, Int64(Self.refresh))
        XCTAssertEqual(history.predictedNextPresentationNs(), 1_000_000_000 + 61 * Self.refresh)
        XCTAssertEqual(
            history.predictedNextPresentationNs(nowNs: 1_000_000_000 + 62 * Self.refresh + 5),
            1_000_000_000 + 63 * Self.refresh)
        XCTAssertEqual(history.measuredFramesPerSecond() ?? 0, 60, accuracy: 0.01)
        XCTAssertEqual(history.intervalsNs.count, 60)
        XCTAssertTrue(history.intervalsNs.allSatisfy { $0 == Self.refresh })
        XCTAssertEqual(history.skippedRefreshes, 0)
        XCTAssertEqual(history.totalPresented, 61)
    }

    func testMeasuredRefreshFromSequenceWhenReportedRefreshIsZero() {
        // mpv-style: (ust, msc) pairs give the vblank period even with VRR /
        // unknown refresh, and gaps in the sequence count skipped vblanks.
        var history = PresentationHistory()
        history.presented(timestampNs: 1_000_000_000, refreshNs: 0, sequence: 10)
        XCTAssertNil(history.refreshNs)
        history.presented(timestampNs: 1_000_000_000 + 3 * 6_944_444, refreshNs: 0, sequence: 13)
        XCTAssertEqual(history.measuredRefreshNs, 6_944_444)
        XCTAssertEqual(history.refreshNs, 6_944_444)
        XCTAssertEqual(history.skippedRefreshes, 2)
        XCTAssertEqual(history.predictedNextPresentationNs(), 1_000_000_000 + 4 * 6_944_444)
    }

    func testNoSequenceMeansNoMeasuredRefresh() {
        var history = PresentationHistory()
        history.presented(timestampNs: 100, refreshNs: 0, sequence: nil)
        history.presented(timestampNs: 200, refreshNs: 0, sequence: nil)
        XCTAssertNil(history.measuredRefreshNs)
        XCTAssertNil(history.predictedNextPresentationNs())
        XCTAssertEqual(history.intervalsNs, [100])
    }

    func testAbsurdReportedRefreshIsIgnored() {
        var history = PresentationHistory()
        history.presented(timestampNs: 1_000, refreshNs: 3, sequence: nil)
        XCTAssertNil(history.refreshNs)
    }

    func testZeroAndNonAdvancingTimestampsCountButAreNotTimed() {
        var history = PresentationHistory()
        history.presented(timestampNs: 0, refreshNs: Self.refresh, sequence: nil)
        history.presented(timestampNs: 1_000, refreshNs: Self.refresh, sequence: nil)
        history.presented(timestampNs: 1_000, refreshNs: Self.refresh, sequence: nil)
        history.presented(timestampNs: 900, refreshNs: Self.refresh, sequence: nil)
        XCTAssertEqual(history.totalPresented, 4)
        XCTAssertEqual(history.presentations.count, 1)
        XCTAssertEqual(history.intervalsNs, [])
    }

    func testRingBufferBoundsMemory() {
        var history = PresentationHistory(capacity: 8)
        for i in 1...100 { history.presented(timestampNs: UInt64(i) * 1_000, refreshNs: 0, sequence: nil) }
        XCTAssertEqual(history.presentations.count, 8)
        XCTAssertEqual(history.presentations.first?.timestampNs, 93_000)
        XCTAssertEqual(history.presentations.last?.timestampNs, 100_000)
        XCTAssertEqual(history.intervalsNs.count, 7)
        XCTAssertEqual(history.totalPresented, 100)
    }

    func testFramesPerSecondUsesOnlyTheSlidingWindow() {
        var history = PresentationHistory()
        var ts: UInt64 = 1_000_000_000
        // Two seconds at 30 fps, then one second at 60 fps.
        for _ in 0..<60 {
            history.presented(timestampNs: ts, refreshNs: Self.refresh, sequence: nil); ts += 2 * Self.refresh
        }
        for _ in 0..<60 {
            history.presented(timestampNs: ts, refreshNs: Self.refresh, sequence: nil); ts += Self.refresh
        }
        XCTAssertEqual(history.measuredFramesPerSecond() ?? 0, 60, accuracy: 0.5)
        XCTAssertEqual(history.measuredFramesPerSecond(windowNs: 3_000_000_000) ?? 0, 40, accuracy: 0.5)
    }

    func testDrainWindow() {
        var history = PresentationHistory()
        history.startWindow(nowNs: 1_000_000_000)
        for i in 0..<58 {
            history.presented(
                timestampNs: 1_000_000_000 + UInt64(i + 1) * Self.refresh, refreshNs: Self.refresh, sequence: nil)
        }
        history.discarded()
        history.discarded()
        let first = history.drainWindow(nowNs: 2_000_000_000)
        XCTAssertEqual(
            first, FrameWindow(presented: 58, discarded: 2, refreshNs: Int64(Self.refresh), windowSeconds: 1))
        XCTAssertEqual(first.framesPerSecond ?? 0, 58, accuracy: 1e-9)
        XCTAssertEqual(first.refreshHertz ?? 0, 60, accuracy: 1e-3)
        XCTAssertEqual(first.description, "58.0 fps (58 presented, 2 discarded in 1.00 s) @ 60.00 Hz")

        // The next window starts where the previous one was drained.
        history.presented(timestampNs: 2_100_000_000, refreshNs: Self.refresh, sequence: nil)
        let second = history.drainWindow(nowNs: 2_500_000_000)
        XCTAssertEqual(second.presented, 1)
        XCTAssertEqual(second.discarded, 0)
        XCTAssertEqual(second.windowSeconds, 0.5, accuracy: 1e-12)
        XCTAssertEqual(second.framesPerSecond ?? 0, 2, accuracy: 1e-9)

        // Nothing happened: an empty window, and totals are untouched.
        let third = history.drainWindow(nowNs: 2_500_000_000)
        XCTAssertEqual(third.presented, 0)
        XCTAssertNil(third.framesPerSecond)
        XCTAssertEqual(history.totalPresented, 59)
        XCTAssertEqual(history.totalDiscarded, 2)
    }

    func testFirstWindowStartsAtFirstPresentation() {
        var history = PresentationHistory()
        history.presented(timestampNs: 3_000_000_000, refreshNs: 0, sequence: nil)
        let window = history.drainWindow(nowNs: 3_250_000_000)
        XCTAssertEqual(window.windowSeconds, 0.25, accuracy: 1e-12)
        XCTAssertNil(window.refreshNs)
        XCTAssertEqual(window.description, "4.0 fps (1 presented, 0 discarded in 0.25 s)")
        // A clock going backwards yields an empty-length window, not a trap.
        history.discarded()
        XCTAssertEqual(history.drainWindow(nowNs: 1).windowSeconds, 0)
    }

    func testIntervalHistogram() {
        var history = PresentationHistory()
        let ms: UInt64 = 1_000_000
        for ts in [0, 16, 33, 50, 83, 100].map({ UInt64($0 + 10) * ms }) {
            history.presented(timestampNs: ts, refreshNs: 0, sequence: nil)
        }
        XCTAssertEqual(history.intervalsMs, [16, 17, 17, 33, 17])
        XCTAssertEqual(
            history.intervalHistogram(bucketWidthMs: 5),
            [
                HistogramBucket(lowerBound: 15, upperBound: 20, count: 4),
                HistogramBucket(lowerBound: 30, upperBound: 35, count: 1),
            ])
    }

    func testRingBufferOrder() {
        var ring = RingBuffer<Int>(capacity: 3)
        XCTAssertTrue(ring.isEmpty)
        for i in 1...5 { ring.append(i) }
        XCTAssertEqual(Array(ring), [3, 4, 5])
        XCTAssertEqual(ring.first, 3)
        XCTAssertEqual(ring.last, 5)
        ring.removeAll()
        XCTAssertEqual(Array(ring), [])
        ring.append(9)
        XCTAssertEqual(Array(ring), [9])
        XCTAssertEqual(RingBuffer<Int>(capacity: 0).capacity, 1)
    }
}
