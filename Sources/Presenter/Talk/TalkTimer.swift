import Foundation

/// Time since the talk started, with pause and reset. Times are seconds on
/// a monotonic clock, passed in so tests control them.
struct TalkTimer: Equatable, Sendable {
    private(set) var accumulated: Double = 0
    private(set) var runningSince: Double?
    /// False until the first page change (or F5 / t) starts it.
    private(set) var hasStarted = false

    var isRunning: Bool { runningSince != nil }

    func elapsed(at now: Double) -> Double { accumulated + (runningSince.map { max(0, now - $0) } ?? 0) }

    /// Starts the timer the first time only (page changes call this).
    mutating func startIfNeeded(at now: Double) {
        guard !hasStarted else { return }
        start(at: now)
    }

    /// Starts as if it had started `elapsed` seconds ago (a start time
    /// that passed before the presenter started).
    mutating func start(at now: Double, alreadyElapsed elapsed: Double) {
        accumulated = max(0, elapsed)
        runningSince = now
        hasStarted = true
    }

    /// Starts from zero, now.
    mutating func restart(at now: Double) {
        accumulated = 0
        runningSince = now
        hasStarted = true
    }

    mutating func start(at now: Double) {
        hasStarted = true
        if runningSince == nil { runningSince = now }
    }

    /// Pauses a running timer, resumes a paused one (and starts one that never ran).
    mutating func toggle(at now: Double) {
        if let since = runningSince {
            accumulated += max(0, now - since)
            runningSince = nil
        } else {
            start(at: now)
        }
    }

    /// Back to zero; a running timer keeps running from zero, a paused one stays paused.
    mutating func reset(at now: Double) {
        accumulated = 0
        if runningSince != nil { runningSince = now }
    }
}
