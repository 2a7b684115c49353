import Foundation
public import Presenter
import Signage

/// `present`'s options for a talk (PDF content): its timer, notes,
/// password, key bindings and console, read and checked (a bad value exits
/// 64 naming the option, the value and what is expected), and handed to the
/// Presenter as `TalkOptions`.
public struct TalkArguments: Equatable, Sendable {
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

    /// Creates the arguments with every option at its default.
    public init() {}

    /// Reads the talk's options; `usage` goes with an error.
    init(parsing arguments: ParsedArguments, usage: String) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(message: message, usage: usage) }
        if let value = arguments.last("talk-minutes") {
            guard let minutes = Double(value), minutes.isFinite, minutes > 0 else {
                throw fail("invalid value '\(value)' for '--talk-minutes': expected a positive number of minutes")
            }
            durationMinutes = minutes
        }
        if let value = arguments.last("end-time") {
            guard let time = ClockTime(parsing: value) else {
                throw fail("invalid value '\(value)' for '--end-time': expected a time of day HH:MM (24-hour clock)")
            }
            endTime = time
        }
        if let value = arguments.last("start-time") {
            guard let time = ClockTime(parsing: value) else {
                throw fail(
                    "invalid value '\(value)' for '--start-time': expected a time of day HH:MM (24-hour clock)")
            }
            startTime = time
        }
        if let value = arguments.last("last-minutes") {
            guard let minutes = Double(value), minutes.isFinite, minutes >= 0 else {
                throw fail("invalid value '\(value)' for '--last-minutes': expected minutes, 0 or more")
            }
            lastMinutes = minutes
        }
        if let value = arguments.last("notes-position") {
            guard let position = NotesPosition(rawValue: value.lowercased()) else {
                throw fail("invalid value '\(value)' for '--notes-position': expected right, left, top or bottom")
            }
            notesPosition = position
        }
        notesPath = arguments.last("notes")
        keysPath = arguments.last("keys")
        password = arguments.last("password")
        rehearse = arguments.flag("rehearse")
        windowedConsole = arguments.flag("windowed-console")
        showsClock = !arguments.flag("no-clock")
    }

    /// Options that mean something for PDF content only are refused with
    /// other content, and the countdown is set one way at most.
    func validate(isPDF: Bool, usage: String) throws(UsageError) {
        for (option, given) in [
            ("password", password != nil), ("end-time", endTime != nil), ("last-minutes", lastMinutes != nil),
            ("start-time", startTime != nil),
            ("notes-position", notesPosition != nil), ("no-clock", !showsClock),
        ] where given && !isPDF {
            throw UsageError(message: "'--\(option)' only applies to PDF content", usage: usage)
        }
        if let endTime, durationMinutes != nil {
            throw UsageError(
                message: "'--talk-minutes' and '--end-time \(endTime)' both set the countdown: give one", usage: usage)
        }
    }

    /// The talk's options with present's `--audio` and `--allow-idle`, and
    /// the tool's messages and content recognition.
    func talkOptions(audio: Bool, allowIdle: Bool) -> TalkOptions {
        var options = TalkOptions()
        options.password = password
        options.notesPath = notesPath
        options.keysPath = keysPath
        options.notesPosition = notesPosition
        options.durationMinutes = durationMinutes
        options.endTime = endTime
        options.startTime = startTime
        options.lastMinutes = lastMinutes
        options.showsClock = showsClock
        options.rehearse = rehearse
        options.windowedConsole = windowedConsole
        options.audio = audio
        options.allowIdle = allowIdle
        options.messages = .log
        options.isVideo = { path in
            let url = URL(fileURLWithPath: path)
            let kind = ContentRecognition.classify(
                path: path, fileName: url.lastPathComponent, fileExtension: url.pathExtension.lowercased())
            return kind == .video
        }
        return options
    }
}

extension TalkMessages {
    /// The tool's log: each level as its `log`, `warn` or `printError` line.
    static let log = TalkMessages { level, text in
        switch level {
        case .info: Log.write(text, level: .info)
        case .warning: Log.write(text, level: .warning)
        case .error: Log.write(text, level: .error)
        }
    }
}
