import Dispatch
import Foundation
import Synchronization

/// The main queue's watch on a connected broker socket: a read and a write
/// DispatchSource on a duplicate of libmosquitto's descriptor (so that
/// libmosquitto closing its own never leaves a source on a number the
/// process may reuse), and a one-second timer for the keepalive. The write
/// source runs only while libmosquitto has output waiting.
@MainActor
final class MQTTSocketWatch {
    /// What woke the watch: the step of libmosquitto's loop to run.
    enum Ready {
        case readable, writable, second
    }

    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    private let tick: any DispatchSourceTimer
    private var writing = false
    private var cancelled = false

    /// Starts watching `socket`; `ready` runs on the main queue.
    /// - Throws: why the descriptor could not be duplicated.
    init(socket: Int32, ready: @escaping @MainActor (Ready) -> Void) throws(FleetFailure) {
        let watched = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard watched >= 0 else {
            throw FleetFailure(.unavailable, "cannot watch the broker's socket: \(String(cString: strerror(errno)))")
        }
        let read = DispatchSource.makeReadSource(fileDescriptor: watched, queue: .main)
        read.setEventHandler { MainActor.assumeIsolated { ready(.readable) } }
        let write = DispatchSource.makeWriteSource(fileDescriptor: watched, queue: .main)
        write.setEventHandler { MainActor.assumeIsolated { ready(.writable) } }
        let closer = DuplicateCloser(fd: watched)
        read.setCancelHandler { closer.release() }
        write.setCancelHandler { closer.release() }
        read.resume()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler { MainActor.assumeIsolated { ready(.second) } }
        timer.resume()
        readSource = read
        writeSource = write
        tick = timer
    }

    isolated deinit { cancel() }

    /// Watches for writability while `wanted` (libmosquitto has output waiting).
    func watchWrites(_ wanted: Bool) {
        guard !cancelled else { return }
        if wanted, !writing {
            writing = true
            writeSource.resume()
        } else if !wanted, writing {
            writing = false
            writeSource.suspend()
        }
    }

    /// Stops all three sources; the duplicate closes once both socket sources are done.
    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        tick.cancel()
        readSource.cancel()
        // A suspended source must be resumed for its cancellation to finish.
        if !writing { writeSource.resume() }
        writeSource.cancel()
        writing = false
    }
}

/// Closes the watched duplicate once both sources watching it are cancelled.
final class DuplicateCloser: Sendable {
    private let fd: Int32
    private let holders = Mutex(2)
    init(fd: Int32) { self.fd = fd }
    func release() {
        if holders.withLock({ count in
            count -= 1
            return count == 0
        }) {
            close(fd)
        }
    }
}
