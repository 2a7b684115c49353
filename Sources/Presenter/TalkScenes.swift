import Dispatch
import Documents
import Screenplay

/// The talk's scenes on the app: the console window (full screen on the
/// built-in or main screen unless asked otherwise), the audience view as
/// an accessory scene on every external screen or, when rehearsing, a
/// window; which audience scene plays the sound; moving the console to
/// another screen; and closing it all.
@MainActor
final class TalkScenes {
    let app: Application
    private let messages: TalkMessages
    private let emit: ([String: Any]) -> Void
    private(set) var console: Scene?
    /// The audience scenes connected now.
    private(set) var audience: [ObjectIdentifier: Scene] = [:]
    /// The audience's accessory scenes (nil when rehearsing).
    private(set) var registration: SceneAccessoryRegistration?
    /// Windows the talk opened: the console, and the audience when rehearsing.
    private(set) var windows: [Scene] = []
    /// The audience scene that plays the videos' sound with --audio (one
    /// room, one sound: the first audience screen).
    private var soundScene: ObjectIdentifier?

    init(app: Application, messages: TalkMessages, emit: @escaping ([String: Any]) -> Void) {
        self.app = app
        self.messages = messages
        self.emit = emit
    }

    /// Opens the console and the audience view; `availability` hears the
    /// audience screens come and go.
    func open(
        console consoleConfiguration: SceneConfiguration, audience audienceConfiguration: SceneConfiguration,
        options: TalkOptions, availability: @escaping (Bool) -> Void
    ) throws {
        let console = try app.openWindow(configuration: consoleConfiguration)
        self.console = console
        windows.append(console)
        if !options.windowedConsole, !options.rehearse { fillMainScreen(with: console) }
        if options.rehearse {
            windows.append(try app.openWindow(configuration: audienceConfiguration))
            messages.info("rehearsing: the audience view is a window")
            return
        }
        let registration = app.registerSceneAccessory(
            .externalNonInteractive(sceneConfiguration: audienceConfiguration))
        registration.onAvailabilityChange = { [messages] available in
            messages.info(
                available ? "audience display connected" : "no audience display; the console keeps running")
            availability(available)
        }
        self.registration = registration
        if !registration.isAvailable { messages.info("no external screen yet; the console runs and waits for one") }
        if !app.compositorInfo.hasLayerShell {
            // Said as what happens: the fallback is made, and works.
            messages.info(
                "the compositor offers no zwlr_layer_shell_v1 (GNOME): the audience view is a full-screen window on each external screen; keys typed while it has the focus still reach the presenter"
            )
        }
    }

    func audienceConnected(_ scene: Scene) { audience[ObjectIdentifier(scene)] = scene }

    func audienceDisconnected(_ scene: Scene) {
        audience[ObjectIdentifier(scene)] = nil
        if soundScene == ObjectIdentifier(scene) { soundScene = nil }
    }

    /// Whether this audience scene plays the slide videos' sound (the first one asked).
    func playsSound(_ scene: Scene) -> Bool {
        if soundScene == nil { soundScene = ObjectIdentifier(scene) }
        return soundScene == ObjectIdentifier(scene)
    }

    /// Slide sizes on screen now: every audience scene and the console's
    /// two slide views; and the console's notes view for beamer notes.
    func slideSizes(withNotes: Bool) -> (slides: [PixelSize], notes: PixelSize?) {
        var sizes = audience.values.filter(\.isConnected).map {
            PixelSize(width: $0.pixelSize.width, height: $0.pixelSize.height)
        }
        var notes: PixelSize?
        if let console, console.isConnected {
            let layout = ConsoleLayout(width: console.pixelSize.width, height: console.pixelSize.height)
            sizes.append(layout.current.size)
            sizes.append(layout.next.size)
            if withNotes { notes = layout.notes.size }
        }
        return (
            sizes.filter { $0.width > 0 && $0.height > 0 }, notes.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        )
    }

    /// A slide arrived: redraw only the scenes it improves. Pages rendered
    /// ahead (and other sizes of a page already shown exactly) change
    /// nothing on screen; redrawing for them drew page 1 nine times at start.
    /// The console shows `consolePages` (the current page, the next slide,
    /// the notes; the --rehearse window the audience page).
    func redraw(
        for key: SlideKey, audiencePage: Int?, region: PageRegion, consolePages: Set<Int?>,
        isRendered: (SlideKey) -> Bool
    ) {
        for scene in audience.values where key.page == audiencePage {
            let exact = SlideKey(
                page: key.page, size: PixelSize(width: scene.pixelSize.width, height: scene.pixelSize.height),
                region: region)
            if key == exact || !isRendered(exact) { scene.setNeedsDisplay() }
        }
        if consolePages.contains(key.page) {
            for window in windows { window.setNeedsDisplay() }
        }
    }

    /// `s`: the console moves to the next screen and that screen's role
    /// goes to the one the console left, for when Screenplay took the wrong
    /// screen for the laptop. The audience view still never shares the
    /// console's screen.
    func swapScreens() {
        guard let current = app.mainScreen, app.screens.count >= 2,
            let index = app.screens.firstIndex(where: { $0 === current })
        else {
            messages.info("swap needs two screens")
            emit(["event": "swap", "ok": false])
            return
        }
        let next = app.screens[(index + 1) % app.screens.count]
        app.markAsOnlyBuiltIn(next)
        console?.setFullscreen(on: next)
        messages.info("swap: the console goes to \(next.name), the audience view to the other screens")
        emit(["event": "swap", "ok": true, "console": next.name])
        console?.setNeedsDisplay()
    }

    /// The console full screen on the built-in (or main) screen, as
    /// pdfpc's; a compositor that will not is named, not hidden: the
    /// console is then a window wherever the compositor puts it.
    private func fillMainScreen(with console: Scene) {
        guard let main = app.mainScreen else {
            messages.info("console: no screen yet; it is a window until `s` puts it on one")
            return
        }
        console.setFullscreen(on: main)
        DispatchQueue.main.asyncAfter(deadline: .now() + 1.5) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.console === console, console.isConnected else { return }
                if console.isFullscreen {
                    self.emit(["event": "console-fullscreen", "ok": true, "output": main.name])
                } else {
                    self.messages.error(
                        "console: the compositor did not make it full screen on \(main.name) (its configure has no fullscreen state); it stays a window where the compositor put it. Use --windowed-console to stop asking, or move it by hand"
                    )
                    self.emit(["event": "console-fullscreen", "ok": false, "output": main.name])
                }
            }
        }
    }

    /// Closes the windows and unregisters the audience; the app goes on.
    func close() {
        let windows = windows
        self.windows = []
        for window in windows { app.close(window) }
        console = nil
        if let registration { app.unregisterSceneAccessory(registration) }
        registration = nil
    }
}
