import Foundation
import Signage

/// `play --mqtt`'s proof-of-play lines from the moment they are made until
/// the broker acknowledged them (QoS 1 PUBACK), oldest first, kept in
/// `$XDG_STATE_HOME/screenplay/mqtt-proof/BOX-ID.jsonl` so that a restart
/// (a kill, a crash, a power cut) while the broker is away loses none.
///
/// The file (ProofJournal: written at once, fsynced off the main thread)
/// is a journal, only ever appended to: each waiting
/// line as published, and `done N` when the N oldest went (acknowledged,
/// or dropped to stay within `Limits`). Reading it again replays those
/// records; it is rewritten atomically (StateDirectory.writeAtomically)
/// once enough lines are done, and emptied in place when nothing waits.
/// A kill mid-append leaves at most one cut line at the end, which was
/// never published; anything else unreadable is kept aside (`.unreadable`)
/// rather than lost, and said once.
///
/// Delivery is at least once: a line the broker took but whose
/// acknowledgement had not been recorded when the box died goes again
/// after the restart (a proof line is unique by its `presented_ns` and
/// `at`, so a duplicate is recognisable). Lines acknowledged before a
/// restart never go again.
@MainActor
final class ProofOutbox {
    struct Limits {
        /// Lines kept while the broker is away; the oldest go first.
        var lines = 10_000
        /// Their bytes (a line with a long URL as its source is larger).
        var bytes = 4 << 20
        /// Done lines the journal may hold before it is rewritten.
        var doneBeforeRewrite = 1024
    }

    private struct Entry {
        var line: Data
        /// libmosquitto's number for it once handed over in this process.
        var mid: Int32?
        var acknowledged = false
    }

    /// The journal, or nil when the lines wait in memory only.
    let path: String?
    let limits: Limits
    private var entries: [Entry] = []
    /// The number of `entries[0]`: lines are numbered in order, for `handed`.
    private var headID = 0
    private var byteCount = 0
    private var journal: ProofJournal?
    private var lockFD: Int32 = -1
    /// Done records in the journal since it was last rewritten.
    private var doneOnDisk = 0
    /// Lines done in memory, not yet recorded.
    private var donePending = 0
    /// A write failed: the journal no longer matches; rewrite it whole.
    private var diskBehind = false
    private var complaints = Throttle(seconds: 60)
    private var drops = Throttle(seconds: 60)
    private var droppedUnsaid = 0
    private(set) var dropped = 0

