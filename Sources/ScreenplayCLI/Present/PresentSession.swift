import Dispatch
import Foundation
import Screenplay
import Signage

/// What `present` and the presenter share around their content: the
/// `--stats` file, the stuck-draw watchdog, and the one way to stop (close
/// the windows and the registration the command made, shut the application
/// down, exit 0; after SIGINT or SIGTERM, `Application.run` returns and
/// `ScreenplayTool` exits 0).
@MainActor
final class PresentSession {
    /// Where `--stats` lines go; nil without `--stats`.
    let stats: StatsWriter?
    /// The connection now; nil while `present --reconnect` waits for a compositor.
    var app: Application?
    /// Windows the command opened (preview, console, rehearsal audience).
    var windows: [Scene] = []
    /// The accessory registration of the external scenes.
    var registration: SceneAccessoryRegistration?
    /// Runs first when stopping, for timers that must not fire in teardown.
    var onStop: (() -> Void)?
    /// Runs before a signal or the end of the content stops the session,
    /// which waits until it calls back: `present --mode` puts the modes
    /// back, and the compositor answers in a later batch.
    var beforeStop: ((@escaping @MainActor () -> Void) -> Void)?
    private var isStopping = false
    private var monitor: ServiceMonitor?
    /// Stuck draws, off the main thread (`--stall-grace`), and the signals' teardown deadline.
    let hangGuard: HangGuard

    /// Opens the stats destination: a file that cannot be written ends the
    /// command (66) before any window opens.
    init(stats destination: PresentCommand.StatsDestination?, stallGrace: Double) throws {
        hangGuard = HangGuard(grace: stallGrace)
        stats = try StatsWriter.open(destination)
    }

    /// `options` with the session's draw watch, for the application.
    func watched(_ options: ApplicationOptions) -> ApplicationOptions {
        var options = options
        options.drawWatch = hangGuard.watch
        return options
    }

    /// A main thread stuck in a draw cannot hold the process past the
    /// grace (`HangGuard`).
    func startWatchdog() {
        hangGuard.start()
    }

    /// Under systemd (`NOTIFY_SOCKET`): READY=1 once every scene has shown
    /// a frame and every external screen has one, STATUS=, and watchdog
    /// pings while no scene on a panel that is on is stalled beyond `stallGrace`.
    func startServiceMonitor(stallGrace: Double, showing label: String) {
        let monitor = ServiceMonitor(
            stallGrace: stallGrace,
            panels: { [weak self] in
                guard let self else { return [] }
                return (self.app?.scenes ?? []).map { scene in
                    SignagePanelHealth(
                        output: scene.screen?.name ?? "window",
                        showing: self.shown.contains(ObjectIdentifier(scene)) ? label : nil,
                        stalledSeconds: SignagePanelHealth.stall(of: scene))
                }
            },
            isReady: { [weak self] in
                guard let self, let app = self.app else { return false }
                for scene in app.scenes { self.watchFirstFrame(of: scene) }
                let shown = app.scenes.filter { self.shown.contains(ObjectIdentifier($0)) }
                guard shown.count == app.scenes.count else { return false }
                return self.registration == nil
                    || app.externalScreens.allSatisfy { screen in shown.contains { $0.screen === screen } }
            })
        self.monitor = monitor
        monitor.start()
    }

    /// Scenes whose first frame reached the screen (by presentation
    /// feedback, or the frame callback where the compositor gives none),
    /// and those being watched for it.
    private var shown: Set<ObjectIdentifier> = []
    private var watched: Set<ObjectIdentifier> = []

    /// Static content asks for no frame callbacks, so the first frame is
    /// drawn once more with a watcher on it (once per scene, at start).
    private func watchFirstFrame(of scene: Scene) {
        let id = ObjectIdentifier(scene)
        guard !watched.contains(id) else { return }
        watched.insert(id)
        scene.whenNextFrameShown { [weak self] _ in
            self?.shown.insert(id)
            self?.monitor?.update()
        }
        scene.setNeedsDisplay()
    }

    /// Runs `stop` once `beforeStop` is done (at once without one); a
    /// second request while the first waits changes nothing.
    func whenReadyToStop(_ stop: @escaping @MainActor () -> Void) {
        guard !isStopping else { return }
        isStopping = true
        guard let beforeStop else { return stop() }
        beforeStop { stop() }
    }

    /// Tears down what the command made, in order, and exits 0.
    func stop(reason: String) -> Never {
        tearDown(because: reason)
        exit(0)
    }

    /// Says why, then tears down what the command made, in order: after a
    /// signal `Application.run` returns then.
    func tearDown(because reason: String) {
        log("\(reason): tearing down")
        tearDown()
    }

    /// Ends the command on its own (a video that ended or failed): the
    /// message to stderr (as an error unless the status is 0), the same
    /// teardown as a signal, and `status`.
    func finish(status: Int32, message: String) -> Never {
        if status == 0 { log(message) } else { printError(message) }
        tearDown()
        exit(status)
    }

    private func tearDown() {
        monitor?.stopping()
        onStop?()
        for window in windows { app?.close(window) }
        if let registration { app?.unregisterSceneAccessory(registration) }
        app?.shutdown()
    }
}
