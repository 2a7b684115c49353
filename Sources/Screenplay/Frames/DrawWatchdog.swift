import Foundation

extension DrawWatch {
    /// Ends the process when one draw runs longer than `seconds`: a
    /// renderer stuck in a draw (an endless shader loop, a driver call that
    /// never returns) holds the main thread, so the app can neither show
    /// anything nor tear down, and a service manager restarting the process
    /// is the way back.
    ///
    /// A thread of its own waits on this watch (it sleeps while nothing
    /// draws, so idle content costs no wake-ups); when a draw passes
    /// `seconds`, it writes `message(draw)` to stderr and leaves at once
    /// with `exitStatus` (`_exit`: the main thread cannot run any
    /// teardown). `message` runs on that thread, not the main one, and may
    /// do brief work of its own first (record which content hung, so it is
    /// skipped after the restart). Content that is merely slow is no hang:
    /// only a single draw longer than `seconds` counts.
    public func startWatchdog(
        stuckAfter seconds: Double, exitStatus: Int32 = 70, message: @escaping @Sendable (Draw) -> String
    ) {
        let thread = Thread { [self] in
            let draw = waitForDraw(runningLongerThan: seconds)
            writeStandardError(message(draw) + "\n")
            _exit(exitStatus)
        }
        thread.name = "screenplay-draw-watchdog"
        thread.start()
    }
}
