import Dispatch
import EventLoop
import Glibc

extension Application {
    /// Runs the app, as `UIApplicationMain`: drains the main queue on the
    /// main thread (`RunLoop.main`, or one poll when
    /// `RunOptions.waitsInRunLoop` is false; `dispatchMain()` would hand the
    /// main queue to pool threads on Linux, and an EGL context is current on
    /// one thread only) until the app is done, then returns.
    ///
    /// It returns when SIGINT or SIGTERM arrives (every scene is torn down
    /// and the connection closed, as by `shutdown()`), or when the app calls
    /// `shutdown()` itself. It throws when the compositor goes away and
    /// `ApplicationOptions.whenCompositorGoes` is `.stop` (the application
    /// is shut down first); with `.reconnect` it keeps running and waits for
    /// the compositor instead. Signal handlers in place before the call are
    /// put back when it returns. `options` says what a signal does instead
    /// of `shutdown()`, and how long the teardown may take (`RunOptions`).
    ///
    /// ```swift
    /// let app = try Application()
    /// app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: scoreboard))
    /// try app.run()
    /// ```
    public func run(_ options: RunOptions = RunOptions()) throws(ApplicationError) {
        dispatchPrecondition(condition: .onQueue(.main))
        guard !isShutDown, !isRunning else { return }
        isRunning = true
        runError = nil
        let signals = SignalWatch(
            [SIGINT, SIGTERM], deadline: options.teardownDeadline, drawWatch: self.options.drawWatch
        ) { [weak self] sig in
            if let onStopSignal = options.onStopSignal { onStopSignal(StopSignal(sig)) } else { self?.shutdown() }
        }
        defer {
            signals.restore()
            isRunning = false
        }
        MainThreadRunner.run(inRunLoop: options.waitsInRunLoop) { isShutDown }
        if let runError {
            self.runError = nil
            throw runError
        }
    }
}
