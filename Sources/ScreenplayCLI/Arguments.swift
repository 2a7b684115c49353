// Command-line parsing for `screenplay`, hand-written in the style of
// swift-argument-parser (which is not available here): each subcommand is a
// type, and a run goes parse → validate → run. Parsing turns words into typed
// values; validation checks combinations; running lives elsewhere, so this
// file stays pure and table-testable.

/// A mistake on the command line. The process should print ``description``
/// to standard error and exit with ``exitCode`` (64, `EX_USAGE` in
/// sysexits.h).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Exit status for usage errors.
    public static let exitCode: Int32 = 64

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

/// What the command line asks for.
public enum Invocation: Equatable, Sendable {
    /// Print this help text to standard output and exit 0.
    case help(String)
    /// Print this version string and exit 0.
    case version(String)
    /// `screenplay outputs`
    case outputs(OutputsCommand)
    /// `screenplay present`
    case present(PresentCommand)
    /// `screenplay doctor`
    case doctor(DoctorCommand)
    /// `screenplay demo`
    case demo(DemoCommand)
    /// `screenplay play`
    case play(PlayCommand)
}

// MARK: - Option scanning

/// Declares one `--long` option of a subcommand.
public struct OptionSpec: Equatable, Sendable {
    /// Whether the option stands alone or needs a value.
    public enum Kind: Equatable, Sendable {
        /// `--json`
        case flag
        /// `--fps N` or `--fps=N`
        case value
    }

    /// Name without the leading dashes.
    public var name: String
    /// Flag or valued option.
    public var kind: Kind

    /// A flag, e.g. `.flag("json")`.
    public static func flag(_ name: String) -> OptionSpec { OptionSpec(name: name, kind: .flag) }
    /// An option taking a value, e.g. `.value("fps")`.
    public static func value(_ name: String) -> OptionSpec { OptionSpec(name: name, kind: .value) }
}

/// The words of one subcommand, sorted into flags, option values and
/// positional arguments, before any typing.
public struct ParsedArguments: Equatable, Sendable {
    /// Flags that were given.
    public var flags: Set<String> = []
    /// Every value of every valued option, in command-line order.
    public var values: [String: [String]] = [:]
    /// Positional arguments, in order (including everything after `--`).
    public var positionals: [String] = []

    /// Whether `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }
    /// All values of a repeatable option.
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    /// The value of a single-valued option; the last one wins when repeated,
    /// as in swift-argument-parser, so wrappers and aliases can override.
    public func last(_ name: String) -> String? { values[name]?.last }
}

/// Sorts `arguments` according to `options`.
///
/// Accepts `--opt value` and `--opt=value`; `--` ends option parsing. A
/// separate value may not start with `-` (except `-` itself, the usual
/// spelling of standard output), so `--fps --preview` reports the missing
/// value instead of swallowing the next option; write `--opt=-x` to pass
/// such a value.
public func scanArguments(_ arguments: [String], options: [OptionSpec], usage: String) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = arguments.startIndex
    var optionsEnded = false
    func fail(_ message: String) -> UsageError { UsageError(message: message, usage: usage) }

    while index < arguments.endIndex {
        let word = arguments[index]
        index += 1
        if optionsEnded || word == "-" || !word.hasPrefix("-") {
            parsed.positionals.append(word)
            continue
        }
        if word == "--" {
            optionsEnded = true
            continue
        }
        guard word.hasPrefix("--") else { throw fail("unknown option '\(word)'") }
        let body = word.dropFirst(2)
        let name: String
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
            inlineValue = nil
        }
        guard let spec = options.first(where: { $0.name == name }) else {
            throw fail("unknown option '--\(name)'")
        }
        switch spec.kind {
        case .flag:
            if inlineValue != nil { throw fail("option '--\(name)' does not take a value") }
            parsed.flags.insert(name)
        case .value:
            var value = inlineValue
            if value == nil, index < arguments.endIndex {
                let next = arguments[index]
                if next == "-" || !next.hasPrefix("-") {
                    value = next
                    index += 1
                }
            }
            guard let value, !value.isEmpty else { throw fail("missing value for option '--\(name)'") }
            parsed.values[name, default: []].append(value)
        }
    }
    return parsed
}

// MARK: - Commands

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

