import Foundation

// The presenter's state, free of Wayland and rendering so it is unit tested
// alone: keys -> actions, page navigation with typed page numbers, the
// audience's black/white/frozen state, the talk timer, and speaker notes.

/// What a key asks the presenter to do.
enum PresenterAction: Equatable, Sendable {
    case next, previous, first, last
    /// A digit typed towards "N then Return".
    case digit(Int)
    /// Return: go to the typed page, or to the next page when none was typed.
    case enter
    case toggleBlack, toggleWhite, toggleFreeze
    case swapScreens
    case toggleTimer, resetTimer
    /// F5: back to the first page and start the timer.
    case startFromBeginning
    /// Shift+F5: start the timer on the current page.
    case startHere
    case quit
}

/// The presenter's keys. Keysyms come translated through the compositor's
/// keymap, so these hold on any layout.
enum PresenterKeys {
    static func action(keysym: String, text: String, shift: Bool = false) -> PresenterAction? {
        switch keysym {
        // xkbcommon names Page_Down "Next" and Page_Up "Prior" (same keysyms).
        case "Right", "Down", "Next", "Page_Down", "KP_Right", "KP_Down", "KP_Next", "KP_Page_Down", "space":
            return .next
        case "Return", "KP_Enter":
            return .enter
        case "Left", "Up", "Prior", "Page_Up", "KP_Left", "KP_Up", "KP_Prior", "KP_Page_Up", "BackSpace":
            return .previous
        case "Home", "KP_Home": return .first
        case "End", "KP_End": return .last
        case "period", "KP_Decimal": return .toggleBlack
        case "comma": return .toggleWhite
        case "F5": return shift ? .startHere : .startFromBeginning
        case "Escape": return .quit
        default: break
        }
        if keysym.hasPrefix("KP_"), let d = Int(keysym.dropFirst(3)), (0...9).contains(d) { return .digit(d) }
        if keysym.count == 1, let d = Int(keysym) { return .digit(d) }
        switch keysym.lowercased() {
        case "n": return .next
        case "p": return .previous
        case "b": return .toggleBlack
        case "w": return .toggleWhite
        case "f": return .toggleFreeze
        case "s": return .swapScreens
        case "t": return .toggleTimer
        case "r": return .resetTimer
        case "q": return .quit
        default: break
        }
        // Layouts whose digits need a modifier still type digits.
        if text.count == 1, let d = Int(text) { return .digit(d) }
        return nil
    }
}

/// What the audience sees.
enum AudienceContent: Equatable, Sendable {
    case page(Int)
    case black
    case white
}

/// Time since the talk started, with pause and reset. Times are seconds on
/// a monotonic clock, passed in so tests control them.
struct TalkTimer: Equatable, Sendable {
    private(set) var accumulated: Double = 0
    private(set) var runningSince: Double?
    /// False until the first page change (or F5 / t) starts it.
    private(set) var hasStarted = false

    var isRunning: Bool { runningSince != nil }

    func elapsed(at now: Double) -> Double { accumulated + (runningSince.map { max(0, now - $0) } ?? 0) }

    /// Starts the timer the first time only (page changes call this).
    mutating func startIfNeeded(at now: Double) {
        guard !hasStarted else { return }
        start(at: now)
    }

    /// Starts from zero, now.
    mutating func restart(at now: Double) {
        accumulated = 0
        runningSince = now
        hasStarted = true
    }

    mutating func start(at now: Double) {
        hasStarted = true
        if runningSince == nil { runningSince = now }
    }

    /// Pauses a running timer, resumes a paused one (and starts one that never ran).
    mutating func toggle(at now: Double) {
        if let since = runningSince {
            accumulated += max(0, now - since)
            runningSince = nil
        } else {
            start(at: now)
        }
    }

    /// Back to zero; a running timer keeps running from zero, a paused one stays paused.
    mutating func reset(at now: Double) {
        accumulated = 0
        if runningSince != nil { runningSince = now }
    }
}

/// The countdown shown with `--duration`: time left, amber in the last five
/// minutes, red once over.
struct Countdown: Equatable, Sendable {
    enum Phase: Equatable, Sendable { case normal, amber, over }
    let remaining: Double
    let phase: Phase

    init(duration: Double, elapsed: Double) {
        remaining = duration - elapsed
        if remaining <= 0 { phase = .over } else if remaining <= 300 { phase = .amber } else { phase = .normal }
    }

    /// "12:34" left, or "+1:05" over.
    var text: String { remaining >= 0 ? formatDuration(remaining) : "+" + formatDuration(-remaining) }
}

/// "m:ss" under an hour, "h:mm:ss" from there; whole seconds, rounded down.
func formatDuration(_ seconds: Double) -> String {
    let total = max(0, Int(seconds.rounded(.down)))
    let h = total / 3600, m = total / 60 % 60, s = total % 60
    return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
}

/// Page, typed digits, audience state and timer.
struct PresenterState: Equatable, Sendable {
    enum Blank: Equatable, Sendable { case none, black, white }
    /// What an action changed, for the runner.
    enum Outcome: Equatable, Sendable { case unchanged, changed, swapScreens, quit }

    let pageCount: Int
    /// The current page, 0-based.
    private(set) var page = 0
    /// Digits typed towards "N then Return".
    private(set) var typed = ""
    private(set) var blank: Blank = .none
    /// The page the audience keeps seeing while frozen.
    private(set) var frozenPage: Int?
    var timer = TalkTimer()

