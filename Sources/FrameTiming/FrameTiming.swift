// FrameTiming: pure timing logic for a display link, in the spirit of mpv's
// present_sync. Nothing here reads a clock or talks to a compositor; callers
// feed timestamps (nanoseconds on one monotonic clock, normally the clock the
// compositor's presentation feedback uses) and sequence counters, which keeps
// every decision reproducible in unit tests.

/// Nanoseconds in one second, as the integer type used for durations.
public let nanosecondsPerSecond: Int64 = 1_000_000_000

/// Helpers for reasoning about the regular grid of vertical blanks an output
/// presents on.
public enum VBlankGrid {
    /// The first point of the grid `anchorNs + n * periodNs` (with `n >= 1`)
    /// that lies strictly after `nowNs`, or `anchorNs + periodNs` when `nowNs`
    /// is `nil` or not after the anchor.
    ///
    /// A non-positive period is treated as 1 ns so this never divides by zero;
    /// the result saturates at `UInt64.max` instead of overflowing.
    public static func next(after anchorNs: UInt64, periodNs: Int64, nowNs: UInt64? = nil) -> UInt64 {
        let period = UInt64(max(periodNs, 1))
        var steps: UInt64 = 1
        if let now = nowNs, now >= anchorNs {
            steps = (now - anchorNs) / period + 1
        }
        let (offset, overflow1) = steps.multipliedReportingOverflow(by: period)
        let (result, overflow2) = anchorNs.addingReportingOverflow(offset)
        return overflow1 || overflow2 ? UInt64.max : result
    }
}
