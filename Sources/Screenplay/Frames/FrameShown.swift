import EventLoop
import WaylandClient

/// When a frame reached the screen: for proof-of-play logs.
public struct FrameShown: Sendable, Equatable {
    /// CLOCK_MONOTONIC nanoseconds.
    public let monotonicNs: UInt64
    /// `presentation` (the compositor's wp_presentation timestamp) or
    /// `frame-callback` (when the frame callback arrived: the compositor
    /// gave no presentation feedback, as sway's headless backend, cage and
    /// KWin's virtual backend, or none has arrived yet for this scene: the
    /// first frame on weston or mutter).
    public let clock: String
}

extension Scene {
    /// Calls `handler` once the frame drawn next (or the one being drawn, when
    /// called from `draw`) is shown on the screen. Nothing is called for a
    /// frame that is never shown (a hidden or switched-off output).
    public func whenNextFrameShown(_ handler: @escaping @MainActor (FrameShown) -> Void) {
        feedback.shownWatchers.append(handler)
    }
}

/// One frame's watchers: resolved by its presentation feedback, or by its
/// frame callback where feedback does not come.
@MainActor
final class FrameShownTracker {
    private var handlers: [@MainActor (FrameShown) -> Void]
    private let waitsForFeedback: Bool
    private let feedbackGraceNs: UInt64
    private var callbackNs: UInt64?

    init(handlers: [@MainActor (FrameShown) -> Void], waitsForFeedback: Bool, refreshNs: UInt64) {
        self.handlers = handlers
        self.waitsForFeedback = waitsForFeedback
        // Feedback and the frame callback arrive in either order; a
        // compositor that gives feedback gives it within a few refreshes.
        feedbackGraceNs = max(50_000_000, 3 * refreshNs)
    }

    func frameCallback(atNs ns: UInt64) {
        guard !handlers.isEmpty, callbackNs == nil else { return }
        callbackNs = ns
        guard waitsForFeedback else { return deliver(FrameShown(monotonicNs: ns, clock: "frame-callback")) }
        MainEventLoop.shared.after(ns: feedbackGraceNs) { [self] in
            deliver(FrameShown(monotonicNs: ns, clock: "frame-callback"))
        }
    }

    func feedback(_ event: PresentationEvent) {
        switch event {
        case let .presented(ts, _, _, _, _):
            deliver(FrameShown(monotonicNs: ts, clock: "presentation"))
        case .discarded:
            // Replaced before it was shown: the frame callback, if it comes,
            // is the best time there is.
            if let callbackNs { deliver(FrameShown(monotonicNs: callbackNs, clock: "frame-callback")) }
        }
    }

    private func deliver(_ shown: FrameShown) {
        let handlers = self.handlers
        self.handlers = []
        for handler in handlers { handler(shown) }
    }
}
