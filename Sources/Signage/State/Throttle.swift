public import Screenplay

/// Lets a repeated warning through at most once per period (CLOCK_MONOTONIC,
/// so a clock step neither silences nor floods it).
public struct Throttle: Sendable {
    /// The period, in seconds.
    public let seconds: Double
    private var last: UInt64?

    /// At most one warning per `seconds`.
    public init(seconds: Double) { self.seconds = seconds }

    /// Whether a warning may go out now (and if so, the period starts again).
    public mutating func allows(nowNs: UInt64 = monotonicNanoseconds()) -> Bool {
        if let last, Double(nowNs &- last) / 1e9 < seconds { return false }
        last = nowNs
        return true
    }
}
