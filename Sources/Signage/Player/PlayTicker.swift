import Dispatch
import Foundation
import Screenplay

/// `play`'s one timer for every panel: panels that switch at the same
/// instant switch in the same turn of the main queue, so they draw in the
/// same batch and reach their screens on the same refresh.
@MainActor
final class PlayTicker {
    /// The earliest moment anything is due (wall clock): an item boundary, a schedule's change, an override's expiry.
    private let nextDeadline: @MainActor () -> Double?
    /// What a tick does, at the wall-clock time it reads.
    private let fire: @MainActor (Double) -> Void
    private var timer: (any DispatchSourceTimer)?
    private var deadline: Double?

    init(nextDeadline: @escaping @MainActor () -> Double?, fire: @escaping @MainActor (Double) -> Void) {
        self.nextDeadline = nextDeadline
        self.fire = fire
    }

    /// Wall-clock now, a hair ahead so a timer that fires on a boundary
    /// lands after it.
    static func now() -> Double { wallSeconds() + 0.0005 }

    /// Arms the timer for the next deadline (left alone when that did not move).
    func schedule() {
        let deadline = nextDeadline()
        guard deadline != self.deadline else { return }
        self.deadline = deadline
        timer?.cancel()
        timer = nil
        guard let deadline else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        // Armed on the monotonic clock: a wall-clock deadline would wait out
        // a step back (minutes of a frozen item) before the clock watch
        // could say anything. A step is the clock watch's to handle.
        let delay = max(0, deadline - Self.now())
        timer.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .nanoseconds(0))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.deadline = nil
                self?.tick()
            }
        }
        timer.resume()
        self.timer = timer
    }

    /// A tick now, in place of the armed one (the wall clock stepped).
    func tickNow() {
        deadline = nil
        timer?.cancel()
        timer = nil
        tick()
    }

    /// Re-evaluates on the next turn of the main queue (media became ready).
    func tickSoon() {
        DispatchQueue.main.async { MainActor.assumeIsolated { [weak self] in self?.tick() } }
    }

    private func tick() {
        fire(Self.now())
        schedule()
    }
}
