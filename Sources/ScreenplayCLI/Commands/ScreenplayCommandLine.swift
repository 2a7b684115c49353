// Command-line parsing for `screenplay`, hand-written in the style of
// swift-argument-parser (which is not available here): each subcommand is a
// type, and a run goes parse → validate → run. Parsing turns words into typed
// values; validation checks combinations; running lives elsewhere, so this
// file stays pure and table-testable.

/// Entry point of command-line parsing.
public enum ScreenplayCommandLine {
    /// The release number.
    public static let version = "0.1.0"

    /// What `--version` prints: the name, the release and the git commit
    /// the binary was built from (written at build time by the BuildCommit
    /// plugin), `modified` when tracked files differed from that commit.
    public static let versionLine: String = {
        guard let buildCommit else { return "screenplay \(version) (unknown commit)" }
        return "screenplay \(version) (commit \(buildCommit)\(buildTreeModified ? ", modified" : ""))"
    }()

    /// Subcommands in help order.
    static let commands: [any CLICommand.Type] = [
        OutputsCommand.self, PresentCommand.self, PlayCommand.self, CtlCommand.self, DoctorCommand.self,
        DemoCommand.self,
        PowerCommand.self,
    ]

    /// Top-level help.
    public static let usage: String = {
        let list = commands.map { command in
            let padded = command.commandName + String(repeating: " ", count: max(1, 12 - command.commandName.count))
            return "  \(padded)\(command.abstract)"
        }.joined(separator: "\n")
        return """
            OVERVIEW: Put an app's content on external Wayland outputs.

            USAGE: screenplay <subcommand> [options]

            SUBCOMMANDS:
            \(list)

            OPTIONS:
              -h, --help  Show help; after a subcommand, that subcommand's help.
              --version   Show the version and the git commit it was built from.

            EXAMPLES:
              screenplay outputs
              screenplay present --output HDMI-A-1 test-card
              screenplay help present
            """
    }()

    /// Usage text of the named subcommand, if it exists.
    public static func usage(of subcommand: String) -> String? {
        commands.first { $0.commandName == subcommand }?.usage
    }

    /// Parses the arguments after the program name.
    ///
    /// `--help`/`-h` anywhere before `--` wins over every other problem, so a
    /// user who got something wrong can always ask for help by appending it.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(usage) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help":
            guard let topic = rest.first else { return .help(usage) }
            guard let text = usage(of: topic) else {
                throw UsageError(message: "unknown subcommand '\(topic)'", usage: usage)
            }
            if rest.count > 1 { throw UsageError(message: "unexpected argument '\(rest[1])'", usage: usage) }
            return .help(text)
        case "--version":
            if let extra = rest.first { throw UsageError(message: "unexpected argument '\(extra)'", usage: usage) }
            return .version(versionLine)
        default:
            break
        }
        guard let command = commands.first(where: { $0.commandName == first }) else {
            let kind = first.hasPrefix("-") ? "option" : "subcommand"
            throw UsageError(message: "unknown \(kind) '\(first)'", usage: usage)
        }
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            return .help(command.usage)
        }
        return try command.parse(rest).invocation
    }
}
