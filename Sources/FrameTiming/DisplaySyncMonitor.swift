/// Judges whether display-synced video keeps up with the output.
///
/// With `video-sync=display-resample` mpv counts one refresh per picture
/// it hands over (a new frame or a repeat, each answered by a swap report):
/// libmpv's render API has no way to tell it that a refresh went by
/// without one. A refresh lost because a frame took longer than a refresh
/// to draw, or because mpv had nothing ready when the refresh came, is
/// therefore lost from the video's clock: the video plays slower instead
/// of dropping frames (a 720p clip on a software renderer showed 25 of its
/// 30 frames a second, none dropped). The monitor compares the refreshes
/// that really went by with the pictures handed over, over windows of a
/// couple of seconds; when too many are lost, the player follows the
/// clock instead (mpv then drops late frames, as it does on its own).
public struct DisplaySyncMonitor: Sendable, Equatable {
    /// Length of one judged window, in refreshes (2 s at 60 Hz).
    public let windowRefreshes: Int
    /// Lost refreshes in a window that make display sync give up.
    public let lostLimit: Int
    /// A gap between two refreshes longer than this many refreshes is a
    /// pause (the display link stopped, the output went off), not a loss:
    /// the window starts again after it.
    public let pauseRefreshes: Int

    private var windowStartNs: UInt64?
    private var lastNs: UInt64 = 0
    private var handedOver = 0
    /// Lost refreshes in the last complete window (for the report).
    public private(set) var lastLost = 0
    /// Refreshes in the last complete window.
    public private(set) var lastWindow = 0

    /// By default a window is 120 refreshes and more than 12 lost (a
    /// tenth) give up; a gap of over 30 refreshes is a pause.
    public init(windowRefreshes: Int = 120, lostLimit: Int = 12, pauseRefreshes: Int = 30) {
        self.windowRefreshes = windowRefreshes
        self.lostLimit = lostLimit
        self.pauseRefreshes = pauseRefreshes
    }

    /// Starts over (playback paused or restarted, a new output).
    public mutating func reset() {
        windowStartNs = nil
        handedOver = 0
    }

    /// One display-link refresh at `nowNs`: whether a picture (new or
    /// repeated) was handed to mpv for it. Returns true when the window
    /// that just closed lost more than `lostLimit` refreshes.
    public mutating func refresh(nowNs: UInt64, refreshNs: UInt64, handedOver picture: Bool) -> Bool {
        guard refreshNs > 0 else { return false }
        guard let start = windowStartNs, nowNs >= lastNs, nowNs - lastNs <= UInt64(pauseRefreshes) * refreshNs
        else {
            // The window opens at the first picture handed over: the wait
            // for the first decoded frame is start-up, not a loss.
            if picture {
                windowStartNs = nowNs
                handedOver = 1
            } else {
                windowStartNs = nil
            }
            lastNs = nowNs
            return false
        }
        lastNs = nowNs
        if picture { handedOver += 1 }
        // Refreshes from the window's first picture to this one, both
        // included; rounding absorbs the jitter of callback arrival.
        let elapsed = Int((Double(nowNs - start) / Double(refreshNs)).rounded()) + 1
        guard elapsed >= windowRefreshes else { return false }
        lastWindow = elapsed
        lastLost = max(0, elapsed - handedOver)
        windowStartNs = nil
        handedOver = 0
        // The next window opens at the next picture handed over.
        return lastLost > lostLimit
    }
}
