public import Presenter
public import Screenplay
import Signage

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
            switch MediaKind.of(path) {
            case .shader?: .shader(path: path)
            case .web?: .web(url: path)
            case .image?: .image(path: path)
            case .pdf?: .pdf(path: path)
            case .video?: .video(path: path)
            case nil: nil
            }
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
}
