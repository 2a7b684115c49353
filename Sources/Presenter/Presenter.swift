import Dispatch
import Documents
import Foundation
import Screenplay

/// `screenplay present FILE.pdf`: the audience sees the current page on every
/// external screen (an accessory scene, never on the main screen); the
/// speaker gets an interactive console window with the current and next
/// slide, notes and timers, and drives the talk with keys.
@MainActor
final class Presenter {
    let command: PresentCommand
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
    private(set) var state: PresenterState
    /// Beamer notes pages: which half holds the notes (nil: pages are slides).
    let notesPosition: NotesPosition?
    /// The countdown: a duration or an end time, and when it turns amber.
    let timing: TalkTiming
    let cache: SlideCache
    /// The overview's thumbnails, rendered from a second copy of the
    /// document so they never hold up the slides.
    let thumbnails: ThumbnailCache
    /// Stats, the watchdog, stopping, and the app with the windows it opened.
    private let session: PresentSession
    /// The connection, for `ScreenplayTool` to run.
    var app: Application? { session.app }
    private var registration: SceneAccessoryRegistration? { session.registration }
    private(set) var console: Scene?
    private(set) var audienceScenes: [ObjectIdentifier: Scene] = [:]
    /// Draws and repainted pixels per scene since the last frames line (PresenterTick.swift).
    var redrawCounters: [ObjectIdentifier: RedrawCounter] = [:]
    private var clock: (any DispatchSourceTimer)?
    var stats: StatsWriter? { session.stats }
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
    private var soundScene: ObjectIdentifier?
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
    init(_ command: PresentCommand, path: String) throws {
        self.command = command
        do {
            document = try PDFDocument.open(path: path, password: command.password)
        } catch {
            throw CommandFailure(error.kind == .unreadable ? .noInput : .dataError, error.description)
        }
        keys = try PresenterKeyMap.load(
            path: command.keysPath ?? PresenterKeyMap.defaultPath(), required: command.keysPath != nil)
        let sources = NotesSources(command: command, pdf: path)
        let pdfpc = try Self.loadPdfpc(sources, labels: document.pageLabels)
        var notes = try Self.loadNotes(sources, pageCount: document.pageCount)
        markdownNotePages = Set((0..<document.pageCount).filter { !notes.text(forPage: $0).isEmpty })
        pdfpcPath = sources.pdfpc
        if let pdfpc { notes.fill(from: pdfpc.notes) }
        notesAreMarkdown = !(pdfpc?.disableMarkdown ?? false)
        self.notes = notes
        title = URL(fileURLWithPath: path).lastPathComponent
        let slides = Slides(labels: document.pageLabels, forcedOverlays: pdfpc?.forcedOverlays ?? [])
        state = PresenterState(slides: slides)
        notesPosition = command.notesPosition ?? pdfpc?.notesPosition
        timing = TalkTiming(command: command, pdfpc: pdfpc, now: Date())
        cache = SlideCache(document: document)
        slideVideos = SlideVideoFinder.find(in: document, slideRegion: notesPosition?.slideRegion ?? .whole)
        var links: [Int: [PageJumpLink]] = [:]
        for page in 0..<document.pageCount {
            let found = document.jumpLinks(page: page)
            if !found.isEmpty { links[page] = found }
        }
        jumpLinks = links
        thumbnails = ThumbnailCache(path: path, password: command.password)
        session = try PresentSession(stats: command.stats, stallGrace: command.stallGrace)
        // The eraser's reach is round on the slide, whatever its shape.
        state.drawings.aspect = overviewAspect
        if notesPosition == nil {
            let size = document.pageSize(0)
            if let hint = NotesPosition.hint(pageWidth: size.width, pageHeight: size.height) {
                log("hint: \(title): \(hint)")
            }
        }
        if slides.hasOverlays {
            log(
                "\(document.pageCount) pages make \(slides.count) slides (pages sharing a page label are overlays of one slide)"
            )
        }
    }

    /// Where notes come from: our own markdown file and pdfpc's JSON file,
    /// and which of them the speaker named (that one must exist).
    struct NotesSources {
        var markdown: String
        var pdfpc: String
        var markdownRequired = false
        var pdfpcRequired = false

