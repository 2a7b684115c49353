import Dispatch
import Foundation

extension Application {
    /// Runs the app, as `UIApplicationMain`: drains the main queue on the
    /// main thread (`RunLoop.main`; `dispatchMain()` would hand the main
    /// queue to pool threads on Linux, and an EGL context is current on one
    /// thread only) until the app is done, then returns.
    ///
    /// It returns when SIGINT or SIGTERM arrives (every scene is torn down
    /// and the connection closed, as by `shutdown()`), or when the app calls
    /// `shutdown()` itself. It throws when the compositor goes away and
    /// `ApplicationOptions.whenCompositorGoes` is `.stop` (the application
    /// is shut down first); with `.reconnect` it keeps running and waits for
    /// the compositor instead. Signal handlers in place before the call are
    /// put back when it returns.
    ///
    /// ```swift
    /// let app = try Application()
    /// app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: scoreboard))
    /// try app.run()
    /// ```
    public func run() throws(ApplicationError) {
        dispatchPrecondition(condition: .onQueue(.main))
        guard !isShutDown, !isRunning else { return }
        isRunning = true
        runError = nil
        let signals = SignalWatch([SIGINT, SIGTERM]) { [weak self] _ in self?.shutdown() }
        defer {
            signals.restore()
            isRunning = false
        }
        while !isShutDown {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
        if let runError {
            self.runError = nil
            throw runError
        }
    }
}

/// Catches signals on the main queue (never inside a signal handler, so
/// teardown may run), and puts the earlier dispositions back.
@MainActor
final class SignalWatch {
    private var sources: [any DispatchSourceSignal] = []
    private var previous: [(Int32, sighandler_t?)] = []

    init(_ signals: [Int32], handler: @escaping @MainActor (Int32) -> Void) {
        for sig in signals {
            // Ignored, so the default action (exit) does not run; the
            // dispatch source still sees each delivery.
            previous.append((sig, signal(sig, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { handler(sig) } }
            source.resume()
            sources.append(source)
        }
    }

    func restore() {
        for source in sources { source.cancel() }
        sources.removeAll()
        for (sig, handler) in previous { signal(sig, handler) }
        previous.removeAll()
    }
}
