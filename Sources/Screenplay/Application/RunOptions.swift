import Foundation

/// How `Application.run(_:)` ends when SIGINT or SIGTERM arrives.
///
/// By default a signal shuts the application down and `run` returns. An app
/// with more to undo first (a mode to put back, a registration to hand
/// back, a service manager to tell) sets `onStopSignal`; an app that must
/// never hang on the way out (a kiosk under a service manager) sets a
/// `teardownDeadline`, so a main thread stuck inside a draw cannot keep the
/// process alive.
///
/// ```swift
/// var options = RunOptions()
/// options.onStopSignal = { signal in
///     print("\(signal): tearing down")
///     app.unregisterSceneAccessory(registration)
///     app.shutdown()
/// }
/// options.teardownDeadline = TeardownDeadline(seconds: 1.5)
/// try app.run(options)
/// ```
public struct RunOptions: Sendable {
    /// Runs on the main queue (never inside a signal handler) when SIGINT or
    /// SIGTERM arrives, instead of `Application.shutdown()`. It tears down
    /// what the app made and then calls `shutdown()`, which makes `run`
    /// return; it may also end the process itself.
    public var onStopSignal: (@MainActor @Sendable (StopSignal) -> Void)?
    /// How long `run` may take to return after a signal before the process
    /// ends anyway; nil waits for as long as it takes.
    public var teardownDeadline: TeardownDeadline?
    /// Whether `run` waits in `RunLoop.main` (the default), so Foundation
    /// `Timer`s and other sources on the main run loop fire, as they do
    /// under UIKit's main loop. False waits in one poll(2) on Screenplay's
    /// events and the main queue: main-queue blocks, dispatch sources and
    /// main-actor tasks still run, `RunLoop.main` never does. It costs less
    /// a frame, because libdispatch's event thread no longer relays each
    /// wake-up to the main thread (about 0.07 ms of CPU a frame with
    /// llvmpipe): for an app whose main-thread work all comes that way, as
    /// the `screenplay` tool's does.
    public var waitsInRunLoop: Bool

    /// A signal shuts the application down, with no deadline.
    public init(
        onStopSignal: (@MainActor @Sendable (StopSignal) -> Void)? = nil, teardownDeadline: TeardownDeadline? = nil,
        waitsInRunLoop: Bool = true
    ) {
        self.onStopSignal = onStopSignal
        self.teardownDeadline = teardownDeadline
        self.waitsInRunLoop = waitsInRunLoop
    }
}

/// A signal that asks the app to stop.
public enum StopSignal: Sendable, Equatable, CustomStringConvertible {
    /// SIGINT: Ctrl-C in a terminal.
    case interrupt
    /// SIGTERM: a service manager or `kill` stopping the process.
    case terminate

    /// The signal's number, as `kill(2)` takes it.
    public var number: Int32 { self == .interrupt ? SIGINT : SIGTERM }

    /// `SIGINT` or `SIGTERM`.
    public var description: String { self == .interrupt ? "SIGINT" : "SIGTERM" }

    init(_ number: Int32) { self = number == SIGINT ? .interrupt : .terminate }
}

/// The longest a teardown after SIGINT or SIGTERM may take. Counted on a
/// thread of its own from the signal's arrival: if `Application.run(_:)`
/// has not returned by then (the main thread is stuck in a draw that never
/// returns, or in the app's own code), the process writes `message` to
/// stderr and leaves at once with `exitStatus` (`_exit`: no teardown, no
/// atexit handlers, since the main thread could not run them), so a service
/// manager restarts it instead of waiting for its own stop timeout.
public struct TeardownDeadline: Sendable {
    /// Seconds from the signal to the forced exit.
    public var seconds: Double
    /// The status the process exits with: 70 (EX_SOFTWARE) by default.
    public var exitStatus: Int32
    /// The line written to stderr before the exit; by default
    /// `TeardownOverdue.description`.
    public var message: @Sendable (TeardownOverdue) -> String

    /// A deadline of `seconds`, exiting with `exitStatus` after `message`.
    public init(
        seconds: Double, exitStatus: Int32 = 70,
        message: @escaping @Sendable (TeardownOverdue) -> String = { $0.description }
    ) {
        self.seconds = seconds
        self.exitStatus = exitStatus
        self.message = message
    }
}

/// What is known when a `TeardownDeadline` passes, for its message.
public struct TeardownOverdue: Sendable, CustomStringConvertible {
    /// The signal that asked for the teardown.
    public let signal: StopSignal
    /// The deadline that passed.
    public let seconds: Double
    /// The draw the main thread is inside, when the application has a
    /// `DrawWatch` (`ApplicationOptions.drawWatch`); nil when it is busy
    /// elsewhere or nothing watches draws.
    public let draw: DrawWatch.Draw?
    /// The status the process is about to exit with.
    public let exitStatus: Int32

    /// `SIGTERM: no teardown after 1.5 s (it is inside the draw on HDMI-A-1
    /// (shader x.glsl) for 3.2 s); exiting at once with status 70`.
    public var description: String {
        let stuck =
            draw.map {
                "it is inside the draw on \($0.screen) (\($0.content)) for \(String(format: "%.1f", $0.seconds())) s"
            } ?? "the main thread is busy"
        return
            "\(signal): no teardown after \(Self.format(seconds)) s (\(stuck)); exiting at once with status \(exitStatus)"
    }

    /// "2" for whole seconds, "1.5" otherwise.
    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
