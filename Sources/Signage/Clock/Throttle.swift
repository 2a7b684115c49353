import Screenplay

/// Lets a repeated warning through at most once per period (CLOCK_MONOTONIC,
/// so a clock step neither silences nor floods it): a failure that repeats
/// every frame or every request is said once a minute, not thousands of times.
public struct Throttle: Sendable {
    /// The shortest time between two lines let through, in seconds.
    public let seconds: Double
    private var last: UInt64?

    /// A throttle that lets its first line through at once.
    public init(seconds: Double) { self.seconds = seconds }

    /// Whether a line may go now; when it may, the period starts again.
    public mutating func allows() -> Bool { allows(nowNs: monotonicNanoseconds()) }

    /// `allows()` at `nowNs` on the monotonic clock.
    mutating func allows(nowNs: UInt64) -> Bool {
        if let last, Double(nowNs &- last) / 1e9 < seconds { return false }
        last = nowNs
        return true
    }
}
