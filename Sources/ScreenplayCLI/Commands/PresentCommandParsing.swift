import Presenter
import Screenplay

/// `screenplay present`'s arguments read and checked: a bad value exits 64
/// naming the option, the value and what is expected.
extension PresentCommand {
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
