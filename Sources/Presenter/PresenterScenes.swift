import Dispatch
import Foundation
import Screenplay

extension Presenter {
    /// Opens the console on `app` and registers the audience scenes.
    func start(on app: Application) throws {
        let scenes = TalkScenes(app: app, messages: messages) { [weak self] line in self?.emit(line) }
        self.scenes = scenes
        try scenes.open(
            console: SceneConfiguration(name: "Presenter — \(files.title)") { [unowned self] in
                ConsoleDelegate(presenter: self)
            },
            audience: SceneConfiguration(name: "Audience — \(files.title)", layer: .overlay) { [unowned self] in
                AudienceDelegate(presenter: self)
            },
            options: options
        ) { [weak self] available in
            self?.emit(["event": "audience-available", "available": available])
            self?.console?.setNeedsDisplay()
        }
        clock.start()
        cache.onRendered = { [weak self] key in self?.slideRendered(key) }
        thumbnails.onRendered = { [weak self] in
            guard let self, self.state.isOverviewShown else { return }
            self.console?.setNeedsDisplay()
        }
        emitState()
    }

    /// Whether this audience scene plays the slide videos' sound.
    func playsSound(_ scene: Scene) -> Bool { options.audio && scenes?.playsSound(scene) == true }

    func audienceConnected(_ scene: Scene) {
        scenes?.audienceConnected(scene)
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
        scenes?.audienceDisconnected(scene)
        pointerRedraws.forget(scene)
        emit(["event": "disconnect", "role": "audience", "output": label(scene)])
        prefetch()
    }

    func audienceResized(_ scene: Scene) { prefetch() }

    func label(_ scene: Scene) -> String { scene.screen?.name ?? "window" }

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
        clock.stop()
        cache.onRendered = nil
        scenes?.close()
    }
}
