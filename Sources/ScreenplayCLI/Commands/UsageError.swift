/// A mistake on the command line. The process prints ``description`` to
/// standard error and exits with 64 (`EX_USAGE` in sysexits.h, `ExitCode.usage`).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line naming the offending word, e.g. `unknown option '--fsp'`.
    public var message: String
    /// Usage text of the (sub)command that was being parsed.
    public var usage: String

    /// Creates an error.
    public init(message: String, usage: String) {
        self.message = message
        self.usage = usage
    }

    /// `error: <message>` followed by the usage text.
    public var description: String { "error: \(message)\n\n\(usage)" }
}