/// `screenplay doctor [--json] [--builtin PATTERN]...`: checks the
/// compositor, protocols and graphics stack.
public struct DoctorCommand: CLICommand {
    public var invocation: Invocation { .doctor(self) }

    /// Emit JSON instead of text.
    public var json = false
    /// Globs naming outputs to treat as built-in panels.
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
          --builtin PATTERN       Treat outputs whose name or description matches
                                  PATTERN as built-in (repeatable; glob: * ? [...]).
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

/// An sRGB color given as `RRGGBB` or `#RRGGBB`.
public struct RGBColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Red channel.
    public var red: UInt8
    /// Green channel.
    public var green: UInt8
    /// Blue channel.
    public var blue: UInt8

    /// Creates a color from channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses exactly six hex digits, optionally preceded by `#`; case does
    /// not matter.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        // UInt32(_:radix:) alone would also take "+ff00" or fewer digits.
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        red = UInt8(truncatingIfNeeded: value >> 16)
        green = UInt8(truncatingIfNeeded: value >> 8)
        blue = UInt8(truncatingIfNeeded: value)
    }

    /// `#RRGGBB` in upper case.
    public var description: String {
        "#" + [red, green, blue].map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}

/// `screenplay present [options] CONTENT`: shows content on external outputs.
public struct PresentCommand: CLICommand {
    public var invocation: Invocation { .present(self) }

    /// What to show.
    public enum Content: Equatable, Sendable {
        /// The built-in test card.
        case testCard
        /// A solid color.
        case color(RGBColor)
        /// A GLSL ES fragment shader file (`.frag`, `.glsl`).
        case shader(path: String)
        /// An image file (`.png`, `.jpg`, `.jpeg`).
        case image(path: String)
        /// A PDF document (`.pdf`).
        case pdf(path: String)

        /// Classifies a file path by its extension (case-insensitive), or
        /// returns `nil` for an unsupported kind.
        public static func file(_ path: String) -> Content? {
            let fileName = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
            // A leading dot marks a hidden file, not an extension.
            guard let dot = fileName.dropFirst().lastIndex(of: ".") else { return nil }
            switch fileName[fileName.index(after: dot)...].lowercased() {
            case "frag", "glsl": return .shader(path: path)
            case "png", "jpg", "jpeg": return .image(path: path)
            case "pdf": return .pdf(path: path)
            default: return nil
            }
        }
    }

    /// Layer-shell layer of the surface.
    public enum Layer: String, CaseIterable, Equatable, Sendable {
        /// Above everything, including fullscreen windows.
        case overlay
        /// Above normal windows.
        case top
        /// Below normal windows.
        case bottom
        /// The wallpaper layer.
        case background
    }

    /// Where the once-a-second statistics lines go.
    public enum StatsDestination: Equatable, Sendable {
        /// Standard output (`--stats -`).
        case standardOutput
        /// A file path.
        case file(String)
    }

    /// What to show.
    public var content: Content
    /// `--output` globs, in order.
    public var outputPatterns: [String] = []
    /// `--all`
    public var allOutputs = false
    /// `--builtin` globs, in order.
    public var builtinPatterns: [String] = []
    /// `--layer`, overlay by default.
    public var layer: Layer = .overlay
    /// `--fps`; `nil` means the output's refresh rate.
    public var framesPerSecond: Int?
    /// `--preview`
    public var preview = false
    /// `--fullscreen-window`: no layer shell, as on GNOME.
    public var fullscreenWindow = false
    /// `--stats`
    public var stats: StatsDestination?
    /// `--reconnect`
    public var reconnect = false
    /// `--duration`, in minutes.
    public var durationMinutes: Double?
    /// `--notes`
    public var notesPath: String?
    /// `--password`
    public var password: String?
    /// `--rehearse`
    public var rehearse = false

    /// Creates the command with the given content and default options.
    public init(content: Content) { self.content = content }