    init(pageCount: Int) { self.pageCount = max(1, pageCount) }

    var nextPage: Int? { page + 1 < pageCount ? page + 1 : nil }

    /// What the audience screens show.
    var audience: AudienceContent {
        switch blank {
        case .black: return .black
        case .white: return .white
        case .none: return .page(frozenPage ?? page)
        }
    }

    @discardableResult
    mutating func apply(_ action: PresenterAction, at now: Double) -> Outcome {
        if case .digit(let d) = action {
            // Page numbers longer than the document's cannot be meant.
            if typed.count < String(pageCount).count + 1 { typed += String(d) }
            return .changed
        }
        let pending = typed
        typed = ""
        switch action {
        case .next: return go(to: page + 1, at: now, typedWasPending: !pending.isEmpty)
        case .previous: return go(to: page - 1, at: now, typedWasPending: !pending.isEmpty)
        case .first: return go(to: 0, at: now, typedWasPending: !pending.isEmpty)
        case .last: return go(to: pageCount - 1, at: now, typedWasPending: !pending.isEmpty)
        case .enter:
            if pending.isEmpty { return go(to: page + 1, at: now, typedWasPending: false) }
            guard let n = Int(pending), (1...pageCount).contains(n) else { return .changed }
            return go(to: n - 1, at: now, typedWasPending: true)
        case .digit: return .unchanged
        case .toggleBlack:
            blank = blank == .black ? .none : .black
            return .changed
        case .toggleWhite:
            blank = blank == .white ? .none : .white
            return .changed
        case .toggleFreeze:
            frozenPage = frozenPage == nil ? page : nil
            return .changed
        case .swapScreens:
            return .swapScreens
        case .toggleTimer:
            timer.toggle(at: now)
            return .changed
        case .resetTimer:
            timer.reset(at: now)
            return .changed
        case .startFromBeginning:
            page = 0
            timer.restart(at: now)
            return .changed
        case .startHere:
            timer.restart(at: now)
            return .changed
        case .quit:
            return .quit
        }
    }

    private mutating func go(to target: Int, at now: Double, typedWasPending: Bool) -> Outcome {
        let clamped = min(max(0, target), pageCount - 1)
        guard clamped != page else { return typedWasPending ? .changed : .unchanged }
        page = clamped
        timer.startIfNeeded(at: now)
        return .changed
    }
}

/// A notes file that does not follow the format, with the line at fault.
struct NotesError: Error, CustomStringConvertible, Equatable {
    let path: String
    let line: Int
    let reason: String
    var description: String { "\(path):\(line): \(reason)" }
}

/// Speaker notes from the sidecar file (`talk.pdf` -> `talk.notes.md`): a
/// section per page, started by a line `## N` (1-based page number). Lines
/// before the first section may be blank or `#` headings; anything else
/// there, a `##` line without a valid page, a page twice or a page beyond
/// the document is an error naming its line.
struct SpeakerNotes: Equatable, Sendable {
    /// Notes by 0-based page.
    private(set) var pages: [Int: String] = [:]

    init() {}

    /// The notes for page `index` (0-based); "" for a page without a section.
    func text(forPage index: Int) -> String { pages[index] ?? "" }

    static func parse(_ text: String, pageCount: Int, path: String) throws(NotesError) -> SpeakerNotes {
        var notes = SpeakerNotes()
        var current: (page: Int, line: Int)?
        var body: [Substring] = []
        var seen: [Int: Int] = [:]
        func flush() {
            guard let current else { return }
            var lines = body[...]
            while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines = lines.dropFirst() }
            while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines = lines.dropLast() }
            let joined = lines.joined(separator: "\n")
            if !joined.isEmpty { notes.pages[current.page] = joined }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, raw) in lines.enumerated() {
            let number = i + 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let isSection = line.hasPrefix("##") && !line.hasPrefix("###")
            if isSection {
                let rest = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
                guard line.dropFirst(2).first?.isWhitespace == true, let n = Int(rest) else {
                    throw NotesError(path: path, line: number, reason: "expected a section line '## N' with a page number, found '\(line)'")
                }
                guard n >= 1, n <= pageCount else {
                    throw NotesError(path: path, line: number, reason: "page \(n) does not exist: the document has \(pageCount) page\(pageCount == 1 ? "" : "s")")
                }
                if let earlier = seen[n] {
                    throw NotesError(path: path, line: number, reason: "a second section for page \(n) (the first is on line \(earlier))")
                }
                flush()
                seen[n] = number
                current = (n - 1, number)
                body = []
            } else if current != nil {
                body.append(line)
            } else if !line.allSatisfy(\.isWhitespace) && !line.hasPrefix("#") {
                throw NotesError(path: path, line: number, reason: "text before the first '## N' section (start each page's notes with '## N')")
            }
        }
        flush()
        return notes
    }

    /// The sidecar path for a document: `talk.pdf` -> `talk.notes.md`.
    static func sidecarPath(for pdf: String) -> String {
        let url = URL(fileURLWithPath: pdf)
        let base = url.deletingPathExtension().lastPathComponent
        let dir = (pdf as NSString).deletingLastPathComponent
        return (dir.isEmpty ? "" : dir + "/") + base + ".notes.md"
    }
}
