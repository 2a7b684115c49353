import Dispatch
import Foundation
import Screenplay

/// The talk's time on the console: a once-a-second tick for the wall clock
/// and the talk timer in the top bar, and the timer's own start at a start
/// time (`--start-time`, pdfpc's `startTime`).
@MainActor
final class TalkClock {
    private weak var presenter: Presenter?
    private var tick: (any DispatchSourceTimer)?

    init(presenter: Presenter) { self.presenter = presenter }

    /// Starts the tick, and schedules the timer's start where a start time is set.
    func start() {
        // The clock and timers change once a second: the tick repaints the
        // top bar alone; nothing else redraws the console while the
        // speaker is not pressing keys.
        let clock = DispatchSource.makeTimerSource(queue: .main)
        clock.schedule(deadline: .now() + 1, repeating: 1)
        clock.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.secondPassed() } }
        clock.resume()
        tick = clock
        scheduleTimerStart()
    }

    /// Stops the tick (the talk closes).
    func stop() {
        tick?.cancel()
        tick = nil
    }

    /// Once a second: the console's top bar shows the wall clock and the
    /// talk timer. Only the bar is repainted, and only when what it shows
    /// changed (a clock hidden with `--no-clock` and a timer not running
    /// leave the console undrawn). The tool writes each scene's frames line.
    func secondPassed() {
        if let console = presenter?.console, let delegate = console.delegate as? ConsoleDelegate,
            let drawn = delegate.drawnBar,
            delegate.bar(at: Double(monotonicNanoseconds()) / 1e9, date: Date()) != drawn
        {
            let bar = ConsoleLayout(width: console.pixelSize.width, height: console.pixelSize.height).bar
            console.setNeedsDisplay(in: SceneRect(x: bar.x, y: bar.y, width: bar.width, height: bar.height))
        }
    }

    /// A start time: the timer starts by itself then; one that passed
    /// counts from it.
    private func scheduleTimerStart() {
        guard let presenter, let startsAt = presenter.files.timing.startsAt else { return }
        let wait = startsAt.timeIntervalSinceNow
        let now = Double(monotonicNanoseconds()) / 1e9
        if wait <= 0 {
            presenter.state.timer.start(at: now, alreadyElapsed: -wait)
            return
        }
        presenter.state.timerWaitsForStart = true
        DispatchQueue.main.asyncAfter(deadline: .now() + wait) { [weak self] in
            MainActor.assumeIsolated {
                guard let presenter = self?.presenter, presenter.state.timerWaitsForStart else { return }
                presenter.state.timerWaitsForStart = false
                presenter.state.timer.start(at: Double(monotonicNanoseconds()) / 1e9, alreadyElapsed: 0)
                presenter.emit(["event": "timer-started", "reason": "start time"])
                presenter.console?.setNeedsDisplay()
            }
        }
    }
}
