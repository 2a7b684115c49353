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
        talk = try TalkArguments(parsing: arguments, usage: Self.usage)
        mode = try Self.parseModeOption(arguments.last("mode"))
        audio = arguments.flag("audio")
        loops = !arguments.flag("no-loop")
        stallGrace = try Self.parseStallGrace(arguments.last("stall-grace"))
        allowIdle = arguments.flag("allow-idle")
        content = try PresentContent.parse(arguments.positionals, usage: Self.usage)
    }

    public func validate() throws(UsageError) {
        if allOutputs, let pattern = outputPatterns.first {
            throw Self.usageError("'--all' cannot be combined with '--output \(pattern)'")
        }
        let isPDF: Bool
        if case .pdf = content { isPDF = true } else { isPDF = false }
        try talk.validate(isPDF: isPDF, usage: Self.usage)
        // --audio also gives sound to videos placed on slides.
        if audio, !content.isVideo, !isPDF {
            throw Self.usageError("'--audio' only applies to video content and to videos on PDF slides")
        }
        if !loops, !content.isVideo {
            throw Self.usageError("'--no-loop' only applies to video content")
        }
    }
}
