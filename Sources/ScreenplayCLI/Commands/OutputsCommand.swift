/// `screenplay outputs [--json]`: lists the outputs the compositor announces.
public struct OutputsCommand: CLICommand {
    public var invocation: Invocation { .outputs(self) }

    /// Emit JSON instead of a table.
    public var json = false

    /// Creates the command with explicit values.
    public init(json: Bool = false) { self.json = json }

    public static let commandName = "outputs"
    public static let abstract = "List the outputs the compositor announces."
    public static let options: [OptionSpec] = [.flag("json")]
    public static let usage = """
        OVERVIEW: \(abstract)
        Shows each output's name, description, mode, refresh rate, scale and
        whether it is treated as built-in.

        USAGE: screenplay outputs [--json]

        OPTIONS:
          --json                  Print machine-readable JSON.
          -h, --help              Show this help.

        EXAMPLES:
          screenplay outputs
          screenplay outputs --json | jq '.[].name'
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        try Self.rejectPositionals(arguments)
        json = arguments.flag("json")
    }
}
