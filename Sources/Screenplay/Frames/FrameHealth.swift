import FrameTiming

/// What a display link can tell about the frames its scene gets on screen:
/// counts per window of time, when they were shown, and whether they
/// stopped. A monitoring timer the app already has (a stats file, a
/// service manager's watchdog) reads them; nothing here waits on a screen.
extension DisplayLink {
    /// Where ``DisplayLink/duration`` came from, so a log can say how far to
    /// trust it.
    public enum DurationSource: String, Sendable, Equatable, CaseIterable {
        /// The `refresh` of presentation feedback: what the compositor
        /// actually scans out at, so it wins over everything else.
        case presentation
        /// The output's current mode (`wl_output.mode`, in millihertz).
        case outputMode
        /// Nothing usable was known (a nested or virtual output reports
        /// refresh 0): 60 Hz is assumed.
        case fallback

        // By name, so a case added below cannot shift the mapping.
        init(_ source: RefreshSource) { self = Self(rawValue: source.rawValue) ?? .fallback }
    }

    /// Frames of one window of time, from ``DisplayLink/takeFrameStatistics(nowNs:)``.
    public struct FrameStatistics: Sendable, Equatable {
        /// Frames that reached the screen: by presentation feedback, or by
        /// frame callback where the compositor answers no feedback (see
        /// ``DisplayLink/countSource``).
        public let presented: Int
        /// Frames the compositor dropped without showing them.
        public let discarded: Int
        /// The refresh period presentation feedback reported in the window,
        /// in nanoseconds; nil when none came.
        public let refreshNs: Int64?
        /// How long the window was, in seconds.
        public let windowSeconds: Double
    }

    /// A change in whether the scene's output shows its frames.
    public enum StallChange: Sendable, Equatable {
        /// Frame callbacks stopped for max(4 frame periods, 250 ms) on a
        /// panel that is on: the output is hidden or no longer repainted.
        case stalled
        /// Frames reach the screen again after a stall.
        case resumed
    }

    /// The frames shown since the previous call (or since the link
    /// started), and starts a new window: call it from one timer, e.g. once
    /// a second for a stats line.
    public func takeFrameStatistics(nowNs: UInt64 = monotonicNanoseconds()) -> FrameStatistics {
        let window = drainStatistics(nowNs: nowNs)
        return FrameStatistics(
            presented: window.presented, discarded: window.discarded, refreshNs: window.refreshNs,
            windowSeconds: window.windowSeconds)
    }

    /// ``StallChange/stalled`` once when a running link's frames stop
    /// reaching a panel that is on, ``StallChange/resumed`` once when they
    /// come back, nil otherwise. Each change is reported once, to the one
    /// caller that polls (a timer you already have); a panel switched off
    /// (`zwlr_output_power_manager_v1`, where offered) is no stall. Use
    /// ``stallWhilePanelIsOn(nowNs:)`` to ask without taking the change.
    public func takeStallChange(nowNs: UInt64 = monotonicNanoseconds()) -> StallChange? {
        switch checkStall(nowNs: nowNs) {
        case .stalled: .stalled
        case .resumed: .resumed
        case nil: nil
        }
    }

    /// How long, in seconds, a running link on a panel that is on has
    /// shown no frames, or nil (ticking, paused, or its panel switched
    /// off). It takes no ``StallChange``, so a watchdog and a stats timer
    /// can both ask; unlike ``stalledDuration(nowNs:)`` it does not count a
    /// panel switched off as stalled.
    public func stallWhilePanelIsOn(nowNs: UInt64 = monotonicNanoseconds()) -> Double? {
        currentStall(nowNs: nowNs)
    }

    /// When the scene's recent frames (up to 512) were shown, oldest
    /// first, in CLOCK_MONOTONIC nanoseconds, from the same source as the
    /// counts (``DisplayLink/countSource``): the raw material for a frame
    /// interval distribution.
    public var recentFrameTimestampsNs: [UInt64] {
        frames.recentTimestampsNs
    }
}
