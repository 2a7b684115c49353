import Dispatch
import Documents
import Foundation
import Screenplay

/// A talk on an application: the audience sees the current page on every
/// external screen (an accessory scene, never on the main screen); the
/// speaker gets an interactive console window with the current and next
/// slide, notes and timers, and drives the talk with keys. `Talk` is its
/// public face.
@MainActor
final class Presenter {
    let options: TalkOptions
    let messages: TalkMessages
    let document: PDFDocument
    var notes: SpeakerNotes
    /// Pages whose notes come from talk.notes.md (ours win over pdfpc's):
    /// the console's editor writes pdfpc's file, so it leaves these alone.
    let markdownNotePages: Set<Int>
    /// pdfpc's notes file the editor writes (`talk.pdfpc`, or `--notes FILE.pdfpc`).
    let pdfpcPath: String
    /// The page's notes being edited on the console, if any.
    var notesEditor: NotesEditor?
    let title: String
    var state: PresenterState
    /// Beamer notes pages: which half holds the notes (nil: pages are slides).
    let notesPosition: NotesPosition?
    /// The countdown: a duration or an end time, and when it turns amber.
    let timing: TalkTiming
    let cache: SlideCache
    /// The overview's thumbnails, rendered from a second copy of the
    /// document so they never hold up the slides.
    let thumbnails: ThumbnailCache
    /// The application the talk was started on.
    var app: Application?
    /// The audience's accessory scenes (nil when rehearsing or not started).
    var registration: SceneAccessoryRegistration?
    /// Windows the talk opened: the console, and the audience when rehearsing.
    var windows: [Scene] = []
    var console: Scene?
    var audienceScenes: [ObjectIdentifier: Scene] = [:]
    var clock: (any DispatchSourceTimer)?
    /// Takes every event (`--stats` lines in the tool).
    var onEvent: ((TalkEvent) -> Void)?
    /// The quit key (nil: the talk closes).
    var onQuit: ((String) -> Void)?
    /// `close()` has begun: its windows going end nothing more.
    var isClosing = false
    /// When the last key that changed the audience arrived (for the benchmark).
    private(set) var lastKeyNs: UInt64 = 0
    /// Videos placed on pages (links and movie annotations), by page.
    let slideVideos: [Int: [SlideVideo]]
    /// Internal links by page, read once at start: a click must not wait
    /// for poppler's lock while a slide renders.
    let jumpLinks: [Int: [PageJumpLink]]
    /// Scrolled distance not yet turned into a page, and when the last step was taken.
    var scrolled = (pending: 0.0, lastStepNs: UInt64(0))
    /// The audience scene that plays the videos' sound with --audio (one
    /// room, one sound: the first audience screen).
    var soundScene: ObjectIdentifier?
    /// The slide point under the pointer on the console's current slide;
    /// nil while the pointer is elsewhere.
    private(set) var pointerOnSlide: SlidePoint?
    /// Where the pointer last was on the slide: the spotlight stays there
    /// when the pointer leaves the slide, as in pdfpc.
    private var lastPointerOnSlide: SlidePoint?
    let pointerRedraws = PointerRedraws()
    /// The speaker's key bindings over the defaults.
    let keys: PresenterKeyMap