        init(command: PresentCommand, pdf: String) {
            markdown = SpeakerNotes.sidecarPath(for: pdf)
            pdfpc = PdfpcFile.sidecarPath(for: pdf)
            if let named = command.notesPath {
                // `--notes talk.pdfpc` names pdfpc's file; anything else is ours.
                if named.lowercased().hasSuffix(".pdfpc") {
                    pdfpc = named
                    pdfpcRequired = true
                } else {
                    markdown = named
                    markdownRequired = true
                }
            }
        }
    }

    static func loadNotes(_ sources: NotesSources, pageCount: Int) throws -> SpeakerNotes {
        let path = sources.markdown
        guard let text = try readText(path, required: sources.markdownRequired) else { return SpeakerNotes() }
        do {
            return try SpeakerNotes.parse(text, pageCount: pageCount, path: path)
        } catch {
            throw CommandFailure(.dataError, "bad notes file: \(error.description)")
        }
    }

    static func loadPdfpc(_ sources: NotesSources, labels: [String]) throws -> PdfpcFile? {
        let path = sources.pdfpc
        guard let text = try readText(path, required: sources.pdfpcRequired) else { return nil }
        do {
            let file = try PdfpcFile.parse(Data(text.utf8), path: path, pageLabels: labels)
            var read = ["notes for \(file.notes.count) page\(file.notes.count == 1 ? "" : "s")"]
            if let duration = file.duration { read.append("duration \(Int(duration)) min") }
            if let end = file.endTime { read.append("end time \(end)") }
            if let last = file.lastMinutes { read.append("last minutes \(Int(last))") }
            if let position = file.notesPosition { read.append("notes position \(position.rawValue)") }
            var line = "\(path): \(read.joined(separator: ", "))"
            if !file.unused.isEmpty { line += "; not used here: \(file.unused.joined(separator: ", "))" }
            log(line)
            return file
        } catch {
            throw CommandFailure(.dataError, "bad pdfpc file: \(error.description)")
        }
    }

