/// `screenplay doctor [--json] [--builtin PATTERN]...`: checks the
/// compositor, protocols and graphics stack.
public struct DoctorCommand: CLICommand {
    public var invocation: Invocation { .doctor(self) }

    /// Emit JSON instead of text.
    public var json = false
    /// Patterns (see `ScreenPattern`) naming outputs to treat as built-in panels.
    public var builtinPatterns: [String] = []

    /// Creates the command with explicit values.
    public init(json: Bool = false, builtinPatterns: [String] = []) {
        self.json = json
        self.builtinPatterns = builtinPatterns
    }

    public static let commandName = "doctor"
    public static let abstract = "Check the compositor, Wayland protocols and EGL/GLES."
    public static let options: [OptionSpec] = [.flag("json"), .value("builtin")]
    public static let usage = """
        OVERVIEW: \(abstract)
        Reports what is missing for presenting (layer-shell, presentation-time,
        EGL) and which outputs would be used.

        USAGE: screenplay doctor [--json] [--builtin PATTERN]...

        OPTIONS:
          --json                  Print machine-readable JSON.
          --builtin PATTERN       Treat outputs whose name, description, make,
                                  model or serial matches PATTERN as built-in
                                  (repeatable; exact or glob * ? [...],
                                  case-insensitive).
          -h, --help              Show this help.

        EXAMPLES:
          screenplay doctor
          screenplay doctor --builtin 'eDP-*' --json
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        try Self.rejectPositionals(arguments)
        json = arguments.flag("json")
        builtinPatterns = arguments.all("builtin")
    }
}
