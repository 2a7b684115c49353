import Screenplay

/// A `screenplay` subcommand: parsed from ``ParsedArguments``, then
/// validated as a whole.
public protocol CLICommand: Equatable, Sendable {
    /// The word that selects the subcommand.
    static var commandName: String { get }
    /// One-line summary for the top-level help.
    static var abstract: String { get }
    /// Full help text.
    static var usage: String { get }
    /// The options the subcommand accepts (`--help` is implicit).
    static var options: [OptionSpec] { get }
    /// Converts sorted words into typed values; rejects malformed values.
    init(parsing arguments: ParsedArguments) throws(UsageError)
    /// Rejects combinations that are individually well-formed but do not
    /// make sense together.
    func validate() throws(UsageError)
    /// The command wrapped for dispatch, so `Invocation` stays a closed enum
    /// that the runner can switch over exhaustively.
    var invocation: Invocation { get }
}

extension CLICommand {
    /// Default: every combination is fine.
    public func validate() throws(UsageError) {}

    /// An error carrying this command's usage.
    static func usageError(_ message: String) -> UsageError {
        UsageError(message: message, usage: usage)
    }

    /// Parses and validates the words after the subcommand name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        let parsed = try scanArguments(arguments, options: options, usage: usage)
        let command = try Self(parsing: parsed)
        try command.validate()
        return command
    }

    /// Rejects positional arguments a command does not take.
    static func rejectPositionals(_ parsed: ParsedArguments) throws(UsageError) {
        if let extra = parsed.positionals.first { throw usageError("unexpected argument '\(extra)'") }
    }
}

extension CLICommand {
    /// `--layer` for the commands that show scenes (present, play).
    static func parseLayer(_ value: String) throws(UsageError) -> SceneLayer {
        guard let layer = SceneLayer.allCases.first(where: { "\($0)" == value }) else {
            throw usageError("invalid layer '\(value)': expected overlay, top, bottom or background")
        }
        return layer
    }
}
