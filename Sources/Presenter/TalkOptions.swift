import Foundation

/// How a talk opens and shows: the settings `screenplay present FILE.pdf`
/// takes as flags. The defaults are the tool's.
public struct TalkOptions: Sendable {
    /// The PDF's password, for an encrypted document.
    public var password: String?
    /// The notes file: Markdown (`talk.notes.md`), or pdfpc's when it ends
    /// in `.pdfpc`; it must exist. Nil: the sidecar files next to the PDF, if any.
    public var notesPath: String?
    /// The speaker's key bindings; it must exist. Nil: `presenter.conf` in
    /// `$XDG_CONFIG_HOME/screenplay` when it is there.
    public var keysPath: String?
    /// Each page is a beamer slide with its notes on this side.
    public var notesPosition: NotesPosition?
    /// The talk's length in minutes, for the countdown.
    public var durationMinutes: Double?
    /// Count down to this time of day instead of a duration.
    public var endTime: ClockTime?
    /// The timer starts by itself at this time of day.
    public var startTime: ClockTime?
    /// Minutes left when the countdown turns amber (5 unless set here or in the .pdfpc file).
    public var lastMinutes: Double?
    /// Whether the console shows the wall clock.
    public var showsClock = true
    /// The audience view is a window, not the external screens.
    public var rehearse = false
    /// The console is an ordinary window (by default it fills the main screen).
    public var windowedConsole = false
    /// Slide videos play their sound on the first audience screen.
    public var audio = false
    /// The audience screens may blank while slides are up.
    public var allowIdle = false
    /// Which files linked from a page are videos to play on the slide
    /// (the tool tells them apart by content). Nil: every linked file that
    /// libmpv opens.
    public var isVideo: (@Sendable (String) -> Bool)?
    /// Where the talk's messages go (standard error by default).
    public var messages = TalkMessages.standardError

    /// The defaults: sidecar notes, no countdown, the clock shown.
    public init() {}
}

/// Where a talk's messages go: what it read, hints, and failures that do
/// not stop it (a page that cannot be rendered, notes that cannot be saved).
public struct TalkMessages: Sendable {
    /// How much a message matters.
    public enum Level: Sendable {
        /// An event worth knowing.
        case info
        /// Something went wrong and the talk goes on.
        case warning
        /// A failure of a part of the talk.
        case error
    }

    /// Takes each message, on the main thread.
    public let write: @Sendable (Level, String) -> Void

    /// Messages to `write`.
    public init(_ write: @escaping @Sendable (Level, String) -> Void) { self.write = write }

    /// One line each on standard error.
    public static let standardError = TalkMessages { _, text in
        try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
    }

    func info(_ text: String) { write(.info, text) }
    func warning(_ text: String) { write(.warning, text) }
    func error(_ text: String) { write(.error, text) }
}

/// Why a talk cannot open: a file it needs is missing or unreadable, or
/// what it holds is wrong. The description names the file, the reason and
/// what to do.
public struct TalkError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public enum Kind: Sendable {
        /// A file is missing or cannot be read.
        case unreadable
        /// A file's content is bad: encrypted, corrupt, or a bad notes, .pdfpc or key file.
        case invalid
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The message, one line.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// Something that happened in a talk: a key, a page turned, a screen
/// connected, a frame count. `fields` is the JSON object `screenplay
/// present --stats` writes for it, with `event` (the name) and `t_ns` (the
/// monotonic time) among them.
public struct TalkEvent {
    /// The event's name: `state`, `key`, `connect`, `frames`, `draw`...
    public var name: String { fields["event"] as? String ?? "" }
    /// The event as a JSON object.
    public let fields: [String: Any]
}
