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
    /// Options the subcommand no longer takes, each with the one-line error
    /// that names what to write instead (checked before `options`, with or
    /// without a value).
    static var retiredOptions: [String: String] { get }
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

    /// Default: none.
    public static var retiredOptions: [String: String] { [:] }

    /// An error carrying this command's usage.
    static func usageError(_ message: String) -> UsageError {
        UsageError(message: message, usage: usage)
    }

    /// Parses and validates the words after the subcommand name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        // An old spelling that still parsed would silently mean something
        // else, or nothing; "unknown option" would not say what replaced it.
        for word in arguments.prefix(while: { $0 != "--" }) where word.hasPrefix("--") {
            if let message = retiredOptions[String(word.dropFirst(2).prefix { $0 != "=" })] {
                throw usageError(message)
            }
        }
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