    public static let commandName = "present"
    public static let abstract = "Show content on external outputs, paced to their refresh rate."
    public static let options: [OptionSpec] = [
        .value("output"), .flag("all"), .value("builtin"), .value("layer"), .value("fps"),
        .flag("preview"), .flag("fullscreen-window"), .value("stats"), .flag("reconnect"), .value("duration"),
        .value("notes"), .value("password"), .flag("rehearse"),
    ]
    /// Supported content, for help and error messages.
    static let contentKinds = "test-card, color RRGGBB, or a .frag/.glsl shader, .png/.jpg/.jpeg image or .pdf file"
    public static let usage = """
        OVERVIEW: \(abstract)

        USAGE: screenplay present [options] <content>

        CONTENT:
          test-card               Built-in pattern for checking geometry and timing.
          color RRGGBB            Solid color; #RRGGBB works too.
          FILE.frag, FILE.glsl    Animated GLSL ES fragment shader.
          FILE.png, .jpg, .jpeg   Image, scaled to fit.
          FILE.pdf                Slides, one page at a time.

        OUTPUTS (default: every external output):
          --output PATTERN        Use outputs whose name or description matches
                                  PATTERN (repeatable; glob: * ? [...]).
          --all                   Use every output, built-in ones included.
          --builtin PATTERN       Treat matching outputs as built-in (repeatable).
          --reconnect             When the compositor dies, wait for one on the
                                  same socket and show the content again
                                  (default: exit 69). Outputs coming and going
                                  are always followed.

        RENDERING:
          --layer LAYER           overlay (default), top, bottom or background.
          --fps N                 Draw at most N frames per second (default: the
                                  output's refresh rate).
          --preview               Show the content in an ordinary window instead
                                  (to work without a second screen).
          --fullscreen-window     Use fullscreen windows, not layer surfaces,
                                  even where the compositor has layer shell (as
                                  on GNOME): window capture tools can record
                                  them; they may take focus.
          --stats FILE            Write JSON Lines to FILE ('-' for standard
                                  output): connect/disconnect, and once a second
                                  per scene the frames presented.

        SLIDES:
          --duration MIN          Length of the talk in minutes: a countdown that
                                  turns amber 5 minutes before the end, red after.
          --notes FILE            Speaker notes (default: talk.notes.md next to
                                  talk.pdf; a section per page starts '## N').
          --password PW           Password of an encrypted PDF.
          --rehearse              Show the audience view in a window instead.

          -h, --help              Show this help.

        EXAMPLES:
          screenplay present test-card
          screenplay present --output 'HDMI-*' color '#FF8800'
          screenplay present --fps 30 --stats - plasma.frag
          screenplay present --duration 20 talk.pdf
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        // Options first: a bad option value that swallowed the content word
        // (`--fps test-card`) is the more useful error to report.
        content = .testCard
        outputPatterns = arguments.all("output")
        allOutputs = arguments.flag("all")
        builtinPatterns = arguments.all("builtin")
        if let value = arguments.last("layer") {
            guard let layer = Layer(rawValue: value) else {
                throw Self.usageError("invalid layer '\(value)': expected overlay, top, bottom or background")
            }
            self.layer = layer
        }
        if let value = arguments.last("fps") {
            guard let fps = Int(value), fps > 0 else {
                throw Self.usageError("invalid value '\(value)' for '--fps': expected a positive integer")
            }
            framesPerSecond = fps
        }
        preview = arguments.flag("preview")
        fullscreenWindow = arguments.flag("fullscreen-window")
        if fullscreenWindow, arguments.last("layer") != nil {
            throw Self.usageError("--layer sets a layer surface's layer; --fullscreen-window uses no layer surface")
        }
        if fullscreenWindow, preview {
            throw Self.usageError("--preview already shows an ordinary window; drop --fullscreen-window")
        }
        stats = arguments.last("stats").map { $0 == "-" ? .standardOutput : .file($0) }
        reconnect = arguments.flag("reconnect")
        if let value = arguments.last("duration") {
            guard let minutes = Double(value), minutes.isFinite, minutes > 0 else {
                throw Self.usageError("invalid value '\(value)' for '--duration': expected a positive number of minutes")
            }
            durationMinutes = minutes
        }
        notesPath = arguments.last("notes")
        password = arguments.last("password")
        rehearse = arguments.flag("rehearse")
        content = try Self.parseContent(arguments.positionals)
    }

    static func parseContent(_ words: [String]) throws(UsageError) -> Content {
        guard let first = words.first else {
            throw usageError("missing content: expected \(contentKinds)")
        }
        let content: Content
        var used = 1
        switch first {
        case "test-card":
            content = .testCard
        case "color":
            guard words.count >= 2 else { throw usageError("missing value for 'color': expected RRGGBB") }
            guard let color = RGBColor(hex: words[1]) else {
                throw usageError("invalid color '\(words[1])': expected RRGGBB or #RRGGBB")
            }
            content = .color(color)
            used = 2
        default:
            guard let file = Content.file(first) else {
                throw usageError("unsupported content '\(first)': expected \(contentKinds)")
            }
            content = file
        }
        if words.count > used { throw usageError("unexpected argument '\(words[used])'") }
        return content
    }

    public func validate() throws(UsageError) {
        if allOutputs, let pattern = outputPatterns.first {
            throw Self.usageError("'--all' cannot be combined with '--output \(pattern)'")
        }
        if password != nil {
            guard case .pdf = content else { throw Self.usageError("'--password' only applies to PDF content") }
        }
    }
}

// MARK: - Top level

/// Entry point of command-line parsing.
public enum ScreenplayCommandLine {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Subcommands in help order.
    static let commands: [any CLICommand.Type] = [
        OutputsCommand.self, PresentCommand.self, PlayCommand.self, DoctorCommand.self, DemoCommand.self,
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
              --version   Show the version.

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
            return .version(version)
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

// MARK: - Output matching

/// Whether an output selected by `--output`/`--builtin` `pattern` is the one
/// with this `name` (e.g. `HDMI-A-1`) or `description` (e.g.
/// `Dell Inc. DELL U2720Q (DP-2)`).
///
/// The pattern matches if it equals either string or matches it as a glob
/// (`*`, `?`, `[abc]`, `[a-z]`, `[!a]`; `\` escapes). Matching ignores case
/// because users type names from memory ("hdmi-a-1"), and exact equality is
/// tried first so descriptions containing `[` or `*` still match verbatim.
public func matches(pattern: String, name: String, description: String) -> Bool {
    let pattern = pattern.lowercased()
    return [name, description].contains { candidate in
        let candidate = candidate.lowercased()
        return candidate == pattern || globMatches(pattern: Array(pattern), text: Array(candidate))
    }
}

/// Shell-style glob matching over characters, with backtracking on the most
/// recent `*` only, which is linear-ish and cannot blow up exponentially.
func globMatches(pattern: [Character], text: [Character]) -> Bool {
    var p = 0
    var t = 0
    var starPattern: Int?
    var starText = 0
    while t < text.count {
        if p < pattern.count {
            if pattern[p] == "*" {
                starPattern = p
                starText = t
                p += 1
                continue
            }
            if let next = matchSingle(pattern: pattern, at: p, character: text[t]) {
                p = next
                t += 1
                continue
            }
        }
        // Mismatch: let the last `*` swallow one more character.
        guard let star = starPattern else { return false }
        p = star + 1
        starText += 1
        t = starText
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
}

/// If the pattern element at `index` (not `*`) matches `character`, the index
/// after that element; otherwise `nil`.
private func matchSingle(pattern: [Character], at index: Int, character: Character) -> Int? {
    switch pattern[index] {
    case "?":
        return index + 1
    case "\\" where index + 1 < pattern.count:
        return pattern[index + 1] == character ? index + 2 : nil
    case "[":
        guard let (matched, next) = matchClass(pattern: pattern, at: index, character: character) else {
            // No closing bracket: a literal '[', as in fnmatch.
            return character == "[" ? index + 1 : nil
        }
        return matched ? next : nil
    case let literal:
        return literal == character ? index + 1 : nil
    }
}

/// Evaluates the bracket expression starting at `index`; `nil` if unclosed.
private func matchClass(pattern: [Character], at index: Int, character: Character) -> (matched: Bool, next: Int)? {
    var i = index + 1
    var negated = false
    if i < pattern.count, pattern[i] == "!" || pattern[i] == "^" {
        negated = true
        i += 1
    }
    var matched = false
    var first = true
    while i < pattern.count {
        let low = pattern[i]
        // A ']' right after '[' or '[!' is a member, not the end.
        if low == "]", !first { return (matched != negated, i + 1) }
        first = false
        if i + 2 < pattern.count, pattern[i + 1] == "-", pattern[i + 2] != "]" {
            let high = pattern[i + 2]
            if low <= character, character <= high { matched = true }
            i += 3
        } else {
            if low == character { matched = true }
            i += 1
        }
    }
    return nil
}
