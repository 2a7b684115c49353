import Foundation

/// Poppler's globals (its GlobalParams with the font and Unicode caches)
/// are C++ statics that `exit` destroys, in whatever thread calls it, while
/// a page may still be rendering on another: that render then reads freed
/// memory. Seen as a crash at SIGTERM during the presenter's first renders
/// (a slide worker in poppler's Unicode map cache, the main thread in
/// libsmime3's exit handlers). Every poppler call passes this gate; an exit
/// handler, registered after poppler's own so it runs before them, closes
/// it and waits for the calls in flight. A call that comes after waits for
/// good: the process is ending.
final class PopplerGate: @unchecked Sendable {
    // @unchecked: `inFlight` and `closed` are read and written only with `condition` locked.
    static let shared: PopplerGate = {
        let gate = PopplerGate()
        atexit { PopplerGate.shared.close() }
        return gate
    }()
    private let condition = NSCondition()
    private var inFlight = 0
    private var closed = false
    /// How long the exit handler waits for a render in flight; one stuck in
    /// poppler must not hang the exit.
    private static let exitWait: TimeInterval = 5

    func enter() {
        condition.lock()
        while closed { condition.wait() }
        inFlight += 1
        condition.unlock()
    }

    func leave() {
        condition.lock()
        inFlight -= 1
        condition.broadcast()
        condition.unlock()
    }

    func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        enter()
        defer { leave() }
        return try body()
    }

    private func close() {
        condition.lock()
        closed = true
        let deadline = Date(timeIntervalSinceNow: Self.exitWait)
        while inFlight > 0, condition.wait(until: deadline) {}
        condition.unlock()
    }
}
