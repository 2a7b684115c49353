import Foundation

/// Tells another thread which scene is inside a draw and since when, so a
/// draw that never returns (an endless shader loop, a driver stuck in a
/// call) can be noticed while the main thread is stuck in it.
///
/// A scene brackets everything it does with GL for a frame (make current,
/// the delegate's drawing, the swap) with this; Mesa's llvmpipe runs a
/// shader on its own threads, but the swap waits for them on the main
/// thread. Pass one through `ApplicationOptions.drawWatch`; a watching
/// thread calls `waitForDraw(runningLongerThan:)` (it sleeps while nothing
/// draws: idle content costs no wake-ups) or polls `draw(runningLongerThan:)`.
public final class DrawWatch: @unchecked Sendable {
    /// A draw in progress.
    public struct Draw: Sendable, Equatable {
        /// The scene's screen (output name), or "window".
        public let screen: String
        /// What the scene shows (`Scene.contentDescription`).
        public let content: String
        /// When it began (CLOCK_MONOTONIC, nanoseconds).
        public let startedNs: UInt64
        /// Counts draws, so a watcher tells this draw from the next one.
        public let sequence: UInt64

        /// Seconds it has been running at `nowNs`.
        public func seconds(nowNs: UInt64 = monotonicNanoseconds()) -> Double {
            Double(nowNs &- startedNs) / 1e9
        }
    }

    // @unchecked: every stored property is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var current: Draw?
    private var sequence: UInt64 = 0
    private var watcherWaitsForADraw = false

    /// A watch with no draw in progress; hand it to the application's options.
    public init() {}

    /// The draw in progress, if any.
    public var drawInProgress: Draw? {
        condition.lock()
        defer { condition.unlock() }
        return current
    }

    /// The draw in progress if it has been running for more than `seconds`:
    /// a stuck renderer. A systemd watchdog ping should not be sent while
    /// this is non-nil for the grace period.
    public func draw(runningLongerThan seconds: Double) -> Draw? {
        guard let draw = drawInProgress, draw.seconds() > seconds else { return nil }
        return draw
    }

    /// Blocks the calling thread (never the main one) until one draw has
    /// been running for `seconds`, and returns it. Sleeps while no draw is
    /// in progress and wakes once per draw otherwise, at most once per
    /// `seconds` while draws keep returning.
    public func waitForDraw(runningLongerThan seconds: Double) -> Draw {
        condition.lock()
        defer { condition.unlock() }
        while true {
            guard let draw = current else {
                watcherWaitsForADraw = true
                condition.wait()
                continue
            }
            watcherWaitsForADraw = false
            let deadline = Date(timeIntervalSinceNow: max(0, seconds - draw.seconds()))
            // `end` does not signal (draws end every frame); a spurious wake-up loops.
            while Date() < deadline, current?.sequence == draw.sequence {
                _ = condition.wait(until: deadline)
            }
            if let still = current, still.sequence == draw.sequence, still.seconds() >= seconds { return still }
        }
    }

    /// A scene starts drawing (main thread).
    func begin(screen: String, content: String) {
        condition.lock()
        sequence &+= 1
        current = Draw(screen: screen, content: content, startedNs: monotonicNanoseconds(), sequence: sequence)
        if watcherWaitsForADraw {
            watcherWaitsForADraw = false
            condition.signal()
        }
        condition.unlock()
    }

    /// The drawing scene names what it draws now (main thread).
    func describe(_ content: String) {
        condition.lock()
        if let draw = current {
            current = Draw(screen: draw.screen, content: content, startedNs: draw.startedNs, sequence: draw.sequence)
        }
        condition.unlock()
    }

    /// The draw returned (main thread).
    func end() {
        condition.lock()
        current = nil
        condition.unlock()
    }
}