    /// Opens the document and the notes; errors end the command before any
    /// window opens (66: missing or unreadable; 65: encrypted, corrupt, bad
    /// notes or a bad .pdfpc file).
    init(path: String, options: TalkOptions) throws(TalkError) {
        self.options = options
        messages = options.messages
        do {
            document = try PDFDocument.open(path: path, password: options.password)
        } catch {
            throw TalkError(error.kind == .unreadable ? .unreadable : .invalid, error.description)
        }
        keys = try PresenterKeyMap.load(
            path: options.keysPath ?? PresenterKeyMap.defaultPath(), required: options.keysPath != nil,
            messages: messages)
        let sources = NotesSources(notesPath: options.notesPath, pdf: path)
        let pdfpc = try sources.loadPdfpc(labels: document.pageLabels, messages: messages)
        var notes = try sources.loadNotes(pageCount: document.pageCount)
        markdownNotePages = Set((0..<document.pageCount).filter { !notes.text(forPage: $0).isEmpty })
        pdfpcPath = sources.pdfpc
        if let pdfpc { notes.fill(from: pdfpc.notes) }
        notesAreMarkdown = !(pdfpc?.disableMarkdown ?? false)
        self.notes = notes
        title = URL(fileURLWithPath: path).lastPathComponent
        let slides = Slides(labels: document.pageLabels, forcedOverlays: pdfpc?.forcedOverlays ?? [])
        state = PresenterState(slides: slides)
        notesPosition = options.notesPosition ?? pdfpc?.notesPosition
        timing = TalkTiming(options: options, pdfpc: pdfpc, now: Date())
        cache = SlideCache(document: document, messages: messages)
        slideVideos = SlideVideoFinder.find(
            in: document, slideRegion: notesPosition?.slideRegion ?? .whole, isVideo: options.isVideo,
            messages: messages)
        var links: [Int: [PageJumpLink]] = [:]
        for page in 0..<document.pageCount {
            let found = document.jumpLinks(page: page)
            if !found.isEmpty { links[page] = found }
        }
        jumpLinks = links
        thumbnails = ThumbnailCache(path: path, password: options.password, messages: messages)
        // The eraser's reach is round on the slide, whatever its shape.
        state.drawings.aspect = overviewAspect
        if notesPosition == nil {
            let size = document.pageSize(0)
            if let hint = NotesPosition.hint(pageWidth: size.width, pageHeight: size.height) {
                messages.info("hint: \(title): \(hint)")
            }
        }
        if slides.hasOverlays {
            messages.info(
                "\(document.pageCount) pages make \(slides.count) slides (pages sharing a page label are overlays of one slide)"
            )
        }
    }

    /// The notes for `page`; a step of an overlay without notes of its own
    /// shows those of the slide's first page.
    /// Notes are pdfpc's Markdown unless its file says `disableMarkdown`.
    private(set) var notesAreMarkdown = true
    /// Notes as Pango markup by their text: the console redraws each second.
    private var markedUpNotes: [String: String] = [:]

    /// The notes as the console draws them, and whether that is Pango markup.
    func notesForDrawing(page: Int) -> (text: String, markup: Bool) {
        let text = notesText(page: page)
        guard notesAreMarkdown else { return (text, false) }
        if let known = markedUpNotes[text] { return (known, true) }
        let markup = NotesMarkdown.pangoMarkup(text)
        if markedUpNotes.count > 64 { markedUpNotes.removeAll() }
        markedUpNotes[text] = markup
        return (markup, true)
    }

    func notesText(page: Int) -> String {
        let own = notes.text(forPage: page)
        if !own.isEmpty { return own }
        return notes.text(forPage: state.slides.firstPage(ofSlide: state.slides.slide(ofPage: page)))
    }

    /// The part of each page the audience sees: all of it, or the slide half of a beamer page.
    var slideRegion: PageRegion { notesPosition?.slideRegion ?? .whole }

    /// Width over height of a slide (its part of the page), for the overview's cells.
    var overviewAspect: Double {
        let size = document.pageSize(0)
        let region = slideRegion
        return size.height > 0 ? (size.width * region.width) / (size.height * region.height) : 16.0 / 9
    }

    /// Whether an audience display is there to show slides on.
    var hasAudience: Bool { options.rehearse || registration?.isAvailable == true }

    // MARK: keys

    func handle(_ event: KeyEvent) {
        guard event.isPressed else { return }
        if notesEditor != nil { return editNotes(event) }
        let action = keys.action(
            for: KeyChord(keysym: event.keysym, shift: event.shift, control: event.control, alt: event.alt),
            text: event.text, overview: state.isOverviewShown)
        emit(["event": "key", "keysym": event.keysym, "text": event.text, "action": action.map { "\($0)" } ?? "none"])
        guard let action else { return }
        perform(action)
    }

