import Foundation

// The presenter's state, free of Wayland and rendering so it is unit tested
// alone: keys -> actions, page navigation with typed page numbers, the
// audience's black/white/frozen state, the talk timer, and speaker notes.

/// What a key asks the presenter to do.
enum PresenterAction: Equatable, Sendable {
    case next, previous, first, last
    /// Shift with next/previous: the first page of the next or previous
    /// slide, past the rest of an overlay (pdfpc's "user slide").
    case nextSlide, previousSlide
    /// Tab: the grid of slides on the console; Escape or Tab leaves it.
    case toggleOverview
    /// Up and Down move a row in the overview (elsewhere they are previous/next).
    case rowUp, rowDown
    /// A digit typed towards "N then Return".
    case digit(Int)
    /// Return: go to the typed page, or to the next page when none was typed.
    case enter
    case toggleBlack, toggleWhite, toggleFreeze
    /// `l` and `h`: pdfpc's pointer dot and spotlight over the slide.
    case togglePointer, toggleSpotlight
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
    /// `overview`: the grid is up, where Up and Down move by rows and
    /// Escape leaves the grid rather than the talk.
    static func action(keysym: String, text: String, shift: Bool = false, overview: Bool = false) -> PresenterAction? {
        if overview {
            switch keysym {
            case "Up", "KP_Up": return .rowUp
            case "Down", "KP_Down": return .rowDown
            case "Escape": return .toggleOverview
            default: break
            }
        }
        switch keysym {
        // xkbcommon names Page_Down "Next" and Page_Up "Prior" (same keysyms).
        case "Right", "Down", "Next", "Page_Down", "KP_Right", "KP_Down", "KP_Next", "KP_Page_Down", "space":
            return shift ? .nextSlide : .next
        case "Return", "KP_Enter":
            return .enter
        case "Left", "Up", "Prior", "Page_Up", "KP_Left", "KP_Up", "KP_Prior", "KP_Page_Up", "BackSpace":
            return shift ? .previousSlide : .previous
        case "Tab", "ISO_Left_Tab", "KP_Tab": return .toggleOverview
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
        case "n": return shift ? .nextSlide : .next
        case "p": return shift ? .previousSlide : .previous
        case "b": return .toggleBlack
        case "w": return .toggleWhite
        case "f": return .toggleFreeze
        case "l": return .togglePointer
        case "h": return .toggleSpotlight
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

/// The countdown shown with `--duration` or `--end-time`: time left, amber
/// in the last minutes (`--last-minutes`, five by default), red once over.
struct Countdown: Equatable, Sendable {
    enum Phase: Equatable, Sendable { case normal, amber, over }
    let remaining: Double
    let phase: Phase

    /// `amberFrom`: seconds left when the timer turns amber.
    init(remaining: Double, amberFrom: Double = 300) {
        self.remaining = remaining
        if remaining <= 0 { phase = .over } else if remaining <= amberFrom { phase = .amber } else { phase = .normal }
    }

    init(duration: Double, elapsed: Double, amberFrom: Double = 300) {
        self.init(remaining: duration - elapsed, amberFrom: amberFrom)
    }

    /// "12:34" left, or "+1:05" over.
    var text: String { remaining >= 0 ? formatDuration(remaining) : "+" + formatDuration(-remaining) }
}

/// What the countdown counts towards, and when it turns amber.
struct TalkTiming: Equatable, Sendable {
    enum Target: Equatable, Sendable {
        /// No countdown: the elapsed time only.
        case none
        /// Seconds of talk, counted from the first page change.
        case duration(Double)
        /// A time of day, fixed when the presenter starts.
        case endTime(ClockTime, at: Date)
    }
    let target: Target
    /// Seconds left when the countdown turns amber.
    let amberFrom: Double

    init(target: Target, lastMinutes: Double = 5) {
        self.target = target
        amberFrom = lastMinutes * 60
    }

    /// The command line first, then the `.pdfpc` file; in the file an end
    /// time wins over a duration, as the countdown can follow only one.
    init(command: PresentCommand, pdfpc: PdfpcFile?, now: Date) {
        let lastMinutes = command.lastMinutes ?? pdfpc?.lastMinutes ?? 5
        if let end = command.endTime {
            self.init(target: .endTime(end, at: end.nextOccurrence(after: now)), lastMinutes: lastMinutes)
        } else if let minutes = command.durationMinutes {
            self.init(target: .duration(minutes * 60), lastMinutes: lastMinutes)
        } else if let end = pdfpc?.endTime {
            self.init(target: .endTime(end, at: end.nextOccurrence(after: now)), lastMinutes: lastMinutes)
        } else if let minutes = pdfpc?.duration {
            self.init(target: .duration(minutes * 60), lastMinutes: lastMinutes)
        } else {
            self.init(target: .none, lastMinutes: lastMinutes)
        }
    }

    /// The countdown now; nil without one.
    func countdown(elapsed: Double, now: Date) -> Countdown? {
        switch target {
        case .none: return nil
        case let .duration(seconds): return Countdown(duration: seconds, elapsed: elapsed, amberFrom: amberFrom)
        case let .endTime(_, at: end): return Countdown(remaining: end.timeIntervalSince(now), amberFrom: amberFrom)
        }
    }
}

/// "m:ss" under an hour, "h:mm:ss" from there; whole seconds, rounded down.
func formatDuration(_ seconds: Double) -> String {
    let total = max(0, Int(seconds.rounded(.down)))
    let h = total / 3600, m = total / 60 % 60, s = total % 60
    return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
}

/// Slides as the speaker counts them: consecutive pages that share a PDF
/// page label are overlays of one slide (LaTeX beamer labels every step of
/// `\pause` with the frame's number), as pdfpc groups them. A document
/// without labels has one page per slide.
struct Slides: Equatable, Sendable {
    /// Slide (0-based) of each page.
    let slideOfPage: [Int]
    /// First page of each slide.
    let firstPages: [Int]

    /// `forcedOverlays`: pages pdfpc was told belong to the page before.
    init(labels: [String], forcedOverlays: Set<Int> = []) {
        var slideOfPage: [Int] = []
        var firstPages: [Int] = []
        for (i, label) in labels.enumerated() {
            let joins = i > 0 && ((!label.isEmpty && label == labels[i - 1]) || forcedOverlays.contains(i))
            if !joins { firstPages.append(i) }
            slideOfPage.append(firstPages.count - 1)
        }
        if slideOfPage.isEmpty {
            slideOfPage = [0]
            firstPages = [0]
        }
        self.slideOfPage = slideOfPage
        self.firstPages = firstPages
    }

    /// One slide per page.
    init(pageCount: Int) { self.init(labels: (0..<max(1, pageCount)).map { String($0 + 1) }) }

    var count: Int { firstPages.count }
    var pageCount: Int { slideOfPage.count }
    var hasOverlays: Bool { count < pageCount }

    func slide(ofPage page: Int) -> Int { slideOfPage[min(max(0, page), pageCount - 1)] }

    func firstPage(ofSlide slide: Int) -> Int { firstPages[slide] }

    /// The slide fully built: its last overlay.
    func lastPage(ofSlide slide: Int) -> Int { slide + 1 < count ? firstPages[slide + 1] - 1 : pageCount - 1 }

    /// 1-based position of `page` within its slide, and how many pages the slide has.
    func overlay(ofPage page: Int) -> (step: Int, steps: Int) {
        let slide = slide(ofPage: page)
        return (page - firstPage(ofSlide: slide) + 1, lastPage(ofSlide: slide) - firstPage(ofSlide: slide) + 1)
    }
}

/// Page, typed digits, audience state, timer, and the overview grid.
struct PresenterState: Equatable, Sendable {
    enum Blank: Equatable, Sendable { case none, black, white }
    /// What an action changed, for the runner.
    enum Outcome: Equatable, Sendable { case unchanged, changed, swapScreens, quit }

    let pageCount: Int
    let slides: Slides
    /// The current page, 0-based.
    private(set) var page = 0
    /// Digits typed towards "N then Return".
    private(set) var typed = ""
    private(set) var blank: Blank = .none
    /// The page the audience keeps seeing while frozen.
    private(set) var frozenPage: Int?
    var timer = TalkTimer()
    /// The slide picked in the overview grid while it is up; nil when it is not.
    private(set) var overviewSelection: Int?
    /// Slides per row of the grid, as the console lays it out (for Up and Down).
    var overviewColumns = 4
    /// The pointer dot or the spotlight, or neither.
    private(set) var pointerMode: PointerMode = .off

    init(pageCount: Int) { self.init(slides: Slides(pageCount: pageCount)) }

    init(slides: Slides) {
        self.slides = slides
        pageCount = slides.pageCount
    }

    var slide: Int { slides.slide(ofPage: page) }
    var isOverviewShown: Bool { overviewSelection != nil }

    /// The page the next key press shows (the next overlay step).
    var nextPage: Int? { page + 1 < pageCount ? page + 1 : nil }

    /// What the console's "next" view shows: the next slide, fully built
    /// (its last overlay), not the next step of this one, as pdfpc does.
    var nextSlidePreview: Int? { slide + 1 < slides.count ? slides.lastPage(ofSlide: slide + 1) : nil }

    /// Whether the audience sees the pointer: only over the slide the
    /// console shows, not over black, white or a frozen page.
    var audienceSeesPointer: Bool { pointerMode != .off && blank == .none && frozenPage == nil }

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
        if let selection = overviewSelection, let outcome = applyInOverview(action, selection: selection, at: now) {
            return outcome
        }
        if case .digit(let d) = action {
            // Numbers longer than the document's page count cannot be meant.
            if typed.count < String(pageCount).count + 1 { typed += String(d) }
            return .changed
        }
        let pending = typed
        typed = ""
        let typedWasPending = !pending.isEmpty
        switch action {
        case .next: return go(to: page + 1, at: now, typedWasPending: typedWasPending)
        case .previous:
            // As pdfpc: within an overlay one step back; from a slide's first
            // page to the first page of the slide before, not its last step.
            let first = slides.firstPage(ofSlide: slide)
            let target = page > first ? page - 1 : (slide > 0 ? slides.firstPage(ofSlide: slide - 1) : page)
            return go(to: target, at: now, typedWasPending: typedWasPending)
        case .nextSlide:
            guard slide + 1 < slides.count else { return go(to: page, at: now, typedWasPending: typedWasPending) }
            return go(to: slides.firstPage(ofSlide: slide + 1), at: now, typedWasPending: typedWasPending)
        case .previousSlide:
            return go(to: slides.firstPage(ofSlide: max(0, slide - 1)), at: now, typedWasPending: typedWasPending)
        case .rowUp: return go(to: page - 1, at: now, typedWasPending: typedWasPending)
        case .rowDown: return go(to: page + 1, at: now, typedWasPending: typedWasPending)
        case .first: return go(to: 0, at: now, typedWasPending: typedWasPending)
        case .last: return go(to: pageCount - 1, at: now, typedWasPending: typedWasPending)
        case .enter:
            if pending.isEmpty { return go(to: page + 1, at: now, typedWasPending: false) }
            // The number typed is what the counter shows: a slide (its first
            // page), which is the page in a document without overlays.
            guard let n = Int(pending), (1...slides.count).contains(n) else { return .changed }
            return go(to: slides.firstPage(ofSlide: n - 1), at: now, typedWasPending: true)
        case .digit: return .unchanged
        case .toggleOverview:
            overviewSelection = slide
            return .changed
        case .toggleBlack:
            blank = blank == .black ? .none : .black
            return .changed
        case .toggleWhite:
            blank = blank == .white ? .none : .white
            return .changed
        case .toggleFreeze:
            frozenPage = frozenPage == nil ? page : nil
            return .changed
        case .togglePointer:
            pointerMode = pointerMode.toggled(.pointer)
            return .changed
        case .toggleSpotlight:
            pointerMode = pointerMode.toggled(.spotlight)
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

    /// The grid's keys: moving the selection, jumping, leaving. Keys that
    /// act on the audience (black, white, freeze), the timer and quitting
    /// return nil and act as always.
    private mutating func applyInOverview(_ action: PresenterAction, selection: Int, at now: Double) -> Outcome? {
        let last = slides.count - 1
        func select(_ target: Int) -> Outcome {
            let clamped = min(max(0, target), last)
            guard clamped != selection else { return .unchanged }
            overviewSelection = clamped
            return .changed
        }
        switch action {
        case .next, .nextSlide: return select(selection + 1)
        case .previous, .previousSlide: return select(selection - 1)
        // A row that has no slide below (or above) the selection keeps it.
        case .rowDown:
            return selection + max(1, overviewColumns) <= last
                ? select(selection + max(1, overviewColumns)) : .unchanged
        case .rowUp:
            return selection - max(1, overviewColumns) >= 0 ? select(selection - max(1, overviewColumns)) : .unchanged
        case .first: return select(0)
        case .last: return select(last)
        case .toggleOverview:
            overviewSelection = nil
            return .changed
        case .enter:
            // As pdfpc: Return shows the slide fully built.
            overviewSelection = nil
            typed = ""
            _ = go(to: slides.lastPage(ofSlide: selection), at: now, typedWasPending: false)
            return .changed
        case .digit, .startFromBeginning:
            return .unchanged
        case .toggleBlack, .toggleWhite, .toggleFreeze, .togglePointer, .toggleSpotlight, .swapScreens, .toggleTimer,
            .resetTimer, .startHere, .quit:
            return nil
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

    /// Adds notes for pages that have none here (ours win where both have some).
    mutating func fill(from other: [Int: String]) {
        pages.merge(other) { ours, _ in ours }
    }

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
                    throw NotesError(
                        path: path, line: number,
                        reason: "expected a section line '## N' with a page number, found '\(line)'")
                }
                guard n >= 1, n <= pageCount else {
                    throw NotesError(
                        path: path, line: number,
                        reason:
                            "page \(n) does not exist: the document has \(pageCount) page\(pageCount == 1 ? "" : "s")")
                }
                if let earlier = seen[n] {
                    throw NotesError(
                        path: path, line: number,
                        reason: "a second section for page \(n) (the first is on line \(earlier))")
                }
                flush()
                seen[n] = number
                current = (n - 1, number)
                body = []
            } else if current != nil {
                body.append(line)
            } else if !line.allSatisfy(\.isWhitespace) && !line.hasPrefix("#") {
                throw NotesError(
                    path: path, line: number,
                    reason: "text before the first '## N' section (start each page's notes with '## N')")
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
