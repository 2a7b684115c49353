import TestHarness
import XCTest

@testable import Rendering

/// A window's wl_shm buffers against a compositor that holds some of them:
/// the presenter's rotation (`ShmRotation`) driven frame by frame as
/// `ShmPresenter` drives it, the compositor modelled by how many of the
/// newest attached buffers it has not released yet.
final class ShmRotationTests: ScreenplayTestCase {
    final class Buffer: ShmRotatingBuffer {
        var isBusy = false
        var isStale = false
        var isStaged = false
        var contentFrame: UInt64?
        var lastAttachedFrame: UInt64
        init(frame: UInt64) { lastAttachedFrame = frame }
    }

    /// The presenter's side (destroy, choose, attach) and the compositor's
    /// (release all but the `held` newest).
    struct Window {
        var buffers: [Buffer] = []
        var frame: UInt64 = 0
        var made = 0
        var destroyed = 0
        var attachedNewestFirst: [Buffer] = []

        mutating func present(compositorHolds held: Int) {
            frame += 1
            let unneeded = ShmRotation.toDestroy(buffers, frame: frame)
            destroyed += unneeded.count
            buffers.removeAll { buffer in unneeded.contains { $0 === buffer } }
            let buffer: Buffer
            switch ShmRotation.choose(from: buffers) {
            case let .reuse(reused): buffer = reused
            case .make:
                buffer = Buffer(frame: frame)
                buffers.append(buffer)
                made += 1
            }
            buffer.contentFrame = frame
            buffer.lastAttachedFrame = frame
            buffer.isBusy = true
            attachedNewestFirst.removeAll { $0 === buffer }
            attachedNewestFirst.insert(buffer, at: 0)
            for (age, attached) in attachedNewestFirst.enumerated() where age >= held { attached.isBusy = false }
        }
    }

    func testBuffersMadeWhileTheCompositorHeldMoreAreDestroyedOnceItNoLongerDoes() {
        var window = Window()
        // A loaded compositor holds three frames: four buffers, the most allowed.
        for _ in 0..<30 { window.present(compositorHolds: 3) }
        XCTAssertEqual(window.buffers.count, ShmRotation.maximumBuffers)
        // It releases the previous frame at each commit again: two are needed.
        for _ in 0..<(Int(ShmRotation.idleFrames) + 3) { window.present(compositorHolds: 1) }
        XCTAssertEqual(window.buffers.count, 2, "the two buffers no frame needed are gone")
        XCTAssertEqual(window.destroyed, 2)
        // And stay gone: double buffering makes none again.
        let madeBefore = window.made
        for _ in 0..<1000 { window.present(compositorHolds: 1) }
        XCTAssertEqual(window.made, madeBefore)
        XCTAssertEqual(window.buffers.count, 2)
    }

    func testSteadyDoubleBufferingNeverDestroysOrMakesAgain() {
        var window = Window()
        for _ in 0..<1000 { window.present(compositorHolds: 1) }
        XCTAssertEqual(window.made, 2)
        XCTAssertEqual(window.destroyed, 0)
    }

    func testAHeldBufferIsNeverDestroyedAndTheCountStaysBounded() {
        var window = Window()
        // A hidden output: the compositor releases nothing.
        for _ in 0..<500 { window.present(compositorHolds: .max) }
        XCTAssertEqual(window.buffers.count, ShmRotation.maximumBuffers)
        XCTAssertEqual(window.destroyed, 0, "busy buffers are the compositor's to read")
    }

    func testABufferUsedNowAndThenWithinTheWaitIsKept() {
        var window = Window()
        // A third buffer is needed for a frame every second at 60 Hz: it is
        // kept rather than made and destroyed every time.
        for round in 0..<20 {
            window.present(compositorHolds: 2)
            for _ in 0..<59 { window.present(compositorHolds: 1) }
            XCTAssertLessThanOrEqual(window.buffers.count, 3, "round \(round)")
        }
        XCTAssertEqual(window.made, 3)
        XCTAssertEqual(window.destroyed, 0)
    }

    func testStaleBuffersGoOnceReleased() {
        var window = Window()
        for _ in 0..<4 { window.present(compositorHolds: 1) }
        for buffer in window.buffers { buffer.isStale = true }
        let busy = window.buffers.filter(\.isBusy)
        XCTAssertEqual(busy.count, 1)
        window.present(compositorHolds: 1)
        XCTAssertTrue(window.buffers.contains { $0 === busy[0] }, "the busy stale buffer waits for its release")
        window.present(compositorHolds: 1)
        XCTAssertFalse(window.buffers.contains { $0.isStale }, "released stale buffers are destroyed")
    }
}
