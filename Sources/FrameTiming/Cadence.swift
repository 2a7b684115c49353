/// Decides which refreshes get a frame when an app asks for fewer frames
/// per second than the output shows, from the time each frame would reach
/// the screen. Unlike counting callbacks, it is right when callbacks arrive
/// at uneven times (right after a commit on an idle compositor, or from a
/// timer after a skipped refresh).
///
/// Each drawn frame sets the next due time one frame interval later; a
/// refresh whose target is within half a refresh of that due time draws.
/// Late frames restart the cadence instead of bursting to catch up.
public struct Cadence: Sendable, Equatable {
    public private(set) var refreshNs: Int64
    public private(set) var preferredFramesPerSecond: Int
    /// Target time the next frame is due at; nil before the first frame.
    public private(set) var dueNs: UInt64?

    public init(refreshNs: Int64, preferredFramesPerSecond: Int) {
        self.refreshNs = max(refreshNs, 1)
        self.preferredFramesPerSecond = max(preferredFramesPerSecond, 0)
    }

    /// Nanoseconds between frames; nil when every refresh draws.
    public var frameIntervalNs: UInt64? {
        guard preferredFramesPerSecond > 0 else { return nil }
        let interval = UInt64(1_000_000_000 / preferredFramesPerSecond)
        return interval > UInt64(refreshNs) + UInt64(refreshNs) / 4 ? interval : nil
    }

    public mutating func setRefresh(ns: Int64) { refreshNs = max(ns, 1) }

    public mutating func setPreferredFramesPerSecond(_ fps: Int) {
        preferredFramesPerSecond = max(fps, 0)
        dueNs = nil
    }

    public mutating func reset() { dueNs = nil }

    /// Whether a frame that would be shown at `targetNs` should be drawn;
    /// records it when it should.
    public mutating func shouldDraw(targetNs: UInt64) -> Bool {
        guard let interval = frameIntervalNs else { return true }
        let half = UInt64(refreshNs) / 2
        guard let due = dueNs else {
            dueNs = targetNs + interval
            return true
        }
        guard targetNs + half >= due else { return false }
        // More than a whole interval late: restart from here, no catch-up burst.
        dueNs = targetNs >= due + interval ? targetNs + interval : due + interval
        return true
    }

    /// When to look again after a refresh was skipped at `nowNs`: half a
    /// refresh before the due time, so the frame drawn then lands on it.
    public func retryDelayNs(nowNs: UInt64) -> UInt64 {
        guard let due = dueNs else { return UInt64(refreshNs) }
        let half = UInt64(refreshNs) / 2
        let at = due > half ? due - half : 0
        return at > nowNs ? at - nowNs + 500_000 : 1_000_000
    }
}
