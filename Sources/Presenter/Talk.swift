public import Screenplay

/// A talk (a PDF, with notes from `talk.notes.md` or pdfpc's `talk.pdfpc`)
/// shown on an application's screens: the slide on every external screen,
/// and a console window for the speaker with the current and next slide,
/// the notes, the clock and the timer. Keys typed in either drive it as in
/// pdfpc (`?` lists them); an app drives it through this API too.
///
/// ```swift
/// let talk = try Talk(path: "talk.pdf")
/// try talk.start(on: app)
/// talk.next()
/// ```
@MainActor
public final class Talk {
    let presenter: Presenter

    /// Opens the document, the notes and the key bindings; nothing shows
    /// until `start(on:)`. Throws when a file is missing or bad.
    public init(path: String, options: TalkOptions = TalkOptions()) throws(TalkError) {
        presenter = try Presenter(path: path, options: options)
    }

    /// Opens the console window on `app` and shows the slides on its
    /// external screens (in a second window with `TalkOptions.rehearse`).
    /// Make `app` with `ApplicationOptions.targets` `.externalScreens`, so
    /// the audience view never reaches the console's screen.
    public func start(on app: Application) throws {
        try presenter.start(on: app)
    }

    /// Stops the clock, closes the talk's windows and unregisters its
    /// audience scenes; `app` goes on.
    public func close() { presenter.close() }

    /// The page the speaker is on, from 0.
    public var page: Int { presenter.state.page }
    /// How many pages the document has.
    public var pageCount: Int { presenter.files.document.pageCount }
    /// The slide the speaker is on, from 0 (pages sharing a label are one slide's overlays).
    public var slide: Int { presenter.state.slide }
    /// How many slides the pages make.
    public var slideCount: Int { presenter.state.slides.count }

    /// Shows `page` (from 0), as a click on a link to it does.
    public func go(toPage page: Int) { presenter.perform(.goToPage(page)) }
    /// The next page (the next step of an overlay), as Right or Page Down.
    public func next() { presenter.perform(.next) }
    /// The previous page, as Left or Page Up.
    public func previous() { presenter.perform(.previous) }

    /// Seconds the talk's timer has run: it starts at the first page turn.
    public var elapsedSeconds: Double { presenter.state.timer.elapsed(at: Double(monotonicNanoseconds()) / 1e9) }
    /// Whether the timer runs now.
    public var isTimerRunning: Bool { presenter.state.timer.isRunning }
    /// Pauses a running timer or runs a paused one, as `p`.
    public func toggleTimer() { presenter.perform(.toggleTimer) }
    /// The timer back to zero, as `r`.
    public func resetTimer() { presenter.perform(.resetTimer) }

    /// The console window, once started.
    public var console: Scene? { presenter.console }
    /// The audience scenes on the external screens now (or the rehearsal window).
    public var audienceScenes: [Scene] { Array(presenter.audienceScenes.values) }
    /// The audience's accessory registration: nil while rehearsing or
    /// before `start(on:)`.
    public var audienceRegistration: SceneAccessoryRegistration? { presenter.scenes?.registration }

    /// Takes every event as it happens: keys, page turns (`state`), screens
    /// connecting, each view's draws (`draw`), the timer.
    public var onEvent: ((TalkEvent) -> Void)? {
        get { presenter.onEvent }
        set { presenter.onEvent = newValue }
    }

    /// Runs on the quit key (`q`, confirmed) with the reason; nil: the talk closes.
    public var onQuit: ((String) -> Void)? {
        get { presenter.onQuit }
        set { presenter.onQuit = newValue }
    }
}
