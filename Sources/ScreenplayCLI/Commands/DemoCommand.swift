/// `screenplay demo [--out DIR]`: renders sample content without a display.
public struct DemoCommand: CLICommand {
    public var invocation: Invocation { .demo(self) }

    /// Where the demo output is written.
    public var outputDirectory: String

    /// Directory used when `--out` is not given.
    public static let defaultOutputDirectory = "demo-output"

    /// Creates the command with explicit values.
    public init(outputDirectory: String = DemoCommand.defaultOutputDirectory) {
        self.outputDirectory = outputDirectory
    }

    public static let commandName = "demo"
    public static let abstract = "Render the built-in content to image files."
    public static let options: [OptionSpec] = [.value("out")]
    public static let usage = """
        OVERVIEW: \(abstract)
        Useful to check rendering on a machine without external outputs.

        USAGE: screenplay demo [--out DIR]

        OPTIONS:
          --out DIR               Write files to DIR (default: \(defaultOutputDirectory)).
          -h, --help              Show this help.

        EXAMPLES:
          screenplay demo
          screenplay demo --out /tmp/screenplay-demo
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        try Self.rejectPositionals(arguments)
        outputDirectory = arguments.last("out") ?? Self.defaultOutputDirectory
    }
}
