public import Fleet
public import Screenplay
import Signage

/// `screenplay play [options] PATH`: playlists on external screens,
/// unattended (signage).
public struct PlayCommand: CLICommand {
    public var invocation: Invocation { .play(self) }

    /// A folder of media, or a `.json` playlist file.
    public var path: String
    /// `--output` patterns, in order.
    public var outputPatterns: [String] = []
    /// `--all`
    public var allOutputs = false
    /// `--builtin` patterns, in order.
    public var builtinPatterns: [String] = []
    /// `--skip` patterns: screens that show nothing.
    public var skipPatterns: [String] = []
    /// `--layer`, overlay by default.
    public var layer: SceneLayer = .overlay
    /// `--fullscreen-window`
    public var fullscreenWindow = false
    /// `--stats`
    public var stats: PresentCommand.StatsDestination?
    /// `--proof`: proof-of-play lines appended to this file.
    public var proofPath: String?
    /// `--duration`: seconds per item of a folder (and of playlist items
    /// without their own).
    public var itemSeconds: Double = 10
    /// Waits for a compositor that went away (the default for signage);
    /// `--no-reconnect` exits 69 instead.
    public var reconnect = true
    /// `--stall-grace`: seconds one draw may take before the renderer counts
    /// as stuck (the item is remembered and skipped after the restart), and
    /// seconds a panel that is on may show no frame before the systemd
    /// watchdog pings stop.
    public var stallGrace: Double = 30
    /// `--allow-idle`: let the compositor blank the panels (by default a
    /// signage panel never goes dark on its own).
    public var allowIdle = false
    /// `--socket`: the control socket (default under `$XDG_RUNTIME_DIR`).
    public var socketPath: String?

    /// `play URL`'s options (`--cache`, `--poll`, `--token-file`, ...: RemoteOptions.swift).
    public var remote = RemoteOptions()

    /// Creates the command with default options.
    public init(path: String) { self.path = path }

