public import Presenter
public import Screenplay

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
        /// An image file (PNG, JPEG, GIF, WebP, SVG), recognised by content.
        case image(path: String)
        /// A PDF document (`.pdf`, or `%PDF` content).
        case pdf(path: String)
        /// A video file, played by libmpv (`.mp4`, `.mkv`, `.webm`, `.mov`
        /// and more, or any existing file that is no image or PDF: libmpv
        /// decides).
        case video(path: String)
        /// A web page (http://, https://, or a local .html file), shown by WPE WebKit.
        case web(url: String)

        /// Classifies a file path: shaders by extension (case-insensitive),
        /// an existing file by its content (`ContentRecognition`), a missing
        /// one by an image or PDF extension; `nil` for an unsupported kind.
        public static func file(_ path: String) -> Content? {
            let fileName = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
            // A leading dot marks a hidden file, not an extension.
            let dot = fileName.dropFirst().lastIndex(of: ".")
            let fileExtension = dot.map { fileName[fileName.index(after: $0)...].lowercased() } ?? ""
            if fileExtension == "frag" || fileExtension == "glsl" { return .shader(path: path) }
            let lowered = path.lowercased()
            if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return .web(url: path) }
            if fileExtension == "html" || fileExtension == "htm" { return .web(url: path) }
            return ContentRecognition.classify(path: path, fileName: String(fileName), fileExtension: fileExtension)
        }
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
    /// `--output` patterns (see `ScreenPattern`), in order.
    public var outputPatterns: [String] = []
    /// `--all`
    public var allOutputs = false
    /// `--builtin` patterns (see `ScreenPattern`), in order.
    public var builtinPatterns: [String] = []
    /// `--layer`, overlay by default.
    public var layer: SceneLayer = .overlay
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
    /// `--talk-minutes`: the talk's length, in minutes.
    public var durationMinutes: Double?
    /// `--end-time HH:MM`: count down to this time of day instead of a duration.
    public var endTime: ClockTime?
    /// `--start-time HH:MM` (pdfpc's `-t`): the talk's timer starts by
    /// itself at this time of day, and counts down to it before.
    public var startTime: ClockTime?
    /// `--last-minutes N`: minutes left when the countdown turns amber (5 unless set here or in the .pdfpc file).
    public var lastMinutes: Double?
    /// `--notes-position`: each page is a beamer slide with its notes on this side.
    public var notesPosition: NotesPosition?
    /// `--notes`
    public var notesPath: String?
    /// `--password`
    public var password: String?
    /// `--keys FILE`: the speaker's key bindings (default: presenter.conf
    /// in `$XDG_CONFIG_HOME/screenplay`, when it is there).
    public var keysPath: String?
    /// `--rehearse`
    public var rehearse = false
    /// `--windowed-console`: the console is an ordinary window (by default
    /// it is full screen on the built-in or main screen, as pdfpc's).
    public var windowedConsole = false
    /// False with `--no-clock`: the console shows no wall clock (and, while
    /// the talk timer does not run, does not redraw once a second).
    public var showsClock = true
    /// `--mode WxH[@HZ]`, checked by `ScreenModeRequest(parsing:)`.
    public var mode: String?
    /// `--audio`: video plays its sound (silent by default).
    public var audio = false
    /// `--no-loop`: video plays once, then `present` exits 0.
    public var loops = true
    /// `--stall-grace`: seconds one draw may take before the renderer counts
    /// as stuck (the process then exits 70), and seconds a panel that is on
    /// may show no frame before the systemd watchdog pings stop.
    public var stallGrace: Double = 30
    /// `--allow-idle`: let the compositor blank the screens shown on (by
    /// default they are kept on, as a projector must be).
    public var allowIdle = false

    /// Creates the command with the given content and default options.
    public init(content: Content) { self.content = content }

    public static let commandName = "present"
    public static let abstract = "Show content on external outputs, paced to their refresh rate."
    public static let options: [OptionSpec] = [
        .value("output"), .flag("all"), .value("builtin"), .value("layer"), .value("fps"),
        .flag("preview"), .flag("fullscreen-window"), .value("stats"), .flag("reconnect"), .value("talk-minutes"),
        .value("notes"), .value("password"), .flag("rehearse"), .value("mode"), .flag("audio"),
        .flag("no-loop"), .value("end-time"), .value("last-minutes"), .value("notes-position"),
        .value("stall-grace"), .flag("allow-idle"), .value("keys"),
        .flag("windowed-console"), .value("start-time"), .flag("no-clock"),
    ]
    /// `--duration` counted the talk's minutes here and seconds per item in
    /// play, a misreading waiting to happen: present's is `--talk-minutes`.
    public static let retiredOptions = [
        "duration":
            "'--duration' is gone from present (it counted minutes, play's counts seconds): give the talk's length as '--talk-minutes MIN'"
    ]
    /// Supported content, for help and error messages.
    static let contentKinds =
        "test-card, color RRGGBB, or a .frag/.glsl shader, an image (PNG, JPEG, GIF, WebP, SVG), a PDF or a video file"
    public static let usage = """
        OVERVIEW: \(abstract)

        USAGE: screenplay present [options] <content>

        CONTENT:
          test-card               Built-in pattern for checking geometry and timing.
          color RRGGBB            Solid color; #RRGGBB works too.
          FILE.frag, FILE.glsl    Animated GLSL ES fragment shader.
          IMAGE                   PNG, JPEG, GIF, WebP or SVG (recognised by
                                  content), fitted; animated GIF/WebP play.
          FILE.pdf                Slides, one page at a time.
          VIDEO                   A video file (.mp4, .mkv, .webm, .mov, ... or any
                                  file libmpv decodes), scaled to fit, looping.

        OUTPUTS (default: every external output):
          --output PATTERN        Use outputs whose name, description, make, model
                                  or serial matches PATTERN (repeatable; exact
                                  or glob * ? [...], case-insensitive).
          --all                   Use every output, built-in ones included.
          --builtin PATTERN       Treat outputs matching PATTERN, as --output
                                  matches, as built-in (repeatable).
          --reconnect             When the compositor dies, wait for one on the
                                  same socket and show the content again
                                  (default: exit 69). Outputs coming and going
                                  are always followed.

        RENDERING:
          --mode WxH[@HZ]         Set each external output to this mode first
                                  (wlroots compositors); the previous mode comes
                                  back on exit.
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
          --allow-idle            Let the desktop blank or lock the screens shown
                                  on (default: they stay on while shown).
          --stall-grace SECONDS   A draw that has not returned after this long
                                  (default 30) is a stuck renderer: say which
                                  output and content, exit 70 (EX_SOFTWARE).
                                  Under systemd's watchdog, also how long a
                                  panel that is on may show no frame before
                                  the pings stop.

        SLIDES:
          --talk-minutes MIN      Length of the talk in minutes: a countdown that
                                  turns amber 5 minutes before the end, red after.
          --end-time HH:MM        Count down to this time of day instead.
          --start-time HH:MM      The timer starts by itself at this time of day
                                  (and the console counts down to it); one
                                  that passed within 12 hours counts from it.
          --last-minutes N        Turn the countdown amber N minutes before the
                                  end (default 5).
          --notes FILE            Speaker notes (default: talk.notes.md next to
                                  talk.pdf; a section per page starts '## N').
                                  pdfpc's talk.pdfpc next to talk.pdf is read
                                  too (notes, duration, end time, last minutes,
                                  notes position); talk.notes.md wins per page.
          --notes-position SIDE   Pages are LaTeX beamer slides with notes on
                                  the right, left, top or bottom half: the
                                  audience sees the slide, the console the notes.
          --password PW           Password of an encrypted PDF.
          --rehearse              Show the audience view in a window instead
                                  (the console is then a window too).
          --windowed-console      Keep the console an ordinary window (default:
                                  full screen on the built-in or main screen).
          --no-clock              Leave the wall clock out of the console's top
                                  bar (the talk timer stays).
          --keys FILE             Key bindings in pdfpcrc's syntax, one a line:
                                  'bind KEY ACTION', 'unbind KEY' (KEY an xkb
                                  keysym after S+, C+ or A+; ACTION below or
                                  pdfpc's name). Default: presenter.conf in
                                  $XDG_CONFIG_HOME/screenplay, when there. A bad
                                  line exits 65 naming it. Actions:
        \(PresenterKeyNames.actionNamesText)

        KEYS (slides; any keymap, clickers send these):
        \(PresenterKeyNames.helpText)

        VIDEO:
          --audio                 Play the video's sound, also of videos on PDF
                                  slides (default: silent, no audio output
                                  is opened).
          --no-loop               Play once, then exit (default: loop).

          -h, --help              Show this help.

        EXAMPLES:
          screenplay present test-card
          screenplay present --output 'HDMI-*' color '#FF8800'
          screenplay present --fps 30 --stats - plasma.frag
          screenplay present --talk-minutes 20 talk.pdf
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        // Options first: a bad option value that swallowed the content word
        // (`--fps test-card`) is the more useful error to report.
        content = .testCard
        outputPatterns = arguments.all("output")
        allOutputs = arguments.flag("all")
        builtinPatterns = arguments.all("builtin")
        if let value = arguments.last("layer") { layer = try Self.parseLayer(value) }
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
        if let value = arguments.last("talk-minutes") {
            guard let minutes = Double(value), minutes.isFinite, minutes > 0 else {
                throw Self.usageError(
                    "invalid value '\(value)' for '--talk-minutes': expected a positive number of minutes")
            }
            durationMinutes = minutes
        }
        if let value = arguments.last("end-time") {
            guard let time = ClockTime(parsing: value) else {
                throw Self.usageError(
                    "invalid value '\(value)' for '--end-time': expected a time of day HH:MM (24-hour clock)")
            }
            endTime = time
        }
        if let value = arguments.last("start-time") {
            guard let time = ClockTime(parsing: value) else {
                throw Self.usageError(
                    "invalid value '\(value)' for '--start-time': expected a time of day HH:MM (24-hour clock)")
            }
            startTime = time
        }
        if let value = arguments.last("last-minutes") {
            guard let minutes = Double(value), minutes.isFinite, minutes >= 0 else {
                throw Self.usageError("invalid value '\(value)' for '--last-minutes': expected minutes, 0 or more")
            }
            lastMinutes = minutes
        }
        if let value = arguments.last("notes-position") {
            guard let position = NotesPosition(rawValue: value.lowercased()) else {
                throw Self.usageError(
                    "invalid value '\(value)' for '--notes-position': expected right, left, top or bottom")
            }
            notesPosition = position
        }
        notesPath = arguments.last("notes")
        keysPath = arguments.last("keys")
        password = arguments.last("password")
        rehearse = arguments.flag("rehearse")
        windowedConsole = arguments.flag("windowed-console")
        showsClock = !arguments.flag("no-clock")
        mode = try Self.parseModeOption(arguments.last("mode"))
        audio = arguments.flag("audio")
        loops = !arguments.flag("no-loop")
        stallGrace = try Self.parseStallGrace(arguments.last("stall-grace"))
        allowIdle = arguments.flag("allow-idle")
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
            guard let color = RGBColor(parsing: words[1]) else {
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
        let isPDF: Bool
        if case .pdf = content { isPDF = true } else { isPDF = false }
        for (option, given) in [
            ("password", password != nil), ("end-time", endTime != nil), ("last-minutes", lastMinutes != nil),
            ("start-time", startTime != nil),
            ("notes-position", notesPosition != nil), ("no-clock", !showsClock),
        ] where given && !isPDF {
            throw Self.usageError("'--\(option)' only applies to PDF content")
        }
        if let endTime, durationMinutes != nil {
            throw Self.usageError("'--talk-minutes' and '--end-time \(endTime)' both set the countdown: give one")
        }
        // --audio also gives sound to videos placed on slides.
        if audio, !content.isVideo, !isPDF {
            throw Self.usageError("'--audio' only applies to video content and to videos on PDF slides")
        }
        if !loops, !content.isVideo {
            throw Self.usageError("'--no-loop' only applies to video content")
        }
    }
}

extension PresentCommand.Content {
    /// What `present` shows, in a few words (systemd's status line).
    var label: String {
        switch self {
        case .testCard: "test card"
        case let .color(color): "colour \(color)"
        case let .shader(path), let .image(path), let .pdf(path), let .video(path), let .web(path): path
        }
    }
}
