import Foundation
import Screenplay

/// Keeps a renderer stuck in a draw (an endless shader loop, a driver that
/// never returns) from taking the process with it, through the library's
/// two guards: the stuck main thread cannot stop either.
/// - `DrawWatch.startWatchdog`: a draw that runs longer than `grace`
///   (`--stall-grace`) names the scene's output and content, runs the
///   command's hook (`play` remembers the item) and exits 70 (EX_SOFTWARE)
///   so a service manager restarts the process.
/// - `runOptions`: SIGINT and SIGTERM tear down on the main queue; if
///   `Application.run` has not returned after `teardownSeconds` (the main
///   thread is inside a draw), the process leaves at once with status 70,
///   saying so.
///
/// Content that is merely slow keeps the scene's slow-frame warning: only a
/// single draw longer than the whole grace period counts.
final class HangGuard: Sendable {
    /// Handed to the application (`ApplicationOptions.drawWatch`).
    let watch = DrawWatch()
    /// Seconds one draw may take before the renderer counts as stuck.
    let grace: Double
    /// How long the main thread gets to tear down after a signal.
    static let teardownSeconds = 1.5

    init(grace: Double) { self.grace = grace }

    /// Starts the watchdog. `onHang` runs on its thread (not on the main
    /// thread, which is stuck) with the stuck draw and may return a line
    /// to add to the message; then the process exits 70.
    func start(onHang: @escaping @Sendable (DrawWatch.Draw) -> String? = { _ in nil }) {
        watch.startWatchdog(stuckAfter: grace, exitStatus: ExitCode.software.rawValue) { [grace] draw in
            var message = String(
                format:
                    "screenplay: the draw on %@ (%@) has not returned for %.1f s (--stall-grace %@): the renderer is stuck; exiting with status 70 so a service manager restarts screenplay",
                draw.screen, draw.content, draw.seconds(), formatSeconds(grace))
            if let extra = onHang(draw) { message += "; " + extra }
            return message
        }
    }

    /// How `Application.run` ends: `stop` tears down on the main queue,
    /// within `teardownSeconds` or the process exits 70 naming the draw it
    /// is stuck in. It waits in one poll, not `RunLoop.main`: nothing of
    /// the tool's uses a Foundation timer or run-loop source, and every
    /// frame costs less.
    static func runOptions(stop: @escaping @MainActor @Sendable (StopSignal) -> Void) -> RunOptions {
        RunOptions(
            onStopSignal: stop,
            teardownDeadline: TeardownDeadline(seconds: teardownSeconds, exitStatus: ExitCode.software.rawValue) {
                "screenplay: \($0)"
            }, waitsInRunLoop: false)
    }
}

/// "30" for whole seconds, "0.5" otherwise.
func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
}

extension CLICommand {
    /// `--stall-grace SECONDS` for the commands that show scenes (present, play).
    static func parseStallGrace(_ value: String?) throws(UsageError) -> Double {
        guard let value else { return 30 }
        guard let seconds = Double(value), seconds.isFinite, seconds > 0 else {
            throw usageError("invalid value '\(value)' for '--stall-grace': expected a positive number of seconds")
        }
        return seconds
    }
}
