import FrameTiming

/// The frames a display link's scene got on screen: counted from
/// presentation feedback while the compositor answers it, else from frame
/// callbacks timed on arrival; with the budget of feedback requests in
/// flight, which decides which of the two counts.
struct FrameRecord {
    /// Presentation statistics of the scene (for `--stats`).
    private(set) var history = PresentationHistory(capacity: 512)
    /// Frames whose frame callback arrived, timed on arrival: what counts
    /// as shown where the compositor answers no presentation feedback
    /// (sway 1.7's headless backend never sends `presented` or `discarded`;
    /// cage and KWin's virtual backend offer no wp_presentation).
    private(set) var callbackHistory = PresentationHistory(capacity: 512)
    private var feedback = FeedbackBudget()

    /// Whether the compositor is believed to answer presentation feedback.
    var isAnswering: Bool { feedback.isAnswering }
    /// Feedback requests in flight.
    var outstandingFeedback: Int { feedback.outstanding }

    /// Forgets feedback in flight (the surface is gone).
    mutating func forgetFeedback() { feedback.reset() }

    /// Feedback requests given up (unanswered past the deadline), and a
    /// token for a new request, or nil while the budget is spent or the
    /// compositor is believed silent.
    mutating func feedbackRequest(nowNs: UInt64) -> (abandon: [UInt64], token: UInt64?) {
        let abandon = feedback.expire(nowNs: nowNs)
        guard feedback.mayRequest(nowNs: nowNs) else { return (abandon, nil) }
        return (abandon, feedback.requested(nowNs: nowNs))
    }

    mutating func presented(token: UInt64, timestampNs: UInt64, refreshNs: UInt64, sequence: UInt64) {
        feedback.answered(token, nowNs: monotonicNanoseconds())
        history.presented(timestampNs: timestampNs, refreshNs: refreshNs, sequence: sequence)
    }

    mutating func discarded(token: UInt64) {
        feedback.answered(token, nowNs: monotonicNanoseconds())
        history.discarded()
    }

    /// A frame callback arrived at `nowNs`.
    mutating func callbackArrived(nowNs: UInt64) {
        callbackHistory.presented(timestampNs: nowNs, refreshNs: 0, sequence: nil)
    }

    /// When the last frame was shown, by whichever count is in use.
    var lastShownNs: UInt64? { (isAnswering ? history : callbackHistory).lastPresentationNs }

    /// When the recent frames (up to 512) were shown, oldest first, by
    /// whichever count is in use.
    var recentTimestampsNs: [UInt64] { (isAnswering ? history : callbackHistory).presentations.map(\.timestampNs) }

    /// Drains the once-a-second statistics window: feedback's, or the
    /// callbacks' count with feedback's discards and refresh.
    mutating func drainWindow(nowNs: UInt64) -> FrameWindow {
        let fromFeedback = history.drainWindow(nowNs: nowNs)
        let fromCallbacks = callbackHistory.drainWindow(nowNs: nowNs)
        if feedback.isAnswering { return fromFeedback }
        return FrameWindow(
            presented: fromCallbacks.presented, discarded: fromFeedback.discarded, refreshNs: fromFeedback.refreshNs,
            windowSeconds: fromCallbacks.windowSeconds)
    }
}
