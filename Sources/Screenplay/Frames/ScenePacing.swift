import EventLoop
import FrameTiming
import WaylandClient

/// When a scene draws while its display link runs: on the refresh the
/// frame callback announces, unless the link's rate skips that refresh or
/// the delegate keeps its picture; then a timer stands in for the callback
/// one refresh later, because no frame callback comes without a commit.
@MainActor
final class ScenePacing {
    private let displayLink: DisplayLink
    /// Asks for the batch to be handled soon (a frame became due).
    private let needsBatch: () -> Void
    /// A refresh came (a frame callback, or a timer standing in for one)
    /// and was not taken yet.
    private var frameDue = false
    /// Bumped by every new timer and by `stop()`: a timer whose generation
    /// is not the newest does nothing.
    private var generation = 0
    private var isStopped = false
    /// A frame came back only after the compositor had held it for a
    /// stall's length (`takeHeldFrame()`).
    private var frameWasHeld = false

    init(displayLink: DisplayLink, needsBatch: @escaping () -> Void) {
        self.displayLink = displayLink
        self.needsBatch = needsBatch
    }

    /// Takes the refresh that came due, if any: true when it is one this
    /// scene draws on (the delegate then says whether it has a new
    /// picture). A refresh the link's rate skips is asked about again on a
    /// timer: an empty commit to get the next callback stalls on weston,
    /// which repaints (and calls back) only for damage.
    func takeDueRefresh(nowNs: UInt64) -> Bool {
        guard frameDue else { return false }
        frameDue = false
        if displayLink.shouldDraw(nowNs: nowNs) { return true }
        if !displayLink.isPaused { retry(afterNs: displayLink.skipDelayNs(nowNs: nowNs)) }
        return false
    }

    /// The delegate kept this refresh's picture: commit nothing and ask
    /// again on a timer just past the next vblank, so each refresh is
    /// asked about exactly once.
    func hold(nowNs: UInt64) {
        displayLink.held(nowNs: nowNs)
        retry(afterNs: displayLink.holdDelayNs(nowNs: nowNs))
    }

    /// True once after a frame the compositor held for a stall's length
    /// (a hidden output, a compositor stopped or overloaded) before
    /// calling it back: it may have held every buffer of the window.
    func takeHeldFrame() -> Bool {
        defer { frameWasHeld = false }
        return frameWasHeld
    }

    /// A switched-off panel asks for no frames: forget the due one.
    func dropDueRefresh() { frameDue = false }

    /// Before a frame's commit while the link runs: asks the compositor for
    /// the next refresh's callback. `shown` hears when it came.
    func willDraw(on surface: Surface, nowNs: UInt64, shown: @escaping @MainActor (UInt64) -> Void) {
        guard !displayLink.isPaused else { return }
        displayLink.willDraw(nowNs: nowNs)
        let heldNs = StallDetector.thresholdNs(refreshNs: Int64(displayLink.duration * 1e9))
        surface.requestFrame { [weak self] _ in
            let shownNs = monotonicNanoseconds()
            guard let self, !self.isStopped else { return }
            if shownNs &- nowNs >= heldNs { self.frameWasHeld = true }
            self.displayLink.frameShown(nowNs: shownNs)
            self.frameDue = true
            self.needsBatch()
            shown(shownNs)
        }
    }

    /// No more frames: pending timers do nothing.
    func stop() {
        isStopped = true
        generation &+= 1
    }

    private func retry(afterNs delay: UInt64) {
        generation &+= 1
        let expected = generation
        MainEventLoop.shared.after(ns: delay) { [weak self] in
            guard let self, self.generation == expected, !self.isStopped else { return }
            self.frameDue = true
            self.needsBatch()
        }
    }
}
