import Dispatch

/// When to try a lost broker again: after 1 s, doubling to 60 s, with ±10 %
/// jitter so a fleet that lost one broker does not come back in one burst.
@MainActor
final class MQTTRetry {
    private var backoff = 1.0
    private var timer: (any DispatchSourceTimer)?

    /// A connect went through: the next loss waits 1 s again.
    func reset() { backoff = 1 }

    /// The wait before the next try, doubling the one after it.
    func nextDelay() -> Double {
        let delay = backoff * Double.random(in: 0.9...1.1)
        backoff = min(backoff * 2, 60)
        return delay
    }

    /// Runs `attempt` on the main queue after `delay` seconds, instead of any try scheduled before.
    func schedule(after delay: Double, _ attempt: @escaping @MainActor () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + delay)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.timer = nil
                attempt()
            }
        }
        timer.resume()
        self.timer?.cancel()
        self.timer = timer
    }

    /// Drops the scheduled try.
    func cancel() {
        timer?.cancel()
        timer = nil
    }
}
