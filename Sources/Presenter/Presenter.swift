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
    /// The PDF, notes, settings and key bindings, as read at the start.
    let files: TalkFiles
    /// The notes being edited on the console, if any.
    private(set) lazy var notesEditing = ConsoleNotesEditing(
        files: files, messages: messages, emit: { [weak self] line in self?.emit(line) },
        redraw: { [weak self] in self?.console?.setNeedsDisplay() })
    var state: PresenterState
    let cache: SlideCache
    /// The overview's thumbnails, rendered from a second copy of the
    /// document so they never hold up the slides.
    let thumbnails: ThumbnailCache
    /// The console and audience scenes, once started.
    var scenes: TalkScenes?
    var app: Application? { scenes?.app }
    var console: Scene? { scenes?.console }
    var audienceScenes: [ObjectIdentifier: Scene] { scenes?.audience ?? [:] }
    /// The console's clock tick and the timer's start time.
    private(set) lazy var clock = TalkClock(presenter: self)
    /// Takes every event (`--stats` lines in the tool).
    var onEvent: ((TalkEvent) -> Void)?
    /// The quit key (nil: the talk closes).
    var onQuit: ((String) -> Void)?
    /// `close()` has begun: its windows going end nothing more.
    var isClosing = false
    /// When the last key that changed the audience arrived (for the benchmark).
    private(set) var lastKeyNs: UInt64 = 0
    /// Where the pointer is and was on the console's current slide.
    private var pointer = PointerTracker()
    let pointerRedraws = PointerRedraws()

    /// Opens the document and the notes; errors end the command before any
    /// window opens (66: missing or unreadable; 65: encrypted, corrupt, bad
    /// notes or a bad .pdfpc file).
    init(path: String, options: TalkOptions) throws(TalkError) {
        self.options = options
        messages = options.messages
        files = try TalkFiles(path: path, options: options)
        state = PresenterState(slides: files.slides)
        cache = SlideCache(document: files.document, messages: messages)
        thumbnails = ThumbnailCache(path: path, password: options.password, messages: messages)
        // The eraser's reach is round on the slide, whatever its shape.
        state.drawings.aspect = files.overviewAspect
    }

    /// Whether an audience display is there to show slides on.
    var hasAudience: Bool { options.rehearse || scenes?.registration?.isAvailable == true }

    // MARK: keys

    func handle(_ event: KeyEvent) {
        guard event.isPressed else { return }
        if notesEditing.editor != nil { return notesEditing.key(event) }
        let action = files.keys.action(
            for: KeyChord(keysym: event.keysym, shift: event.shift, control: event.control, alt: event.alt),
            text: event.text, overview: state.isOverviewShown)
        emit(["event": "key", "keysym": event.keysym, "text": event.text, "action": action.map { "\($0)" } ?? "none"])
        guard let action else { return }
        perform(action)
    }

    /// What a key, a click or a scroll asked for.
    func perform(_ action: PresenterAction) {
        if action == .editNotes { return notesEditing.open(slide: state.slide) }
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
            scenes?.swapScreens()
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

    /// The pointer over the console's current slide: the dot while the
    /// pointer is on the slide, the spotlight where it last was.
    var consolePointer: PointerDrawing? { pointer.drawing(state.pointerMode) }

    /// The same over the audience's slide, while the audience sees the
    /// console's slide (not black, white or frozen).
    var audiencePointer: PointerDrawing? { state.audienceSeesPointer ? consolePointer : nil }

    /// The pointer moved over the console (nil: off the current slide).
    /// Redraws only the views whose picture changes, each at most once per
    /// refresh however fast the motion comes.
    func pointerMoved(to point: SlidePoint?) {
        let before = (console: consolePointer, audience: audiencePointer)
        pointer.moved(to: point)
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
            "event": "state", "page": state.page + 1, "pages": files.document.pageCount, "audience": audience,
            "frozen": state.frozenPage != nil, "typed": state.typed, "slide": state.slide + 1,
            "slides": state.slides.count,
        ]
        if let selection = state.overviewSelection { line["overview_selected"] = selection + 1 }
        emit(line)
    }
}
