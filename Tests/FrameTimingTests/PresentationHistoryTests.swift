import FrameTiming
import TestHarness
import XCTest

final class PresentationHistoryTests: ScreenplayTestCase {
    static let refresh: UInt64 = 16_666_667

    /// Nanoseconds between the retained presentations, as a frames line reports them.
    static func intervals(_ history: PresentationHistory) -> [UInt64] {
        let stamps = history.presentations.map(\.timestampNs)
        return zip(stamps, stamps.dropFirst()).map { $1 - $0 }
    }

    func testEmptyHistory() {
        var history = PresentationHistory()
        XCTAssertNil(history.lastPresentationNs)
        XCTAssertNil(history.refreshNs)
        XCTAssertEqual(Self.intervals(history), [])
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
        XCTAssertEqual(history.refreshNs, Int64(Self.refresh))
        XCTAssertEqual(history.measuredRefreshNs, Int64(Self.refresh))
        XCTAssertEqual(Self.intervals(history).count, 60)
        XCTAssertTrue(Self.intervals(history).allSatisfy { $0 == Self.refresh })
    }

    func testMeasuredRefreshFromSequenceWhenReportedRefreshIsZero() {
        // mpv-style: (ust, msc) pairs give the vblank period even with VRR /
        // unknown refresh, across vblanks that passed without a frame.
        var history = PresentationHistory()
        history.presented(timestampNs: 1_000_000_000, refreshNs: 0, sequence: 10)
        XCTAssertNil(history.refreshNs)
        history.presented(timestampNs: 1_000_000_000 + 3 * 6_944_444, refreshNs: 0, sequence: 13)
        XCTAssertEqual(history.measuredRefreshNs, 6_944_444)
        XCTAssertEqual(history.refreshNs, 6_944_444)
    }

    func testNoSequenceMeansNoMeasuredRefresh() {
        var history = PresentationHistory()
        history.presented(timestampNs: 100, refreshNs: 0, sequence: nil)
        history.presented(timestampNs: 200, refreshNs: 0, sequence: nil)
        XCTAssertNil(history.measuredRefreshNs)
        XCTAssertNil(history.refreshNs)
        XCTAssertEqual(Self.intervals(history), [100])
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
        XCTAssertEqual(history.presentations.count, 1)
        XCTAssertEqual(Self.intervals(history), [])
        XCTAssertEqual(history.drainWindow(nowNs: 2_000).presented, 4)
    }

    func testRingBufferBoundsMemory() {
        var history = PresentationHistory(capacity: 8)
        for i in 1...100 { history.presented(timestampNs: UInt64(i) * 1_000, refreshNs: 0, sequence: nil) }
        XCTAssertEqual(history.presentations.count, 8)
        XCTAssertEqual(history.presentations.first?.timestampNs, 93_000)
        XCTAssertEqual(history.presentations.last?.timestampNs, 100_000)
        XCTAssertEqual(history.drainWindow(nowNs: 100_000).presented, 100)
    }

    func testDrainWindow() {
        var history = PresentationHistory()
        for i in 0..<58 {
            history.presented(
                timestampNs: 1_000_000_000 + UInt64(i) * Self.refresh, refreshNs: Self.refresh, sequence: nil)
        }
        history.discarded()
        history.discarded()
        let first = history.drainWindow(nowNs: 2_000_000_000)
        XCTAssertEqual(
            first, FrameWindow(presented: 58, discarded: 2, refreshNs: Int64(Self.refresh), windowSeconds: 1))

        // The next window starts where the previous one was drained.
        history.presented(timestampNs: 2_100_000_000, refreshNs: Self.refresh, sequence: nil)
        let second = history.drainWindow(nowNs: 2_500_000_000)
        XCTAssertEqual(second.presented, 1)
        XCTAssertEqual(second.discarded, 0)
        XCTAssertEqual(second.windowSeconds, 0.5, accuracy: 1e-12)

        // Nothing happened: an empty window.
        let third = history.drainWindow(nowNs: 2_500_000_000)
        XCTAssertEqual(third.presented, 0)
        XCTAssertEqual(third.discarded, 0)
    }

    func testFirstWindowStartsAtFirstPresentation() {
        var history = PresentationHistory()
        history.presented(timestampNs: 3_000_000_000, refreshNs: 0, sequence: nil)
        let window = history.drainWindow(nowNs: 3_250_000_000)
        XCTAssertEqual(window.windowSeconds, 0.25, accuracy: 1e-12)
        XCTAssertEqual(window.presented, 1)
        XCTAssertNil(window.refreshNs)
        // A clock going backwards yields an empty-length window, not a trap.
        history.discarded()
        XCTAssertEqual(history.drainWindow(nowNs: 1).windowSeconds, 0)
    }

    func testRingBufferOrder() {
        var ring = RingBuffer<Int>(capacity: 3)
        XCTAssertTrue(ring.isEmpty)
        for i in 1...5 { ring.append(i) }
        XCTAssertEqual(Array(ring), [3, 4, 5])
        XCTAssertEqual(ring.first, 3)
        XCTAssertEqual(ring.last, 5)
        XCTAssertEqual(RingBuffer<Int>(capacity: 0).capacity, 1)
    }
}
