/// Decides, on every frame callback of a display link, whether the app should
/// draw, so that a preferred frame rate below the output's refresh rate is met
/// on average (30 on 60 Hz: every other refresh; 24 on 60 Hz: alternating
/// 2 and 3 refreshes, i.e. 3:2 pulldown).
///
/// The pacer keeps a credit accumulator rather than a modulo counter: each
/// refresh that elapsed since the previous callback (measured from the
/// callback timestamps, not from the number of callbacks) earns
/// `preferredFramesPerSecond / refreshRate` of a frame, and a frame is drawn
/// once a whole frame has been earned. Measuring elapsed refreshes keeps the
/// average right when callbacks arrive late or are skipped, and credit left
/// over from a late callback is forgiven instead of being paid out as
/// catch-up frames.
public struct FramePacer: Sendable, Equatable {
    /// Length of one refresh cycle in nanoseconds; always positive.
    public private(set) var refreshNs: Int64
    /// The frame rate the app asked for; 0 means the native refresh rate.
    public private(set) var preferredFramesPerSecond: Int
    /// Timestamp of the previous frame callback, if any.
    public private(set) var lastCallbackNs: UInt64?
    /// Frames the pacer told the app to draw since creation or ``reset()``.
    public private(set) var drawnFrames: UInt64 = 0
    /// Callbacks on which the pacer told the app not to draw.
    public private(set) var skippedCallbacks: UInt64 = 0

    // Credit is scaled by (1e9 * refresh-rate-units) so that everything stays
    // in exact integers: each elapsed refresh earns refreshNs * fps, and a
    // frame costs 1e9. Floating point would drift for 24/60 = 0.4.
    private var credit: Int64 = 0

    /// Creates a pacer.
    /// - Parameters:
    ///   - refreshNs: The output's refresh period; non-positive values fall
    ///     back to 60 Hz.
    ///   - preferredFramesPerSecond: Desired frame rate; 0 (or negative) means
    ///     draw on every refresh.
    public init(refreshNs: Int64, preferredFramesPerSecond: Int = 0) {
        self.refreshNs = refreshNs > 0 ? refreshNs : RefreshRate.fallbackDurationNs
        self.preferredFramesPerSecond = max(preferredFramesPerSecond, 0)
    }

    /// Credit earned per elapsed refresh, or `nil` when every refresh draws.
    private var creditPerRefresh: Int64? {
        guard preferredFramesPerSecond > 0 else { return nil }
        let (product, overflow) = refreshNs.multipliedReportingOverflow(by: Int64(preferredFramesPerSecond))
        if overflow || product >= nanosecondsPerSecond { return nil }
        return product
    }

    /// Whether every refresh is drawn (no preferred rate, or one at or above
    /// the refresh rate).
    public var drawsEveryRefresh: Bool { creditPerRefresh == nil }

    /// Average number of refresh cycles per drawn frame: 1 at the native rate,
    /// 2 for 30 on 60 Hz, 2.5 for 24 on 60 Hz.
    public var frameInterval: Double {
        guard let perRefresh = creditPerRefresh else { return 1 }
        return Double(nanosecondsPerSecond) / Double(perRefresh)
    }

    /// The frame rate the pacer will actually deliver on average.
    public var effectiveFramesPerSecond: Double {
        1e9 / Double(refreshNs) / frameInterval
    }

    /// Changes the refresh period, e.g. after a mode switch or the first
    /// presentation feedback. The cadence continues from the current credit.
    public mutating func setRefresh(ns: Int64) {
        refreshNs = ns > 0 ? ns : RefreshRate.fallbackDurationNs
    }

    /// Changes the preferred frame rate; 0 means the native refresh rate.
    public mutating func setPreferredFramesPerSecond(_ fps: Int) {
        preferredFramesPerSecond = max(fps, 0)
        credit = 0
    }

    /// Forgets the previous callback, so the next one draws immediately
    /// (used after the link was paused or the surface moved outputs).
    public mutating func reset() {
        lastCallbackNs = nil
        credit = 0
    }

    /// Number of whole refresh cycles between two callbacks, rounded to the
    /// nearest; at least 1 because every callback stands for a new refresh,
    /// even when timestamps are coarse (Wayland frame callbacks carry
    /// milliseconds) or go backwards (32-bit millisecond wraparound).
    public func elapsedRefreshes(from previousNs: UInt64, to currentNs: UInt64) -> Int64 {
        guard currentNs > previousNs else { return 1 }
        let delta = currentNs - previousNs
        let refresh = UInt64(refreshNs)
        // Bounded so the credit multiplication below cannot overflow; anything
        // this long is a stall whose backlog is forgiven anyway.
        let rounded = delta / refresh + (delta % refresh >= (refresh + 1) / 2 ? 1 : 0)
        let cycles = min(rounded, 1_000_000)
        return max(Int64(cycles), 1)
    }

    /// Call on every frame callback; returns whether the app should draw a
    /// frame for this refresh. The first callback always draws.
    public mutating func shouldDraw(atNs timestampNs: UInt64) -> Bool {
        defer { lastCallbackNs = timestampNs }
        guard let previous = lastCallbackNs, let perRefresh = creditPerRefresh else {
            credit = 0
            drawnFrames &+= 1
            return true
        }
        credit += elapsedRefreshes(from: previous, to: timestampNs) * perRefresh
        // A quarter refresh of slack absorbs rounding of refreshNs (60 Hz is
        // not a whole number of nanoseconds) without making exact half-way
        // cadences like 24 on 60 Hz ambiguous.
        let slack = perRefresh / 4
        guard credit + slack >= nanosecondsPerSecond else {
            skippedCallbacks &+= 1
            return false
        }
        credit -= nanosecondsPerSecond
        // On an on-time cadence the credit left after paying for a frame is
        // always below one refresh's worth minus the slack; anything more means
        // callbacks were late or skipped. Keeping that credit would make the
        // next frames come sooner than the cadence allows (catch-up), so the
        // cadence restarts from this frame instead.
        if credit >= perRefresh - slack {
            credit = 0
        }
        drawnFrames &+= 1
        return true
    }

    /// The expected presentation time of a frame the app draws now: the next
    /// vblank on the grid anchored at `lastPresentationNs` (the timestamp of
    /// the latest presentation feedback) that lies after `nowNs`, or simply
    /// one refresh after the last presentation when `nowNs` is `nil`.
    ///
    /// Pacing does not move this target: the pacer only decides *whether* to
    /// draw on a callback, and a frame drawn on a callback makes the next
    /// vblank.
    public func targetTimestamp(after lastPresentationNs: UInt64, nowNs: UInt64? = nil) -> UInt64 {
        VBlankGrid.next(after: lastPresentationNs, periodNs: refreshNs, nowNs: nowNs)
    }
}
