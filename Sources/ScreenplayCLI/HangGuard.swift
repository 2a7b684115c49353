import Dispatch
import Foundation
import Screenplay

/// Keeps a renderer stuck in a draw (an endless shader loop, a driver that
/// never returns) from taking the process with it.
///
/// The main thread is the one stuck: the swap waits for llvmpipe's threads
/// on it, so nothing queued on the main queue runs again. Two things here
/// run off it:
/// - SIGINT and SIGTERM arrive on a queue of their own. They ask the main
///   queue for the usual teardown; if it has not finished after
///   `teardownSeconds` (the main thread is inside a draw), the process
///   leaves at once with `_exit`, saying so.
/// - A thread waits on the `DrawWatch` for a draw that runs longer than
///   `grace` (`--stall-grace`), names the scene's output and content, runs
///   the command's hook (`play` remembers the item) and exits 70
///   (EX_SOFTWARE) so a service manager restarts the process.
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
    private let signalQueue = DispatchQueue(label: "screenplay.signals")

    init(grace: Double) { self.grace = grace }

    /// True while a draw has run longer than the grace period. A systemd
    /// watchdog must not ping then (`WATCHDOG=1`): the process exits 70
    /// right after, and if it cannot, systemd's own watchdog should fire.
    var isStalled: Bool { watch.draw(runningLongerThan: grace) != nil }

    /// Starts the watching thread. `onHang` runs on it (not on the main
    /// thread, which is stuck) with the stuck draw and may return a line
    /// to add to the message; then the process exits 70.
    func start(onHang: @escaping @Sendable (DrawWatch.Draw) -> String? = { _ in nil }) {
        let thread = Thread { [watch, grace] in
            let draw = watch.waitForDraw(runningLongerThan: grace)
            var message = String(
                format:
                    "the draw on %@ (%@) has not returned for %.1f s (--stall-grace %@): the renderer is stuck; exiting with status 70 so a service manager restarts screenplay",
                draw.screen, draw.content, draw.seconds(), formatSeconds(grace))
            if let extra = onHang(draw) { message += "; " + extra }
            writeStandardError("screenplay: " + message + "\n")
            _exit(ExitCode.software.rawValue)
        }
        thread.name = "screenplay-hang-guard"
        thread.start()
    }

    /// SIGINT and SIGTERM call `stop` on the main queue (the usual
    /// teardown, which exits); if the main thread does not get to it
    /// within `teardownSeconds`, the process exits 70 without tearing
    /// down, naming the draw it is stuck in.
    /// Not main-actor isolated: the handlers run on the signal queue.
    func installStopSignals(_ stop: @escaping @Sendable @MainActor (Int32) -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: signalQueue)
            source.setEventHandler { [watch, signalQueue] in
                DispatchQueue.main.async { MainActor.assumeIsolated { stop(sig) } }
                signalQueue.asyncAfter(deadline: .now() + Self.teardownSeconds) {
                    let name = sig == SIGINT ? "SIGINT" : "SIGTERM"
                    let stuck =
                        watch.drawInProgress.map {
                            String(
                                format: "it is inside the draw on %@ (%@) for %.1f s", $0.screen, $0.content,
                                $0.seconds())
                        } ?? "the main thread is busy"
                    writeStandardError(
                        "screenplay: \(name): no teardown after \(formatSeconds(Self.teardownSeconds)) s (\(stuck)); exiting at once with status 70\n"
                    )
                    _exit(ExitCode.software.rawValue)
                }
            }
            source.resume()
            return source
        }
    }
}

/// Straight to fd 2: usable from any thread while the main one is stuck.
func writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if written <= 0 { return }
        offset += written
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
