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
    /// One dispatch source per signal for the life of the process: a
    /// source made again after an earlier one was cancelled never fired
    /// here (a second `run()` in one process did not hear SIGTERM), so the
    /// sources stay and only the handler changes.
    private static var sources: [Int32: any DispatchSourceSignal] = [:]
    private static var handlers: [Int32: @MainActor (Int32) -> Void] = [:]
    private let signals: [Int32]

    init(_ signals: [Int32], handler: @escaping @MainActor (Int32) -> Void) {
        self.signals = signals
        for sig in signals {
            Self.handlers[sig] = handler
            guard Self.sources[sig] == nil else { continue }
            // Ignored, so the default action (exit) does not run; the
            // dispatch source still sees each delivery.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { Self.deliver(sig) } }
            source.resume()
            Self.sources[sig] = source
        }
    }

    /// A signal while nobody watches does what it would have done: the
    /// default action (SIGINT and SIGTERM end the process).
    private static func deliver(_ sig: Int32) {
        if let handler = handlers[sig] {
            handler(sig)
        } else {
            signal(sig, SIG_DFL)
            raise(sig)
        }
    }

    func restore() {
        for sig in signals { Self.handlers[sig] = nil }
    }
}
