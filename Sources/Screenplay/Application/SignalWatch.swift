import Dispatch
import Foundation

/// Catches signals and hands them to the main queue (never runs anything
/// inside a signal handler, so teardown may run), holds a teardown deadline
/// that a stuck main thread cannot delay, and puts the earlier handlers back.
@MainActor
final class SignalWatch {
    /// One dispatch source per signal for the life of the process: a
    /// source made again after an earlier one was cancelled never fired
    /// here (a second `run()` in one process did not hear SIGTERM), so the
    /// sources stay and only the handler changes.
    private static var sources: [Int32: any DispatchSourceSignal] = [:]
    private static var handlers: [Int32: @MainActor (Int32) -> Void] = [:]
    /// The sources' queue, not the main one: the deadline must be armed
    /// while the main thread is stuck in a draw.
    nonisolated private static let queue = DispatchQueue(label: "screenplay.signals")
    /// The deadline of the watch in place, read on `queue`.
    nonisolated private static let armed = ArmedDeadline()
    private let signals: [Int32]

    /// Watches `signals`: each arrival runs `handler` on the main queue and,
    /// with a `deadline`, starts its clock (`drawWatch` names the draw the
    /// main thread is stuck in when it passes).
    init(
        _ signals: [Int32], deadline: TeardownDeadline? = nil, drawWatch: DrawWatch? = nil,
        handler: @escaping @MainActor (Int32) -> Void
    ) {
        self.signals = signals
        Self.armed.set(deadline.map { ($0, drawWatch) })
        for sig in signals {
            Self.handlers[sig] = handler
            guard Self.sources[sig] == nil else { continue }
            // Ignored, so the default action (exit) does not run; the
            // dispatch source still sees each delivery.
            signal(sig, SIG_IGN)
            Self.sources[sig] = Self.makeSource(sig)
        }
    }

    /// Made outside the main actor: its handler runs on `queue`.
    nonisolated private static func makeSource(_ sig: Int32) -> any DispatchSourceSignal {
        let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
        source.setEventHandler {
            DispatchQueue.main.async { MainActor.assumeIsolated { deliver(sig) } }
            startDeadline(for: sig)
        }
        source.resume()
        return source
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

    /// Runs on `queue`: if the same watch is still in place when the
    /// deadline passes, `run` has not returned, and the process leaves.
    nonisolated private static func startDeadline(for sig: Int32) {
        guard let started = armed.get() else { return }
        let (deadline, watch) = (started.deadline, started.watch)
        queue.asyncAfter(deadline: .now() + deadline.seconds) {
            guard let still = armed.get(), still.generation == started.generation else { return }
            let overdue = TeardownOverdue(
                signal: StopSignal(sig), seconds: deadline.seconds, draw: watch?.drawInProgress,
                exitStatus: deadline.exitStatus)
            writeStandardError(deadline.message(overdue) + "\n")
            _exit(deadline.exitStatus)
        }
    }

    /// Hands the signals back (to the default action) and drops the deadline.
    func restore() {
        for sig in signals { Self.handlers[sig] = nil }
        Self.armed.set(nil)
    }
}

/// The deadline in force, shared between the main thread (which sets it)
/// and the signal queue (which reads it). A generation tells a deadline
/// started for one `run` from the next one's.
private final class ArmedDeadline: @unchecked Sendable {
    // @unchecked: both stored properties are read and written only with `lock` held.
    private let lock = NSLock()
    private var value: (deadline: TeardownDeadline, watch: DrawWatch?)?
    private var generation = 0

    func set(_ value: (TeardownDeadline, DrawWatch?)?) {
        lock.lock()
        defer { lock.unlock() }
        self.value = value.map { (deadline: $0.0, watch: $0.1) }
        generation += 1
    }

    func get() -> (deadline: TeardownDeadline, watch: DrawWatch?, generation: Int)? {
        lock.lock()
        defer { lock.unlock() }
        return value.map { ($0.deadline, $0.watch, generation) }
    }
}

/// Straight to fd 2 with write(2): usable from any thread while the main one is stuck.
func writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if written <= 0 { return }
        offset += written
    }
}