    /// What a key, a click or a scroll asked for.
    func perform(_ action: PresenterAction) {
        if action == .editNotes { return openNotesEditor() }
        let now = monotonicNanoseconds()
        let before = state.audience
        let pointerBefore = (mode: state.pointerMode, audience: audiencePointer)
        let inkBefore = state.drawings.version
        let frozenBefore = state.frozenPage
        let outcome = state.apply(action, at: Double(now) / 1e9)
        switch outcome {
        case .unchanged:
            return
        case .quit:
            quit(reason: "quit key")
        case .swapScreens:
            swapScreens()
        case .changed:
            if state.pointerMode != pointerBefore.mode {
                emit(["event": "pointer", "mode": state.pointerMode.rawValue])
            }
            if state.drawings.version != inkBefore {
                emit(["event": "ink-cleared", "action": "\(action)", "slide": state.slide + 1])
            }
            if state.audience != before || audiencePointer != pointerBefore.audience
                || (state.drawings.version != inkBefore && state.frozenPage == nil)
                // Unfrozen on the same page: lines drawn meanwhile reach the room.
                || (frozenBefore != nil && state.frozenPage == nil)
            {
                lastKeyNs = now
                for scene in audienceScenes.values { scene.setNeedsDisplay() }
                // The room first: a later turn of the main queue redraws the
                // console, so its text layout does not delay the slide's commit.
                DispatchQueue.main.async { [weak self] in self?.console?.setNeedsDisplay() }
            } else {
                console?.setNeedsDisplay()
            }
            prefetch()
            emitState()
            if state.isAskingToQuit(at: Double(now) / 1e9) {
                // The question leaves the console when its time is up.
                let deadline = DispatchTime.now() + PresenterState.quitConfirmSeconds + 0.05
                DispatchQueue.main.asyncAfter(deadline: deadline) { [weak self] in
                    MainActor.assumeIsolated { self?.console?.setNeedsDisplay() }
                }
            }
        }
    }

    // MARK: pointer

    /// What a view draws of the pointer: the mode and where.
    struct PointerDrawing: Equatable {
        var mode: PointerMode
        var point: SlidePoint
    }

    /// The pointer over the console's current slide: the dot while the
    /// pointer is on the slide, the spotlight where it last was.
    var consolePointer: PointerDrawing? {
        switch state.pointerMode {
        case .off: return nil
        case .pointer: return pointerOnSlide.map { PointerDrawing(mode: .pointer, point: $0) }
        case .spotlight: return lastPointerOnSlide.map { PointerDrawing(mode: .spotlight, point: $0) }
        case .pen, .highlighter, .eraser: return nil
        }
    }

    /// The same over the audience's slide, while the audience sees the
    /// console's slide (not black, white or frozen).
    var audiencePointer: PointerDrawing? { state.audienceSeesPointer ? consolePointer : nil }

    /// The pointer moved over the console (nil: off the current slide).
    /// Redraws only the views whose picture changes, each at most once per
    /// refresh however fast the motion comes.
    func pointerMoved(to point: SlidePoint?) {
        let before = (console: consolePointer, audience: audiencePointer)
        pointerOnSlide = point
        if let point { lastPointerOnSlide = point }
        if consolePointer != before.console, let console { pointerRedraws.request(console) }
        if audiencePointer != before.audience {
            for scene in audienceScenes.values { pointerRedraws.request(scene) }
        }
    }

    /// Changes the talk's drawings (a line drawn with the pointer or touch).
    func changeDrawings<T>(_ change: (inout SlideDrawings) -> T) -> T { change(&state.drawings) }

    /// The console lays the grid out; Up and Down need its row length.
    func setOverviewColumns(_ columns: Int) { state.overviewColumns = columns }

    // MARK: output

    func emit(_ object: [String: Any]) {
        var line = object
        line["t_ns"] = monotonicNanoseconds()
        onEvent?(TalkEvent(fields: line))
    }

    func emitState() {
        let audience: String
        switch state.audience {
        case let .page(p): audience = "page \(p + 1)"
        case .black: audience = "black"
        case .white: audience = "white"
        }
        var line: [String: Any] = [
            "event": "state", "page": state.page + 1, "pages": document.pageCount, "audience": audience,
            "frozen": state.frozenPage != nil, "typed": state.typed, "slide": state.slide + 1,
            "slides": state.slides.count,
        ]
        if let selection = state.overviewSelection { line["overview_selected"] = selection + 1 }
        emit(line)
    }
}
