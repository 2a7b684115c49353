public import Foundation

/// Writes JSON Lines: the tool's `--stats` and `--proof` files, an app's
/// own records.
///
/// A write that fails (a full disk, a filesystem gone read-only) never
/// stops playback: the line is lost, the failure is logged at most once a
/// minute, and writing resumes by itself once the file takes lines again.
/// A file opened by name (`--proof`) follows log rotation: before each line
/// it checks that the path still names the open file and opens it afresh
/// when it was moved or deleted (logrotate's `create`), and `reopen()` does
/// the same on demand (SIGUSR1). A file truncated in place (`copytruncate`)
/// needs nothing: it is opened with O_APPEND, so the next line lands at the
/// new end rather than past a hole.
@MainActor
public final class StatsWriter {
    /// Where lines go; -1 while a file by name could not be opened.
    private var fd: Int32
    /// The file's path when it is reopened on rotation; nil for stdout.
    private let path: String?
    /// What the file is, for messages ("the proof-of-play file").
    private let role: String
    /// The device and inode of the open file, to notice a rotation.
    private var identity: (device: UInt64, inode: UInt64)?
    /// A write ended part-way through a line: the next line starts on a
    /// fresh one, so only the cut line is unreadable.
    private var cutLine = false
    private var complaints = Throttle(seconds: 60)
    /// A failure was logged and no line has been written since.
    private var failing = false
    /// Where a failed write and the return to writing are told.
    private let messages: SignageMessages

    /// Lines to an open descriptor the writer does not own (stdout).
    public init(handle: FileHandle, role: String = "the stats output", messages: SignageMessages = .standardError) {
        fd = handle.fileDescriptor
        path = nil
        self.role = role
        self.messages = messages
    }

    /// Lines appended to `path`, created when missing (emptied first with
    /// `truncate`); `role` names the file in messages ("the stats file").
    /// Throws the reason when it cannot be opened at all.
    public init(
        appendingTo path: String, role: String, truncate: Bool = false, messages: SignageMessages = .standardError
    ) throws(StatsFileError) {
        self.path = path
        self.role = role
        self.messages = messages
        fd = -1
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND)
        let opened = Glibc.open(path, flags, 0o644)
        guard opened >= 0 else {
            throw StatsFileError(
                description:
                    "cannot open \(role) \(path): \(String(cString: strerror(errno))); give a path in a folder this user may write to"
            )
        }
        if truncate {
            // Later reopens (after a rotation) append.
            _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) | O_APPEND)
        }
        adopt(opened)
    }

    /// Writes `object` as one line, its keys sorted; a line that cannot be
    /// written is lost and said (at most once a minute).
    public func write(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        if path != nil, !pathNamesOpenFile() { reopen() }
        var bytes = [UInt8](data)
        bytes.append(0x0A)
        if cutLine { bytes.insert(0x0A, at: 0) }
        let (written, error) = writeAll(bytes)
        if let error {
            cutLine = cutLine ? written == 0 || written > 1 : written > 0
            complain(strerror: error)
            return
        }
        cutLine = false
        if failing {
            failing = false
            messages.info("writing \(role)\(path.map { " \($0)" } ?? "") again")
        }
    }

    /// Opens the path afresh (after a rotation; SIGUSR1). The old file is
    /// closed once the new one is open; if it cannot be opened, lines keep
    /// going to the old one and the failure is logged.
    public func reopen() {
        guard let path else { return }
        let opened = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            complain(strerror: errno)
            return
        }
        if fd >= 0 { close(fd) }
        fd = -1
        adopt(opened)
        cutLine = false
    }

    private func adopt(_ descriptor: Int32) {
        fd = descriptor
        var status = stat()
        identity = fstat(descriptor, &status) == 0 ? (UInt64(status.st_dev), UInt64(status.st_ino)) : nil
    }

    /// Whether the path still names the file this writer has open (false
    /// once logrotate moved it away, or it was deleted).
    private func pathNamesOpenFile() -> Bool {
        guard let path, let identity, fd >= 0 else { return false }
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return UInt64(status.st_dev) == identity.device && UInt64(status.st_ino) == identity.inode
    }

    /// Writes every byte unless the file refuses; returns how many went
    /// and the errno of the refusal.
    private func writeAll(_ bytes: [UInt8]) -> (Int, Int32?) {
        guard fd >= 0 else { return (0, EBADF) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            if count == 0 { return (offset, EIO) }
            offset += count
        }
        return (offset, nil)
    }

    private func complain(strerror error: Int32) {
        failing = true
        guard complaints.allows() else { return }
        let reason = String(cString: strerror(error))
        let fix =
            error == ENOSPC || error == EDQUOT
            ? "free space on its filesystem" : "check the file and its folder"
        messages.warning(
            "cannot write \(role)\(path.map { " \($0)" } ?? ""): \(reason); playback goes on without these lines until it can write again (\(fix); said at most once a minute)"
        )
    }
}

/// Why a file of JSON Lines cannot be opened; the description names the
/// file, the reason and the fix.
public struct StatsFileError: Error, CustomStringConvertible, Sendable {
    /// The message, one line.
    public let description: String
}