    /// The file's text; nil when it is not there and nobody asked for it.
    private static func readText(_ path: String, required: Bool) throws -> String? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if required { throw CommandFailure(.noInput, "cannot read the notes file \(path): \(readReason(path))") }
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(.dataError, "\(path): not UTF-8 text")
        }
        return text
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

    /// Connects, opens the console and registers the audience scenes.
    func start() throws {
        // Never --all: the audience view must not reach the console's screen.
        // Unlike `present`, an --output that matches nothing yet waits: the
        // projector is often plugged in after the presenter starts.
        let app = try ScreenplayTool.connect(session.watched(command.applicationOptions(includingBuiltIn: false)))
        session.app = app
        session.onStop = { [weak self] in self?.clock?.cancel() }
        app.onSceneError = { error in printError("\(error)") }
        app.onConnectionLost = { error in
            printError("\(error.description); exiting")
            exit(ExitCode.unavailable.rawValue)
        }
        app.onScreenConnect = { screen in
            log("screen connected: \(screen.name) (\(screen.classification.kind.rawValue))")
        }
        app.onScreenDisconnect = { screen in log("screen disconnected: \(screen.name)") }
        session.startWatchdog()
        session.startServiceMonitor(stallGrace: command.stallGrace, showing: command.content.label)

        let consoleConfiguration = SceneConfiguration(name: "Presenter — \(title)") { [unowned self] in
            ConsoleDelegate(presenter: self)
        }
        let console = try app.openWindow(configuration: consoleConfiguration)
        self.console = console
        session.windows.append(console)
        if !command.windowedConsole, !command.rehearse { fillMainScreen(with: console, app: app) }
        let audienceConfiguration = SceneConfiguration(name: "Audience — \(title)", layer: .overlay) { [unowned self] in
            AudienceDelegate(presenter: self)
        }
        if command.rehearse {
            session.windows.append(try app.openWindow(configuration: audienceConfiguration))
            log("rehearsing: the audience view is a window")
        } else {
            let registration = app.registerSceneAccessory(
                .externalNonInteractive(sceneConfiguration: audienceConfiguration))
            registration.onAvailabilityChange = { [weak self] available in
                log(available ? "audience display connected" : "no audience display; the console keeps running")
                self?.emit(["event": "audience-available", "available": available])
                self?.console?.setNeedsDisplay()
            }
            session.registration = registration
            if !registration.isAvailable { log("no external screen yet; the console runs and waits for one") }
            if !app.hasLayerShell {
                // Said as what happens: the fallback is made, and works.
                log(
                    "the compositor offers no zwlr_layer_shell_v1 (GNOME): the audience view is a full-screen window on each external screen; keys typed while it has the focus still reach the presenter"
                )
            }
        }
        // The clock and timers change once a second: the tick repaints the
        // top bar alone; nothing else redraws the console while the
        // speaker is not pressing keys.
        let clock = DispatchSource.makeTimerSource(queue: .main)
        clock.schedule(deadline: .now() + 1, repeating: 1)
        clock.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.secondPassed() } }
        clock.resume()
        self.clock = clock
        scheduleTimerStart()
        cache.onRendered = { [weak self] key in self?.slideRendered(key) }
        thumbnails.onRendered = { [weak self] in
            guard let self, self.state.isOverviewShown else { return }
            self.console?.setNeedsDisplay()
        }
        emitState()
    }

    /// Whether an audience display is there to show slides on.
    var hasAudience: Bool { command.rehearse || registration?.isAvailable == true }

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
            stop(reason: "quit key")
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

    // MARK: scenes

    /// Whether this audience scene plays the slide videos' sound.
    func playsSound(_ scene: Scene) -> Bool {
        guard command.audio else { return false }
        if soundScene == nil { soundScene = ObjectIdentifier(scene) }
        return soundScene == ObjectIdentifier(scene)
    }

    /// The slide's size in points (the audience's part of the page).
    func slideSize(page: Int) -> (width: Double, height: Double) {
        let size = document.pageSize(page)
        return (size.width * slideRegion.width, size.height * slideRegion.height)
    }

    func audienceConnected(_ scene: Scene) {
        audienceScenes[ObjectIdentifier(scene)] = scene
        // Keep the projector from blanking while slides are up.
        if !command.rehearse, !command.allowIdle { scene.inhibitsIdle = true }
        let line: [String: Any] = [
            "event": "connect", "role": "audience", "output": label(scene), "width": scene.pixelSize.width,
            "height": scene.pixelSize.height, "inhibits_idle": scene.inhibitsIdle,
        ]
        emit(line)
        prefetch()
    }

    func audienceDisconnected(_ scene: Scene) {
        audienceScenes[ObjectIdentifier(scene)] = nil
        pointerRedraws.forget(scene)
        if soundScene == ObjectIdentifier(scene) { soundScene = nil }
        emit(["event": "disconnect", "role": "audience", "output": label(scene)])
        prefetch()
    }

    func audienceResized(_ scene: Scene) { prefetch() }

    func label(_ scene: Scene) -> String { scene.screen?.name ?? "window" }

    /// Slide sizes on screen now: every audience scene and the console's
    /// two slide views; and the console's notes view for beamer notes.
    private var wantedSizes: (slides: [PixelSize], notes: PixelSize?) {
        var sizes = audienceScenes.values.filter(\.isConnected).map {
            PixelSize(width: $0.pixelSize.width, height: $0.pixelSize.height)
        }
        var notes: PixelSize?
        if let console, console.isConnected {
            let layout = ConsoleLayout(width: console.pixelSize.width, height: console.pixelSize.height)
            sizes.append(layout.current.size)
            sizes.append(layout.next.size)
            if notesPosition != nil { notes = layout.notes.size }
        }
        return (
            sizes.filter { $0.width > 0 && $0.height > 0 }, notes.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        )
    }

    /// Renders ahead: the current page first, then the pages the next keys
    /// show (the next step, the next slide, back) and the next slide's
    /// preview, at every size on screen; forgets pages far away.
    func prefetch() {
        let (sizes, notesSize) = wantedSizes
        let slides = state.slides
        let slide = state.slide
        var pages = [state.page, state.page + 1, state.nextSlidePreview ?? -1, state.page + 2, state.page - 1]
        if slide + 1 < slides.count { pages.append(slides.firstPage(ofSlide: slide + 1)) }
        if slide > 0 { pages.append(slides.firstPage(ofSlide: slide - 1)) }
        if case let .page(p) = state.audience { pages.insert(p, at: 0) }
        let valid = pages.filter { (0..<document.pageCount).contains($0) }
        var keys: [SlideKey] = []
        func add(_ key: SlideKey) { if !keys.contains(key) { keys.append(key) } }
        // Audience sizes first: they are what the room sees.
        for page in valid {
            for size in sizes { add(SlideKey(page: page, size: size, region: slideRegion)) }
            if let notesSize, let position = notesPosition {
                add(SlideKey(page: page, size: notesSize, region: position.notesRegion))
            }
        }
        cache.want(keys) { [weak self] picture in self?.app?.releaseResources(of: picture) }
    }

    /// Thumbnails for the overview at `size`, from the selected slide outwards.
    func wantThumbnails(size: PixelSize) {
        let slides = state.slides
        let selected = state.overviewSelection ?? state.slide
        var order = [selected]
        for distance in 1..<max(1, slides.count) {
            for slide in [selected + distance, selected - distance] where (0..<slides.count).contains(slide) {
                order.append(slide)
            }
        }
        thumbnails.want(pages: order.map { slides.lastPage(ofSlide: $0) }, size: size, region: slideRegion) {
            [weak self] picture in
            self?.app?.releaseResources(of: picture)
        }
    }

    /// A slide arrived: redraw only the scenes it improves. Pages rendered
    /// ahead (and other sizes of a page already shown exactly) change
    /// nothing on screen; redrawing for them drew page 1 nine times at start.
    private func slideRendered(_ key: SlideKey) {
        var audiencePage: Int?
        if case let .page(p) = state.audience { audiencePage = p }
        for scene in audienceScenes.values where key.page == audiencePage {
            let exact = SlideKey(
                page: key.page, size: PixelSize(width: scene.pixelSize.width, height: scene.pixelSize.height),
                region: slideRegion)
            if key == exact || cache.picture(exact) == nil { scene.setNeedsDisplay() }
        }
        // The console shows the current page, the next slide and the notes
        // (and the --rehearse window the audience page).
        let shown: Set<Int?> = [state.page, state.nextPage, state.nextSlidePreview, audiencePage]
        if shown.contains(key.page) {
            for window in session.windows { window.setNeedsDisplay() }
        }
    }

    // MARK: output

    func emit(_ object: [String: Any]) {
        var line = object
        line["t_ns"] = monotonicNanoseconds()
        stats?.write(line)
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

    // MARK: teardown

    /// `s`: the console moves to the next screen and that screen's role
    /// goes to the one the console left, for when Screenplay took the wrong
    /// screen for the laptop. The audience view still never shares the
    /// console's screen.
    private func swapScreens() {
        guard let app, let current = app.mainScreen, app.screens.count >= 2,
            let index = app.screens.firstIndex(where: { $0 === current })
        else {
            log("swap needs two screens")
            emit(["event": "swap", "ok": false])
            return
        }
        let next = app.screens[(index + 1) % app.screens.count]
        app.markAsOnlyBuiltIn(next)
        console?.setFullscreen(on: next)
        log("swap: the console goes to \(next.name), the audience view to the other screens")
        emit(["event": "swap", "ok": true, "console": next.name])
        console?.setNeedsDisplay()
    }

    /// A start time (`--start-time`, pdfpc's `startTime`): the timer starts
    /// by itself then; one that passed counts from it.
    private func scheduleTimerStart() {
        guard let startsAt = timing.startsAt else { return }
        let wait = startsAt.timeIntervalSinceNow
        let now = Double(monotonicNanoseconds()) / 1e9
        if wait <= 0 {
            state.timer.start(at: now, alreadyElapsed: -wait)
            return
        }
        state.timerWaitsForStart = true
        DispatchQueue.main.asyncAfter(deadline: .now() + wait) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.state.timerWaitsForStart else { return }
                self.state.timerWaitsForStart = false
                self.state.timer.start(at: Double(monotonicNanoseconds()) / 1e9, alreadyElapsed: 0)
                self.emit(["event": "timer-started", "reason": "start time"])
                self.console?.setNeedsDisplay()
            }
        }
    }

    /// The console full screen on the built-in (or main) screen, as
    /// pdfpc's; a compositor that will not is named, not hidden: the
    /// console is then a window wherever the compositor puts it.
    private func fillMainScreen(with console: Scene, app: Application) {
        guard let main = app.mainScreen else {
            log("console: no screen yet; it is a window until `s` puts it on one")
            return
        }
        console.setFullscreen(on: main)
        DispatchQueue.main.asyncAfter(deadline: .now() + 1.5) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.console === console, console.isConnected else { return }
                if console.isFullscreen {
                    self.emit(["event": "console-fullscreen", "ok": true, "output": main.name])
                } else {
                    printError(
                        "console: the compositor did not make it full screen on \(main.name) (its configure has no fullscreen state); it stays a window where the compositor put it. Use --windowed-console to stop asking, or move it by hand"
                    )
                    self.emit(["event": "console-fullscreen", "ok": false, "output": main.name])
                }
            }
        }
    }

    func stop(reason: String) -> Never { session.stop(reason: reason) }

    /// SIGINT or SIGTERM: the teardown of `stop(reason:)`, after which
    /// `Application.run` returns.
    func stop(signal: StopSignal) { session.tearDown(because: "\(signal)") }
}

