import Foundation
import Screenplay

/// Where a playlist is at a moment: pure arithmetic over the items'
/// durations, so it is unit tested without a screen.
///
/// With clock alignment (`"sync": true`) the origin is the Unix epoch: every
/// panel (and every box with a set clock) playing the same playlist agrees
/// on the item and on when it changes, and a panel that comes back resumes
/// at the clock's item. Without it the origin is when the panel appeared.
public struct PlaySchedule: Equatable {
    /// The items' durations in seconds, in playing order.
    public let durations: [Double]
    /// Wall-clock seconds (since 1970) at which a cycle starts.
    public let origin: Double

    /// A cycle of `durations` (each more than 0) starting at `origin`.
    public init(durations: [Double], origin: Double) {
        precondition(
            !durations.isEmpty && durations.allSatisfy { $0 > 0 }, "a schedule needs items with positive durations")
        self.durations = durations
        self.origin = origin
    }

    var total: Double { durations.reduce(0, +) }

    /// The item on at wall-clock time `t`, with the times its slot starts and ends.
    public func position(at t: Double) -> (index: Int, start: Double, end: Double) {
        let total = self.total
        let cycle = ((t - origin) / total).rounded(.down)
        var start = origin + cycle * total
        for (index, duration) in durations.enumerated() {
            let end = start + duration
            // Float error at the seam: an instant a hair before the end
            // belongs to the next slot only once it is reached.
            if t < end || index == durations.count - 1 { return (index, start, end) }
            start = end
        }
        return (durations.count - 1, start, start + durations[durations.count - 1])
    }

    /// Whether a frame of item `index`, drawn at `t`, would reach the screen
    /// only after that item's slot has ended, given that a frame takes up to
    /// `latency` seconds from the draw to the screen. Such a frame would show
    /// the item in the next item's slot (proof of play saying the wrong item).
    public func slotEnds(of index: Int, before t: Double, latency: Double) -> Bool {
        guard durations.count > 1 else { return false }
        return position(at: t + latency).index != index
    }
}

/// Wall-clock seconds since 1970 (CLOCK_REALTIME).
public func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CLOCK_MONOTONIC in seconds: for how long things last (a crossfade, a
/// shader's time, timers), which a step of the wall clock must not change.
public func monotonicSeconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }

/// ISO 8601 UTC with milliseconds, for proof-of-play lines.
public func iso8601(wallSeconds seconds: Double) -> String {
    var time = time_t(seconds.rounded(.down))
    var parts = tm()
    gmtime_r(&time, &parts)
    let millis = Int(((seconds - seconds.rounded(.down)) * 1000).rounded(.down))
    return String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
        parts.tm_hour, parts.tm_min, parts.tm_sec, millis)
}
