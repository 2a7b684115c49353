import Foundation

/// Every line the CLI writes to stderr goes through here: one line per
/// event (a message with line breaks is joined with "; "), prefixed
/// "screenplay: ", and, when stderr is the journal's stream, with the
/// syslog priority journald reads from the line's start (`<3>` error,
/// `<4>` warning, `<6>` info), so `journalctl -p warning` finds problems.
enum Log {
    enum Level: Int {
        case error = 3
        case warning = 4
        case info = 6
    }

    /// Whether stderr is the stream systemd connected to the journal:
    /// `JOURNAL_STREAM` holds that stream's "device:inode", which must be
    /// stderr's own (a child that inherited the variable but writes to a
    /// pipe or file gets plain lines).
    static let toJournal: Bool = {
        guard let value = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        var status = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(2, &status) == 0
        else {
            return false
        }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }()

    /// The line as written: one line, with the journal's priority when it applies.
    static func line(_ text: String, level: Level, journal: Bool = toJournal) -> String {
        let flat = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
        return (journal ? "<\(level.rawValue)>" : "") + "screenplay: " + flat + "\n"
    }

    static func write(_ text: String, level: Level) {
        // Never the deprecated write(_:): it traps (try!) when stderr is a file on a full disk.
        try? FileHandle.standardError.write(contentsOf: Data(line(text, level: level).utf8))
    }
}

/// An event worth knowing (info).
func log(_ text: String) { Log.write(text, level: .info) }

/// Something went wrong but the command goes on (a skipped item, a stalled
/// panel, a refused reload or control request).
func warn(_ text: String) { Log.write(text, level: .warning) }

/// A failure: the command ends, or a part of it did.
func printError(_ text: String) { Log.write(text, level: .error) }