/// Pixel size of a slide image.
struct PixelSize: Hashable, Sendable {
    var width: Int
    var height: Int
}

/// One rendered slide: page (0-based) at an exact pixel size; `region` is
/// the part of the page (the slide or notes half of a beamer page).
struct SlideKey: Hashable, Sendable {
    var page: Int
    var size: PixelSize
    var region: PageRegion = .whole
}

/// Rendered slides by page and size. Pages render one at a time on a
/// background queue, most wanted first, so the main thread never waits for
/// poppler and a key press finds the next page ready.
@MainActor
final class SlideCache {
    private let document: PDFDocument
    private var pictures: [SlideKey: Picture] = [:]
    /// Failed renders keep their reason; the placeholder is the picture.
    private(set) var failures: [Int: String] = [:]
    private var wanted: [SlideKey] = []
    private var inFlight: SlideKey?
    private let queue = DispatchQueue(label: "screenplay.slides", qos: .userInitiated)
    var onRendered: ((SlideKey) -> Void)?

    init(document: PDFDocument) { self.document = document }

    /// The slide if it is rendered.
    func picture(_ key: SlideKey) -> Picture? { pictures[key] }

    /// Any rendered size of `page`, to show scaled while the exact size renders.
    func anyPicture(page: Int, region: PageRegion = .whole) -> Picture? {
        pictures.first { $0.key.page == page && $0.key.region == region }?.value
    }

