import Dispatch
import Foundation
import Signage
import Synchronization

/// The file under ProofOutbox. Appends and truncations are written on the
/// main thread at once, so a line is in the file (the kernel's page cache,
/// which a SIGKILL does not lose) before anything is published; their
/// fsync, which can take a second on an SD card or a busy machine, runs
/// on a queue of its own so that it never holds back a frame. A rewrite
/// (the host's `writeAtomically`: temporary file, fsync, rename) runs
/// on the main thread too: it is rare (at start, after a thousand lines
/// went, after a failure) and must not race the appends that follow it.
///
/// After a write fails, appends and truncations are skipped (they would
/// leave a gap in the file) until a rewrite with the whole state succeeds.
@MainActor
final class ProofJournal {
    let path: String
    private var fd: Int32 = -1
    private var behind = false
    private let syncQueue = DispatchQueue(label: "screenplay.proof-journal", qos: .utility)
    /// An fsync is asked for and has not started: more appends need no other.
    private let syncAsked = Atomic<Bool>(false)
    /// An fsync on the queue failed (its reason), for the main thread.
    private let report: @Sendable (String) -> Void
    private let writeAtomically: @Sendable (Data, String) -> String?

    init(
        path: String, writeAtomically: @escaping @Sendable (Data, String) -> String?,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.path = path
        self.writeAtomically = writeAtomically
        self.report = report
    }

    isolated deinit {
        if fd >= 0 { close(fd) }
    }

    /// Appends `record` (whole lines); the reason when it could not.
    func append(_ record: Data) -> String? {
        guard !behind, fd >= 0 else { return nil }
        if let error = Self.writeAll(record, to: fd) { return fail(error) }
        syncSoon()
        return nil
    }

    /// Empties the file in place: after a crash either the old journal,
    /// which says nothing waits, or none.
    func truncate() -> String? {
        guard !behind, fd >= 0 else { return nil }
        guard ftruncate(fd, 0) == 0 else { return fail(errno) }
        syncSoon()
        return nil
    }

    /// Replaces the file with `contents` and opens it again for
    /// appending; the reason when it could not.
    func replace(with contents: Data) -> String? {
        if let reason = writeAtomically(contents, path) {
            behind = true
            return reason
        }
        if fd >= 0 { close(fd) }
        fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { return fail(errno) }
        behind = false
        return nil
    }

    /// Waits for the fsyncs asked for so far; false after `seconds`.
    @discardableResult
    func wait(seconds: Double) -> Bool {
        let done = DispatchSemaphore(value: 0)
        syncQueue.async { done.signal() }
        return done.wait(timeout: .now() + seconds) == .success
    }

    private func fail(_ error: Int32) -> String {
        behind = true
        return "cannot write \(path): \(String(cString: strerror(error)))"
    }

    /// One fsync on the queue for everything written until it starts, on a
    /// duplicate descriptor (the main thread may replace its own meanwhile).
    private func syncSoon() {
        guard !syncAsked.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let copy = dup(fd)
        guard copy >= 0 else {
            syncAsked.store(false, ordering: .releasing)
            return
        }
        let path = path, report = report
        syncQueue.async { [self] in
            syncAsked.store(false, ordering: .releasing)
            if fsync(copy) != 0 { report("cannot write \(path): \(String(cString: strerror(errno)))") }
            close(copy)
        }
    }

    /// Writes every byte; the errno of a failure.
    private static func writeAll(_ record: Data, to fd: Int32) -> Int32? {
        record.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return count < 0 ? errno : EIO }
                offset += count
            }
            return nil
        }
    }
}