    /// Opens (or makes) `path`'s journal and takes what it holds; nil keeps
    /// the lines in memory only (no state folder). Never throws: a journal
    /// that cannot be used costs a warning, not playback.
    init(path: String?, limits: Limits = Limits()) {
        self.limits = limits
        guard let path else {
            self.path = nil
            warn(
                "MQTT: neither XDG_STATE_HOME nor HOME is set: proof-of-play lines waiting for the broker are kept in memory only and a restart loses them; set XDG_STATE_HOME"
            )
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A lock beside the journal, which rewrites replace: two players with one box ID would mix their lines.
        lockFD = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lockFD < 0 || flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            let reason = lockFD < 0 ? String(cString: strerror(errno)) : "another screenplay play holds it"
            if lockFD >= 0 { close(lockFD) }
            lockFD = -1
            self.path = nil
            warn(
                "MQTT: cannot use \(path) for proof-of-play lines waiting for the broker (\(reason)); they are kept in memory only; give each box its own --box-id or XDG_STATE_HOME"
            )
            return
        }
        self.path = path
        journal = ProofJournal(path: path) { [weak self] failure in
            DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.failed(failure) } }
        }
        load(path)
    }

    isolated deinit {
        if lockFD >= 0 { close(lockFD) }
    }

    /// Waits (at most `seconds`) until the journal holds what was asked of it: before an exit.
    @discardableResult
    func flush(seconds: Double) -> Bool { journal?.wait(seconds: seconds) ?? true }

    /// Lines waiting (handed over or not).
    var count: Int { entries.count }

    /// Whether a line handed to libmosquitto is not acknowledged yet.
    var awaitsAcknowledgement: Bool { entries.contains { $0.mid != nil && !$0.acknowledged } }

    /// Keeps `line` until `acknowledged`, dropping the oldest beyond `limits`.
    func append(_ line: Data) {
        entries.append(Entry(line: line))
        byteCount += line.count
        let over = trimToLimits()
        if over > 0 {
            donePending += over
            droppedUnsaid += over
            if drops.allows() {
                warn(
                    "MQTT: dropped the \(droppedUnsaid) oldest proof-of-play line\(droppedUnsaid == 1 ? "" : "s") waiting for the broker, to keep at most \(limits.lines) lines and \(limits.bytes >> 20) MiB (\(dropped) in all; the --proof file keeps every line; said at most once a minute)"
                )
                droppedUnsaid = 0
            }
        }
        // Only the oldest go: the new line, last, is kept unless nothing is.
        commit(newLine: entries.isEmpty ? nil : line)
    }

    /// The lines never handed to libmosquitto in this process, oldest
    /// first, each with its number for `handed` (which stays the line's
    /// while older ones leave).
    func unsent() -> [(id: Int, line: Data)] {
        entries.indices.filter { entries[$0].mid == nil }.map { (headID + $0, entries[$0].line) }
    }

    /// The line `id` (from `unsent`) went to libmosquitto as `mid`; nothing
    /// when it was dropped meanwhile.
    func handed(id: Int, mid: Int32) {
        let index = id - headID
        guard entries.indices.contains(index) else { return }
        entries[index].mid = mid
    }

    /// The broker has `mid`: the acknowledged lines at the head are done
    /// (recorded by `save`, which the caller runs once per batch).
    /// False for a number that is not a waiting line's (a status message).
    @discardableResult
    func acknowledged(mid: Int32) -> Bool {
        guard let index = entries.firstIndex(where: { $0.mid == mid && !$0.acknowledged }) else { return false }
        entries[index].acknowledged = true
        let done = entries.prefix(while: \.acknowledged).count
        if done > 0 {
            byteCount -= entries.prefix(done).reduce(0) { $0 + $1.line.count }
            removeOldest(done)
            donePending += done
        }
        return true
    }

    /// Records what is done (call once per batch of `acknowledged`).
    func save() { commit(newLine: nil) }

    /// Brings the journal up to date: emptied in place when nothing waits,
    /// else `done N` and the new line appended with one fsync, or the whole
    /// rewritten once enough is done (or a write failed).
    private func commit(newLine: Data?) {
        guard let journal else {
            donePending = 0
            return
        }
        if diskBehind { return rewrite() }
        if entries.isEmpty {
            doneOnDisk = 0
            donePending = 0
            return failed(journal.truncate())
        }
        var record = Data()
        if donePending > 0 {
            doneOnDisk += donePending
            record.append(contentsOf: "done \(donePending)\n".utf8)
            donePending = 0
            if doneOnDisk >= max(limits.doneBeforeRewrite, entries.count) { return rewrite() }
        }
        if let newLine {
            record.append(newLine)
            record.append(0x0A)
        }
        if !record.isEmpty { failed(journal.append(record)) }
    }

    // MARK: the journal

    private func load(_ path: String) {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return rewrite() }
        var lines: [Data] = []
        var unreadable = 0
        let records = data.split(separator: 0x0A, omittingEmptySubsequences: true)
        for (index, record) in records.enumerated() {
            if record.first == UInt8(ascii: "{"),
                (try? JSONSerialization.jsonObject(with: Data(record))) is [String: Any]
            {
                lines.append(Data(record))
            } else if let text = String(data: record, encoding: .utf8), text.hasPrefix("done "),
                let count = Int(text.dropFirst(5)), count > 0
            {
                lines.removeFirst(min(count, lines.count))
            } else if index == records.count - 1, data.last != 0x0A {
                // Cut short by a kill mid-append: it was never published.
                log("MQTT: \(path) ended in a line cut short (a kill while it was written); it was never sent")
            } else {
                unreadable += 1
            }
        }
        if unreadable > 0 {
            let aside = path + ".unreadable"
            let kept = StateDirectory.writeAtomically(data, to: aside)
            warn(
                "MQTT: \(path) held \(unreadable) unreadable line\(unreadable == 1 ? "" : "s") (neither a proof-of-play line nor a done record); "
                    + (kept == nil ? "the file as it was is kept in \(aside)" : "could not keep it aside: \(kept!)"))
        }
        for line in lines {
            entries.append(Entry(line: line))
            byteCount += line.count
        }
        if !entries.isEmpty {
            log(
                "MQTT: \(entries.count) proof-of-play line\(entries.count == 1 ? "" : "s") from before this start wait for the broker (\(path))"
            )
        }
        let over = trimToLimits()
        if over > 0 {
            warn(
                "MQTT: dropped the \(over) oldest proof-of-play lines kept from before this start, to keep at most \(limits.lines) lines and \(limits.bytes >> 20) MiB"
            )
        }
        // Written back clean: later appends follow whole lines only.
        rewrite()
    }

    /// Drops the oldest lines beyond `limits`; how many.
    private func trimToLimits() -> Int {
        var over = 0
        while over < entries.count, entries.count - over > limits.lines || byteCount > limits.bytes {
            byteCount -= entries[over].line.count
            over += 1
        }
        removeOldest(over)
        dropped += over
        return over
    }

    private func removeOldest(_ count: Int) {
        entries.removeFirst(count)
        headID += count
    }

    private func rewrite() {
        guard let journal else { return }
        var data = Data(capacity: byteCount + entries.count)
        for entry in entries {
            data.append(entry.line)
            data.append(0x0A)
        }
        doneOnDisk = 0
        donePending = 0
        if let failure = journal.replace(with: data) { return failed(failure) }
        if diskBehind {
            diskBehind = false
            log("MQTT: writing \(journal.path) again")
        }
    }

    /// A write or its fsync failed: the lines stay in memory and the
    /// journal is rewritten whole at the next change.
    private func failed(_ failure: String?) {
        guard let failure else { return }
        diskBehind = true
        guard complaints.allows() else { return }
        warn(
            "MQTT: \(failure); proof-of-play lines waiting for the broker are kept in memory and written whole once it works (free space or fix the folder's permissions; said at most once a minute)"
        )
    }
}
