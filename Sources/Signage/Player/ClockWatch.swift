import Dispatch
import Foundation
import Screenplay

/// Looks once a second whether the wall clock was stepped (NTP at boot
/// on a box without a clock battery, an administrator's `date -s`):
/// the wall clock less the monotonic one moves by more than NTP's
/// slewing could. It costs one comparison a second; timerfd's
/// TFD_TIMER_CANCEL_ON_SET would say it without a timer, but a clock
/// faked for tests (libfaketime) never sets it off.
@MainActor
final class ClockWatch {
    /// The wall clock less the monotonic one at the last look.
    private var offset: Double
    private let timer: any DispatchSourceTimer

    /// Starts watching; `stepped` gets the step in seconds (negative: back).
    init(stepped: @escaping @MainActor (Double) -> Void) {
        offset = wallSeconds() - monotonicSeconds()
        timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let offset = wallSeconds() - monotonicSeconds()
                let step = offset - self.offset
                self.offset = offset
                if abs(step) > 0.05 { stepped(step) }
            }
        }
        timer.resume()
    }

    /// No more looks.
    func stop() { timer.cancel() }
}
