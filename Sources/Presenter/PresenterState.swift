import Foundation

// The presenter's state, free of Wayland and rendering so it is unit tested
// alone, as are the types it is made of, each in its own file: keys ->
// actions (PresenterKeys), slides and overlays (Slides), what the audience
// sees (AudienceContent), the talk timer and countdown (TalkTiming), and
// speaker notes (SpeakerNotes).

/// "m:ss" under an hour, "h:mm:ss" from there; whole seconds, rounded down.
func formatDuration(_ seconds: Double) -> String {
    let total = max(0, Int(seconds.rounded(.down)))
    let h = total / 3600, m = total / 60 % 60, s = total % 60
    return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
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
    /// A start time is coming (`--start-time`): page changes do not start
    /// the timer; F5, Shift+F5 or `t` still do, by hand.
    var timerWaitsForStart = false
    /// The slide picked in the overview grid while it is up; nil when it is not.
    private(set) var overviewSelection: Int?
    /// Slides per row of the grid, as the console lays it out (for Up and Down).
    var overviewColumns = 4
    /// The pointer dot, the spotlight, a drawing tool, or none.
    private(set) var pointerMode: PointerMode = .off
    /// The lines drawn on slides this talk (the presenter adds them as the
    /// speaker drags; keys clear them).
    var drawings = SlideDrawings()
    /// When Escape or `q` was pressed once, asking to end the talk: a
    /// second press within `quitConfirmSeconds` ends it, any other key
    /// cancels. Many clickers' slideshow button sends F5 and Escape in
    /// turn, so one press must never end a talk.
    private(set) var quitAskedAt: Double?
    /// The key list (`?`) is over the console's slides.
    private(set) var isHelpShown = false
    static let quitConfirmSeconds = 2.0

    init(pageCount: Int) { self.init(slides: Slides(pageCount: pageCount)) }

    init(slides: Slides) {
        self.slides = slides
        pageCount = slides.pageCount
    }

    var slide: Int { slides.slide(ofPage: page) }
    var isOverviewShown: Bool { overviewSelection != nil }

    /// Whether the console asks "press Escape again to end the talk" at `now`.
    func isAskingToQuit(at now: Double) -> Bool {
        quitAskedAt.map { now - $0 <= Self.quitConfirmSeconds } ?? false
    }

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
        let askedToQuit = isAskingToQuit(at: now)
        quitAskedAt = nil
        if action == .quit {
            // As pdfpc's Escape: first out of black, white or a freeze (the
            // audience sees the slide again), then the question. (Escape in
            // the overview leaves the grid: PresenterKeys.)
            if askedToQuit { return .quit }
            if blank != .none || frozenPage != nil || isHelpShown {
                isHelpShown = false
                blank = .none
                frozenPage = nil
                return .changed
            }
            quitAskedAt = now
            return .changed
        }
        if askedToQuit, action == .startFromBeginning || action == .startHere {
            // The clicker's slideshow button, pressed again: the question goes, nothing else.
            return .changed
        }
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
            drawings.end()
            return .changed
        case .toggleSpotlight:
            pointerMode = pointerMode.toggled(.spotlight)
            drawings.end()
            return .changed
        case .togglePen, .toggleHighlighter, .toggleEraser:
            let mode: PointerMode = action == .togglePen ? .pen : action == .toggleHighlighter ? .highlighter : .eraser
            pointerMode = pointerMode.toggled(mode)
            // A line being drawn ends with its tool.
            drawings.end()
            return .changed
        case .clearDrawing:
            return drawings.clear(slide: slide) ? .changed : .unchanged
        case .clearAllDrawings:
            return drawings.clearAll() ? .changed : .unchanged
        case .swapScreens:
            return .swapScreens
        case .toggleTimer:
            timerWaitsForStart = false
            timer.toggle(at: now)
            return .changed
        case .resetTimer:
            timer.reset(at: now)
            return .changed
        case .startFromBeginning:
            // Before the talk: the first page, timer started. During it a
            // clicker's slideshow button sends F5 too: pdfpc binds nothing
            // to it, and here it neither moves the page nor resets the timer.
            guard !timer.hasStarted else { return .unchanged }
            timerWaitsForStart = false
            page = 0
            timer.restart(at: now)
            return .changed
        case .startHere:
            guard !timer.hasStarted else { return .unchanged }
            timerWaitsForStart = false
            timer.restart(at: now)
            return .changed
        case let .goToPage(target):
            return go(to: target, at: now, typedWasPending: typedWasPending)
        case .toggleHelp:
            isHelpShown.toggle()
            return .changed
        case .editNotes:
            return .unchanged  // the presenter opens the editor: it saves files
        case .quit:
            return .unchanged  // handled above: asked first
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
        case let .goToPage(target):
            overviewSelection = nil
            typed = ""
            _ = go(to: target, at: now, typedWasPending: false)
            return .changed
        case .enter:
            // As pdfpc: Return shows the slide fully built.
            overviewSelection = nil
            typed = ""
            _ = go(to: slides.lastPage(ofSlide: selection), at: now, typedWasPending: false)
            return .changed
        case .digit, .startFromBeginning:
            return .unchanged
        case .toggleBlack, .toggleWhite, .toggleFreeze, .togglePointer, .toggleSpotlight, .togglePen,
            .toggleHighlighter, .toggleEraser, .clearDrawing, .clearAllDrawings, .swapScreens, .toggleTimer,
            .resetTimer, .startHere, .toggleHelp, .editNotes, .quit:
            return nil
        }
    }

    private mutating func go(to target: Int, at now: Double, typedWasPending: Bool) -> Outcome {
        let clamped = min(max(0, target), pageCount - 1)
        guard clamped != page else { return typedWasPending ? .changed : .unchanged }
        // A line being drawn belongs to the slide it started on.
        if slides.slide(ofPage: clamped) != slide { drawings.end() }
        page = clamped
        if !timerWaitsForStart { timer.startIfNeeded(at: now) }
        return .changed
    }
}
