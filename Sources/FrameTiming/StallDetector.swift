/// A change reported by ``StallDetector``.
public enum StallEvent: Sendable, Equatable {
    /// No frame callback arrived within the threshold: the output is probably
    /// hidden, switched off, or the compositor stopped repainting the surface.
    case stalled
    /// Callbacks arrived again after a stall.
    case resumed
}

/// Notices when a display link stops ticking, without blocking anything: the
/// caller polls it from any timer with the current time.
///
/// A link counts as stalled when no frame callback arrived for
/// max(4 refreshes, 250 ms). Four refreshes tolerate a compositor skipping a
/// few repaints; the 250 ms floor keeps high-refresh outputs from flapping on
/// ordinary hiccups.
public struct StallDetector: Sendable, Equatable {
    /// Refreshes without a callback before the link counts as stalled.
    public static let refreshesBeforeStall: UInt64 = 4
    /// Minimum silence before the link counts as stalled.
    public static let minimumThresholdNs: UInt64 = 250_000_000

    /// The output's refresh period; non-positive values fall back to 60 Hz.
    public private(set) var refreshNs: Int64
    /// Time of the latest frame callback, or of the start when none came yet.
    public private(set) var lastCallbackNs: UInt64
    /// Whether the last check found the link stalled.
    public private(set) var isStalledReported = false

    /// Creates a detector; a link that never delivers a callback is reported
    /// stalled once the threshold has passed since `startNs`.
    public init(refreshNs: Int64, startNs: UInt64) {
        self.refreshNs = refreshNs > 0 ? refreshNs : RefreshRate.fallbackDurationNs
        lastCallbackNs = startNs
    }

    /// The silence threshold: max(4 refreshes, 250 ms).
    public static func thresholdNs(refreshNs: Int64) -> UInt64 {
        let refresh = UInt64(refreshNs > 0 ? refreshNs : RefreshRate.fallbackDurationNs)
        let (cycles, overflow) = refresh.multipliedReportingOverflow(by: refreshesBeforeStall)
        return overflow ? UInt64.max : max(cycles, minimumThresholdNs)
    }

    /// Whether a link whose last callback was at `lastCallbackNs` is stalled
    /// at `nowNs`. A `now` before the last callback is never a stall.
    public static func isStalled(lastCallbackNs: UInt64, refreshNs: Int64, nowNs: UInt64) -> Bool {
        nowNs > lastCallbackNs && nowNs - lastCallbackNs >= thresholdNs(refreshNs: refreshNs)
    }

    /// The threshold for this detector's refresh period.
    public var thresholdNs: UInt64 { Self.thresholdNs(refreshNs: refreshNs) }

    /// Whether the link is stalled at `nowNs`.
    public func isStalled(nowNs: UInt64) -> Bool {
        Self.isStalled(lastCallbackNs: lastCallbackNs, refreshNs: refreshNs, nowNs: nowNs)
    }

    /// How long the link has been silent at `nowNs`, if it counts as stalled.
    public func stalledDurationNs(nowNs: UInt64) -> UInt64? {
        isStalled(nowNs: nowNs) ? nowNs - lastCallbackNs : nil
    }

    /// Updates the refresh period, e.g. after a mode change.
    public mutating func setRefresh(ns: Int64) {
        refreshNs = ns > 0 ? ns : RefreshRate.fallbackDurationNs
    }

    /// Records a frame callback; returns ``StallEvent/resumed`` if the link
    /// had been reported stalled.
    public mutating func frameCallback(atNs timestampNs: UInt64) -> StallEvent? {
        lastCallbackNs = max(lastCallbackNs, timestampNs)
        guard isStalledReported else { return nil }
        isStalledReported = false
        return .resumed
    }

    /// Checks the link at `nowNs`; returns ``StallEvent/stalled`` once per
    /// stall, so callers can log it without repeating themselves.
    public mutating func poll(nowNs: UInt64) -> StallEvent? {
        guard !isStalledReported, isStalled(nowNs: nowNs) else { return nil }
        isStalledReported = true
        return .stalled
    }
}
