public import Screenplay

/// `screenplay present [options] CONTENT`: shows content on external outputs.
public struct PresentCommand: CLICommand {
    public var invocation: Invocation { .present(self) }

    /// What to show (`PresentContent`).
    public typealias Content = PresentContent

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
    /// The talk's options (PDF content): its timer, notes, password, keys and console.
    public var talk = TalkArguments()
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
}
