import EventLoop

/// Screenplay's work on the main thread, for an app that owns the main
/// thread's loop instead of calling `Application.run()` (an SDL game, a
/// fixed-step simulation). The loop is the process's, not one
/// application's: every `Application` of the process shares it.
@MainActor
public enum EventPump {
    /// A file descriptor that turns readable whenever Screenplay has work on
    /// the main thread: Wayland events, a due timer (frame pacing, feedback,
    /// reconnect attempts), a batch it asked for, a video decoder's wake-up.
    ///
    /// For an app that owns the main thread's loop instead of calling
    /// `Application.run()` (an SDL game, a fixed-step simulation): poll this descriptor
    /// for reading among your own, and call `processEvents()` when it is
    /// readable or when `nextDeadline` has passed. Every scene is then
    /// drawn, every hot-plug handled and every timer honoured as under
    /// `run()`. The descriptor is one per process (all applications share
    /// it) and stays open; never read from it or close it.
    ///
    /// ```swift
    /// var fds = [pollfd(fd: EventPump.fileDescriptor, events: Int16(POLLIN), revents: 0)]
    /// while playing {
    ///     stepGame()
    ///     _ = poll(&fds, 1, EventPump.timeoutMilliseconds(atMost: 16))
    ///     EventPump.processEvents()
    /// }
    /// ```
    ///
    /// Apps that drain libdispatch's main queue (`run()`, `RunLoop.main`)
    /// need none of this: the main queue drives the same loop.
    public static var fileDescriptor: Int32 { MainEventLoop.shared.fileDescriptor }

    /// Does everything that is ready, without blocking: reads and handles
    /// Wayland events, runs due timers, draws the scenes that are due, and
    /// flushes requests to the compositor. Call it on the main thread, from
    /// your loop, whenever `fileDescriptor` is readable or
    /// `nextDeadline` has passed; calling it more often is harmless.
    ///
    /// It draws with Screenplay's own EGL context and puts back the EGL
    /// display, context and draw and read surfaces that were current before
    /// (your SDL or EGL context stays current). Do not call it from inside a
    /// Screenplay handler: such a call returns at once.
    public static func processEvents() {
        MainEventLoop.shared.process()
    }

    /// When Screenplay's next timer is due (CLOCK_MONOTONIC nanoseconds, the
    /// clock of `monotonicNanoseconds()`), or nil when none is set. The
    /// descriptor also turns readable then; a loop that sleeps some other
    /// way (SDL's `SDL_WaitEventTimeout`) should wake by this time and call
    /// `processEvents()`.
    public static var nextDeadline: UInt64? { MainEventLoop.shared.nextDeadlineNs }

    /// How long a `poll` may wait before `processEvents()` is due by a timer,
    /// in milliseconds rounded up: `-1` (wait for the descriptor) when no
    /// timer is set, else at most `limit` when one is given.
    public static func timeoutMilliseconds(atMost limit: Int32? = nil) -> Int32 {
        MainEventLoop.shared.pollTimeoutMilliseconds(atMost: limit)
    }
}