    /// Asks for `keys` in order; drops slides not wanted any more.
    func want(_ keys: [SlideKey], release: (Picture) -> Void) {
        wanted = keys
        let keep = Set(keys)
        for (key, picture) in pictures where !keep.contains(key) {
            release(picture)
            pictures[key] = nil
        }
        pump()
    }

    private func pump() {
        guard inFlight == nil, let key = wanted.first(where: { pictures[$0] == nil }) else { return }
        inFlight = key
        let document = document
        queue.async {
            let rgba: [UInt8]
            var failure: String?
            do {
                rgba = try document.render(
                    page: key.page, width: key.size.width, height: key.size.height, region: key.region)
            } catch {
                failure = "\(error)"
                rgba = Placeholder.render(
                    page: key.page, reason: "\(error)", width: key.size.width, height: key.size.height)
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.finished(key, rgba: rgba, failure: failure) }
            }
        }
    }

    private func finished(_ key: SlideKey, rgba: [UInt8], failure: String?) {
        inFlight = nil
        if let failure {
            failures[key.page] = failure
            warn("page \(key.page + 1) could not be rendered: \(failure); showing a placeholder")
        }
        // A slide nobody wants any more (the speaker moved on) is dropped.
        if wanted.contains(key) {
            pictures[key] = Picture(width: key.size.width, height: key.size.height, rgba: rgba)
            onRendered?(key)
        }
        pump()
    }
}
