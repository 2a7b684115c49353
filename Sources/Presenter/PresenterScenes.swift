import Dispatch
import Foundation
import Screenplay

extension Presenter {
    /// Opens the console on `app` and registers the audience scenes.
    func start(on app: Application) throws {
        self.app = app
        let consoleConfiguration = SceneConfiguration(name: "Presenter — \(title)") { [unowned self] in
            ConsoleDelegate(presenter: self)
        }
        let console = try app.openWindow(configuration: consoleConfiguration)
        self.console = console
        windows.append(console)
        if !options.windowedConsole, !options.rehearse { fillMainScreen(with: console, app: app) }
        let audienceConfiguration = SceneConfiguration(name: "Audience — \(title)", layer: .overlay) { [unowned self] in
            AudienceDelegate(presenter: self)
        }
        if options.rehearse {
            windows.append(try app.openWindow(configuration: audienceConfiguration))
            messages.info("rehearsing: the audience view is a window")
        } else {
            let registration = app.registerSceneAccessory(
                .externalNonInteractive(sceneConfiguration: audienceConfiguration))
            registration.onAvailabilityChange = { [weak self] available in
                self?.messages.info(
                    available ? "audience display connected" : "no audience display; the console keeps running")
                self?.emit(["event": "audience-available", "available": available])
                self?.console?.setNeedsDisplay()
            }
            self.registration = registration
            if !registration.isAvailable { messages.info("no external screen yet; the console runs and waits for one") }
            if !app.hasLayerShell {
                // Said as what happens: the fallback is made, and works.
                messages.info(
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

    /// Whether this audience scene plays the slide videos' sound.
    func playsSound(_ scene: Scene) -> Bool {
        guard options.audio else { return false }
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
        if !options.rehearse, !options.allowIdle { scene.inhibitsIdle = true }
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

    // MARK: teardown

    /// `s`: the console moves to the next screen and that screen's role
    /// goes to the one the console left, for when Screenplay took the wrong
    /// screen for the laptop. The audience view still never shares the
    /// console's screen.
    func swapScreens() {
        guard let app, let current = app.mainScreen, app.screens.count >= 2,
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

    /// The quit key, or the console closed by the compositor: the app's
    /// `onQuit`, or the talk closes.
    func quit(reason: String) {
        if let onQuit { return onQuit(reason) }
        // Closing the console window tells its delegate it went.
        if !isClosing { close() }
    }

    /// Stops the clock, closes the talk's windows and unregisters its
    /// audience scenes; the application goes on.
    func close() {
        isClosing = true
        clock?.cancel()
        clock = nil
        cache.onRendered = nil
        guard let app else { return }
        for window in windows { app.close(window) }
        windows = []
        console = nil
        if let registration { app.unregisterSceneAccessory(registration) }
        registration = nil
    }
}
