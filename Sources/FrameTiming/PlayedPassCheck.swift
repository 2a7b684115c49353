/// Judges whether one pass of a video (from a start of the file to the
/// next start, or to its end) fell short of the file's stated length: a
/// file cut off part-way (a broken download, a damaged disk) ends or loops
/// long before that, and that is a failure, not a short video.
///
/// Both the furthest position heard and the time the pass took must fall
/// short: on a loaded machine mpv reports `time-pos` sparsely and drops
/// late frames by the clock, so the last position heard can be half a
/// second before the end of a file that played whole.
///
/// The time is the subtle part. mpv plays on its own threads; the app
/// reads mpv's news on the main thread whenever that thread gets to it.
/// A main thread held for seconds (a slow page render, a loaded box)
/// reads the news late and in bunches, and mpv can play a whole pass
/// meanwhile, its `time-pos` reports collapsed into one (the newest). A
/// pass timed from when its start was *read* then seems to last only the
/// moment between two reads: a 3 s looping clip whose main thread was held
/// for 6 s was once judged truncated at "0.00 s of its 3.00 s". A pass is
/// therefore timed from the earliest its start can have happened: the
/// last time mpv's queue was seen empty before the start was read. That
/// bound only lengthens a pass, so no stall can make a whole pass look
/// short, and a file that really stops short is caught on every pass
/// whose start the main thread read promptly.
package struct PlayedPassCheck: Sendable, Equatable {
    /// The length the file states, in seconds (0: unknown; nothing is judged).
    package var duration = 0.0
    /// The file's frame rate (0: unknown; 25 is assumed for the margin).
    package var framesPerSecond = 0.0
    /// The furthest position heard in the current pass.
    package private(set) var furthestPosition = 0.0
    /// The earliest the current pass can have started (monotonic seconds);
    /// nil before the first start.
    package private(set) var startedNoEarlierThan: Double?
    /// When mpv's queue was last seen empty: nothing read after it can
    /// have happened before it.
    private var queueEmptyAt: Double
    private var passesStarted = 0

    /// `readingStartsAt`: monotonic seconds before the file was asked for
    /// (nothing about it can have happened earlier).
    package init(readingStartsAt: Double) { queueEmptyAt = readingStartsAt }

    /// Asking mpv for news at `at` (monotonic seconds, taken before the
    /// asking) found none: whatever is read next happened after `at`.
    package mutating func queueSeenEmpty(at: Double) { queueEmptyAt = at }

    /// mpv reported the position `seconds` into the file.
    package mutating func heard(position seconds: Double) {
        furthestPosition = max(furthestPosition, seconds)
    }

    /// mpv (re)started playback at the start of the file (the first start,
    /// or the loop seeking back), the news read at `readAt`: the furthest
    /// position of the pass that ended when it fell short, else nil.
    package mutating func restarted(readAt: Double) -> Double? {
        let verdict = passesStarted > 0 ? shortfall(readAt: readAt) : nil
        passesStarted += 1
        furthestPosition = 0
        startedNoEarlierThan = queueEmptyAt
        return verdict
    }

    /// The pass ended without looping (the end was reached), the news read
    /// at `readAt`: the furthest position reached when it fell short.
    package func reachedEnd(readAt: Double) -> Double? { shortfall(readAt: readAt) }

    private func shortfall(readAt: Double) -> Double? {
        guard duration > 0 else { return nil }
        let frame = framesPerSecond > 0 ? 1 / framesPerSecond : 0.04
        let margin = 0.5 + 2 * frame
        guard furthestPosition + margin < duration else { return nil }
        if let startedNoEarlierThan, readAt - startedNoEarlierThan + margin >= duration { return nil }
        return furthestPosition
    }
}
