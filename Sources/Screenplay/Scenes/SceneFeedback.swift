import EventLoop
import WaylandClient

/// A scene's presentation feedback and the frames it was asked to report
/// as shown (`Scene.whenNextFrameShown`): which frame asks for feedback
/// within the display link's budget, what came back in a batch, and which
/// watchers each answer resolves.
@MainActor
final class SceneFeedback {
    /// How many frames reached the compositor's presentation feedback.
    private(set) var presentedFrames = 0
    /// Handlers for the next frame shown.
    var shownWatchers: [@MainActor (FrameShown) -> Void] = []
    /// The tracker resolved by the paced frame callback, while the link runs.
    private var pacedShownTracker: FrameShownTracker?
    /// Trackers waiting for the presentation feedback of their frame, by
    /// its request's token.
    private var shownByFeedbackToken: [UInt64: FrameShownTracker] = [:]
    /// What the listeners recorded since the last batch: feedback events
    /// and frame callbacks for trackers, resolved after the batch.
    private var recordedFeedback: [(event: PresentationEvent, token: UInt64)] = []
    private var recordedCallbacks: [(tracker: FrameShownTracker, ns: UInt64)] = []
    private let displayLink: DisplayLink
    /// Asks for the batch to be handled soon (an answer came).
    private let needsBatch: () -> Void

    init(displayLink: DisplayLink, needsBatch: @escaping () -> Void) {
        self.displayLink = displayLink
        self.needsBatch = needsBatch
    }

    /// Asks for this frame's presentation feedback where the compositor
    /// offers it and the link's budget allows; drops requests given up.
    /// Returns the request's token.
    func requestFeedback(on surface: Surface, nowNs: UInt64) -> UInt64? {
        guard surface.offersPresentationFeedback else { return nil }
        let request = displayLink.feedbackRequest(nowNs: nowNs)
        surface.abandonPresentationFeedback(request.abandon)
        for token in request.abandon { shownByFeedbackToken[token] = nil }
        guard let token = request.token else { return nil }
        surface.requestPresentationFeedback(token: token) { [weak self] event in
            self?.recordedFeedback.append((event, token))
        }
        return token
    }

    /// The paced frame callback came at `ns`.
    func pacedFrameShown(atNs ns: UInt64) {
        guard let tracker = pacedShownTracker else { return }
        pacedShownTracker = nil
        recordedCallbacks.append((tracker, ns))
    }

    /// Resolves this frame's `whenNextFrameShown` handlers by its own frame
    /// callback (the paced one when the link runs) and by the presentation
    /// feedback the frame asked for, where the compositor answers feedback
    /// (the same bounded request: no second one).
    func trackShown(feedbackToken: UInt64?, surface: Surface) {
        guard !shownWatchers.isEmpty else { return }
        let answers = feedbackToken != nil && displayLink.isReceivingPresentationFeedback
        let tracker = FrameShownTracker(
            handlers: shownWatchers, waitsForFeedback: answers, refreshNs: UInt64(displayLink.duration * 1e9))
        shownWatchers = []
        if answers, let feedbackToken { shownByFeedbackToken[feedbackToken] = tracker }
        if displayLink.isPaused {
            surface.requestFrame { [weak self] _ in
                self?.recordedCallbacks.append((tracker, monotonicNanoseconds()))
                self?.needsBatch()
            }
        } else {
            pacedShownTracker = tracker
        }
    }

    /// The feedback events recorded since the last call, in order.
    func takeRecorded() -> [(event: PresentationEvent, token: UInt64)] {
        defer { recordedFeedback.removeAll() }
        return recordedFeedback
    }

    /// One feedback event taken from `takeRecorded()`: counts it, hands it
    /// to the display link and to the frame's tracker.
    func resolve(_ event: PresentationEvent, token: UInt64) {
        switch event {
        case let .presented(ts, refresh, seq, _, _):
            presentedFrames += 1
            displayLink.presented(token: token, timestampNs: ts, refreshNs: refresh, sequence: seq)
        case .discarded:
            displayLink.discarded(token: token)
        }
        shownByFeedbackToken.removeValue(forKey: token)?.feedback(event)
    }

    /// Resolves the trackers whose frame callbacks came in the batch.
    func resolveRecordedCallbacks() {
        let shown = recordedCallbacks
        recordedCallbacks.removeAll()
        for (tracker, ns) in shown { tracker.frameCallback(atNs: ns) }
    }

    /// The surface is gone: no answer will come.
    func reset() {
        recordedFeedback.removeAll()
        shownByFeedbackToken.removeAll()
        displayLink.resetFeedback()
    }
}
