import Dispatch
import Foundation
import Synchronization

/// The file under ProofOutbox: appends, truncations and atomic rewrites,
/// each fsynced, done in order on a queue of their own so that a slow disk
/// (an SD card, a busy machine: an fsync can take a second) never holds
/// back the main thread and its frames.
///
/// After a write fails, appends and truncations are skipped (they would
/// leave a gap in the file) until a rewrite with the whole state succeeds;
/// `report` says both (a reason, then nil), on the main queue.
final class ProofJournal: Sendable {
    let path: String
    private let queue = DispatchQueue(label: "screenplay.proof-journal", qos: .utility)
    private let state = Mutex(State())
    private let report: @Sendable (String?) -> Void

    private struct State {
        var fd: Int32 = -1
        var behind = false
    }

    init(path: String, report: @escaping @Sendable (String?) -> Void) {
        self.path = path
        self.report = report
    }

    deinit {
        state.withLock { if $0.fd >= 0 { close($0.fd) } }
    }

    /// Appends `record` and fsyncs.
    func append(_ record: Data) {
        queue.async { [self] in
            let failure: String? = state.withLock { state in
                guard !state.behind, state.fd >= 0 else { return nil }
                guard let error = Self.writeAll(record, to: state.fd) else { return nil }
                state.behind = true
                return "cannot write \(path): \(String(cString: strerror(error)))"
            }
            if let failure { report(failure) }
        }
    }

    /// Empties the file in place: either the old journal, which says nothing waits, or none survives a crash.
    func truncate() {
        queue.async { [self] in
            let failure: String? = state.withLock { state in
                guard !state.behind, state.fd >= 0 else { return nil }
                guard ftruncate(state.fd, 0) != 0 || fsync(state.fd) != 0 else { return nil }
                state.behind = true
                return "cannot write \(path): \(String(cString: strerror(errno)))"
            }
            if let failure { report(failure) }
        }
    }

    /// Replaces the file with `contents` (StateDirectory.writeAtomically)
    /// and opens it again for appending.
    func replace(with contents: Data) {
        queue.async { [self] in
            let (failure, recovered): (String?, Bool) = state.withLock { state in
                if let reason = StateDirectory.writeAtomically(contents, to: path) {
                    state.behind = true
                    return (reason, false)
                }
                if state.fd >= 0 { close(state.fd) }
                state.fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
                guard state.fd >= 0 else {
                    state.behind = true
                    return ("cannot open \(path): \(String(cString: strerror(errno)))", false)
                }
                defer { state.behind = false }
                return (nil, state.behind)
            }
            if let failure {
                report(failure)
            } else if recovered {
                report(nil)
            }
        }
    }

    /// Waits for what was asked so far to be done; false after `seconds`.
    @discardableResult
    func wait(seconds: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + seconds) == .success
    }

    /// Writes every byte and fsyncs; the errno of a failure.
    private static func writeAll(_ record: Data, to fd: Int32) -> Int32? {
        record.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return count < 0 ? errno : EIO }
                offset += count
            }
            return fsync(fd) == 0 ? nil : errno
        }
    }
}