    public static let commandName = "play"
    public static let abstract = "Play playlists on every output, unattended (signage)."
    public static let options: [OptionSpec] =
        [
            .value("output"), .flag("all"), .value("builtin"), .value("skip"), .value("layer"),
            .flag("fullscreen-window"), .value("stats"), .value("proof"), .value("duration"), .flag("no-reconnect"),
            .value("stall-grace"), .value("socket"), .flag("allow-idle"),
        ] + RemoteOptions.specs
    /// `--reconnect` asked for play's default and did nothing, so a unit
    /// that said `--no-reconnect --reconnect` could not tell what it got.
    public static let retiredOptions = [
        "reconnect":
            "'--reconnect' is gone: play always waits for a compositor that goes away and resumes on the same socket; '--no-reconnect' (exit 69 instead) is the only switch"
    ]
    public static let usage = """
        OVERVIEW: \(abstract)
        PATH is a folder (every image, PDF page, .frag/.glsl shader and video
        in it, in name order; a video lasts its own length) or a playlist file (.json: playlists per panel,
        crossfades, clock alignment; its keys are below).
        Every connected screen plays (a signage box has no laptop panel to
        keep free) except those --skip, --builtin or SCREENPLAY_BUILTIN name.
        SIGHUP or saving the playlist file reloads it without a restart;
        `screenplay ctl` controls it through a local socket. Under systemd
        (NOTIFY_SOCKET) it reports readiness, status and watchdog pings.
        PATH may be the http:// or https:// URL of a playlist file: it and
        the files it names are downloaded to a cache and played from there,
        and the URL is asked for a change every --poll seconds (docs/fleet.md,
        Running a fleet).

        USAGE: screenplay play [options] <path>

        OPTIONS:
          --duration SECONDS      Seconds per item (default 10; a playlist
                                  item's own "duration" wins).
          --output PATTERN        Use only outputs whose name, description, make,
                                  model or serial matches (repeatable).
          --skip PATTERN          Leave matching outputs alone (repeatable).
          --builtin PATTERN       Treat matching outputs as built-in: they show
                                  nothing (repeatable; also SCREENPLAY_BUILTIN).
          --all                   Use every output, those marked built-in too.
          --layer LAYER           overlay (default), top, bottom or background.
          --fullscreen-window     Fullscreen windows instead of layer surfaces.
          --stats FILE            JSON Lines to FILE ('-': standard output):
                                  connect, disconnect, item (proof of
                                  play), reload, skipped, placeholder,
                                  clock-step, schedule, frames, stalled,
                                  resumed, graphics (GL objects held).
          --proof FILE            Append an 'item' line to FILE each time an
                                  item is first fully visible on a panel
                                  (reopened when logrotate moves it; SIGUSR1
                                  reopens it at once).
          --no-reconnect          Exit 69 when the compositor goes away (default:
                                  wait for one on the same socket and resume
                                  at the clock's item).
          --stall-grace SECONDS   A draw that has not returned after this long
                                  (default 30) is a stuck renderer: exit 70
                                  naming the output and item; the item is
                                  remembered (in $XDG_STATE_HOME/screenplay)
                                  and skipped after the restart. Under
                                  systemd's watchdog, also how long a panel
                                  that is on may show no frame before the
                                  pings stop.
          --allow-idle            Let the desktop blank the panels when idle
                                  (default: they stay on while playing).
          --socket PATH           The control socket for `screenplay ctl`
                                  (default $XDG_RUNTIME_DIR/screenplay/play.sock).
        \(RemoteOptions.usage)
          -h, --help              Show this help.

        PLAYLIST FILE (JSON; a key not listed here is refused):
          {"playlists": {"lobby": [{"file": "welcome.png", "duration": 8},
                                   {"color": "102040"}]},
           "panels": [{"match": "HDMI-A-1", "playlist": "lobby"}],
           "default": "lobby", "transition": {"seconds": 1}, "sync": true}
          Top level:
            $schema               Ignored: the JSON Schema an editor checks the
                                  file with (docs/playlist.schema.json).
            playlists             Required (unless there are layouts):
                                  playlist name -> list of items.
            layouts               Layout name -> a layout: regions of a
                                  panel, each playing its own items.
            panels                A list of panel entries; the first whose
                                  "match" names a screen chooses its playlist.
            walls                 A list of video walls: screens that show one
                                  picture together, each tile its part.
            default               The playlist (or layout) of screens no panel
                                  entry matches (without it they show nothing).
            transition            {"seconds": S}: crossfade between items
                                  (default 0, a cut).
            sync                  true (default): the wall clock places every
                                  panel in its playlist, so panels on one
                                  playlist switch together; false: each panel
                                  starts at the first item when it appears.
                                  A reload takes over at the next item.
            activate_at           "2026-12-24T18:00:00Z" (ISO 8601 with its
                                  zone): once loaded, the playlist takes over
                                  on every panel (and box) at this instant;
                                  the old one plays until then.
            timezone              The IANA zone schedules use ("Europe/Berlin";
                                  default: the system's, TZ).
            web                   {"allow": ["https://host", ...],
                                  "memory_limit_mb": N}: the origins web pages
                                  may reach (default: each page its own) and
                                  each web process's limit (default 1536).
          An item (one of "file", "color" or "web"; text items below):
            file                  An image, PDF, .frag/.glsl shader or video
                                  (relative to the playlist file's folder).
            color                 "RRGGBB": a solid colour.
            web                   A web page: an http(s) URL, or a .html file
                                  in the playlist's folder.
            duration              Seconds on screen, crossfade included
                                  (default --duration; a video: its length).
            pages                 PDF pages: "1-3" or "1,4,6-8" (default all).
            transition            {"seconds": S}: this item's own crossfade in.
            sha256                The file's SHA-256 (64 hex digits); a file
                                  downloaded from a URL must match it.
            bytes                 The file's size; a download must match it.
          A panel entry:
            match                 A screen pattern, as --output takes.
            playlist              The name of one of the playlists.
            layout                Or the name of one of the layouts.
            rotate                0, 90, 180 or 270: the panel hangs turned
                                  that far clockwise; content is turned back.
            schedule              A list of schedule entries: the highest
                                  "priority" one active now plays instead of
                                  "playlist" (first listed among equals).
          A schedule entry (all but "playlist" or "layout" optional):
            playlist              The playlist it plays.
            layout                Or the layout it plays.
            days                  ["mon", "sat-sun", ...]: the days it starts on.
            from                  "HH:MM" or "HH:MM:SS", local (default 00:00).
            to                    Likewise (default 24:00); at or before
                                  "from" it ends the next day.
            dates                 A date range: the days it starts on.
            priority              A whole number (default 0); higher wins.
          A date range (either may be left out):
            from                  The first day, "YYYY-MM-DD", included.
            to                    The last day, included.
          A transition:
            seconds               Crossfade length in seconds, 0 or more.
          A layout:
            background            "RRGGBB" behind the regions (default 000000).
            regions               Required: a non-empty list of regions.
          A region (z, background and transition optional):
            name                  Unique in its layout (proof of play, status).
            x                     Pixels of the panel as seen (after "rotate")
                                  or "N%" of its width.
            y                     Likewise, of its height.
            width                 Pixels or "N%", more than 0, up to 100%.
            height                Likewise.
            z                     A whole number (default 0); higher on top.
            background            "RRGGBB" behind its items (default the
                                  layout's).
            playlist              The playlist it plays (or "items").
            items                 Its own list of items, as a playlist's.
            transition            {"seconds": S}: crossfade between its items.
          A wall (unit, panel and gap optional):
            playlist              What it plays across its canvas.
            layout                Or the layout it plays.
            unit                  "px" (default) or "mm": of x, y and gap.
            panel                 The panels' size, unturned (default: each
                                  screen's mode and physical size).
            gap                   [across, down]: between the active areas
                                  of grid tiles (the bezels), in "unit".
            tiles                 Required: a non-empty list of tiles.
          A tile ("column" and "row", or "x" and "y"):
            match                 A screen pattern, as --output takes.
            column                Its column in the grid, from 0 at the left.
            row                   Its row in the grid, from 0 at the top.
            x                     Its active area's left edge, in "unit".
            y                     Its active area's top edge.
            rotate                0, 90, 180 or 270: the panel hangs turned
                                  that far clockwise (a portrait wall).
          A wall's panel:
            pixels                [width, height]: its mode.
            mm                    [width, height]: its active area.

        EXAMPLES:
          screenplay play /srv/signage/lobby
          screenplay play --duration 15 --output 'HDMI-*' ~/posters
          screenplay play --proof /var/log/screenplay-proof.jsonl signage.json
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        outputPatterns = arguments.all("output")
        allOutputs = arguments.flag("all")
        builtinPatterns = arguments.all("builtin")
        skipPatterns = arguments.all("skip")
        if let value = arguments.last("layer") { layer = try Self.parseLayer(value) }
        fullscreenWindow = arguments.flag("fullscreen-window")
        if fullscreenWindow, arguments.last("layer") != nil {
            throw Self.usageError("--layer sets a layer surface's layer; --fullscreen-window uses no layer surface")
        }
        stats = arguments.last("stats").map { $0 == "-" ? .standardOutput : .file($0) }
        proofPath = arguments.last("proof")
        if let value = arguments.last("duration") {
            guard let seconds = Double(value), seconds.isFinite, seconds > 0 else {
                throw Self.usageError(
                    "invalid value '\(value)' for '--duration': expected a positive number of seconds")
            }
            itemSeconds = seconds
        }
        reconnect = !arguments.flag("no-reconnect")
        stallGrace = try Self.parseStallGrace(arguments.last("stall-grace"))
        socketPath = arguments.last("socket")
        allowIdle = arguments.flag("allow-idle")
        if socketPath?.isEmpty == true { throw Self.usageError("'--socket' needs a path") }
        guard let first = arguments.positionals.first else {
            throw Self.usageError("missing path: expected a folder of media or a .json playlist")
        }
        if arguments.positionals.count > 1 {
            throw Self.usageError("unexpected argument '\(arguments.positionals[1])'")
        }
        path = first
        remote = try RemoteOptions(parsing: arguments, isURL: RemoteOptions.isURL(first), usage: Self.usage)
    }

    public func validate() throws(UsageError) {
        if allOutputs, let pattern = outputPatterns.first {
            throw Self.usageError("'--all' cannot be combined with '--output \(pattern)'")
        }
    }
}
