import Dispatch
import Foundation
import Presenter
import Screenplay
import Signage

/// `present FILE.pdf` and `demo`: a `Talk` on the tool's application, with
/// what the tool adds around it: the `--stats` lines (and each scene's
/// frames line), the stuck-draw watchdog, systemd's notify protocol, the
/// exit when the compositor goes, and exit 0 on the quit key. The talk
/// itself reports through closures, so these stay the tool's (the signage
/// player uses the same ones), not the library's.
@MainActor
final class PresentedTalk {
    private let command: PresentCommand
    private let talk: Talk
    /// Stats, the watchdog, stopping, and the app.
    private let session: PresentSession
    private var frameClock: (any DispatchSourceTimer)?
    /// Draws and repainted pixels per scene since the last frames line.
    private var redrawCounters: [ObjectIdentifier: RedrawCounter] = [:]

    /// The connection, for `ScreenplayTool` to run.
    var app: Application? { session.app }

    /// Opens the document and the notes; errors end the command before any
    /// window opens (66: missing or unreadable; 65: encrypted, corrupt, bad
    /// notes or a bad .pdfpc file).
    init(_ command: PresentCommand, path: String) throws {
        self.command = command
        do {
            talk = try Talk(path: path, options: command.talkOptions)
        } catch {
            throw CommandFailure(error.kind == .unreadable ? .noInput : .dataError, error.description)
        }
        session = try PresentSession(stats: command.stats, stallGrace: command.stallGrace)
    }

    /// Connects, opens the console and registers the audience scenes.
    func start() throws {
        // Never --all: the audience view must not reach the console's screen.
        // Unlike `present`, an --output that matches nothing yet waits: the
        // projector is often plugged in after the presenter starts.
        let app = try ScreenplayTool.connect(session.watched(command.applicationOptions(includingBuiltIn: false)))
        session.app = app
        session.onStop = { [weak self] in
            self?.frameClock?.cancel()
            self?.talk.close()
        }
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
        if let stats = session.stats {
            talk.onEvent = { event in stats.write(event.fields) }
            startFrameLines()
        }
        talk.onQuit = { [session] reason in session.stop(reason: reason) }
        try talk.start(on: app)
        // READY=1 waits for the audience on every external screen.
        session.registration = talk.audienceRegistration
    }

    /// SIGINT or SIGTERM: the teardown of `stop(reason:)`, after which
    /// `Application.run` returns.
    func stop(signal: StopSignal) { session.tearDown(because: "\(signal)") }

    private func startFrameLines() {
        let clock = DispatchSource.makeTimerSource(queue: .main)
        clock.schedule(deadline: .now() + 1, repeating: 1)
        clock.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.writeFrameLines() } }
        clock.resume()
        frameClock = clock
    }

    /// A `frames` line per scene, as `present`'s other content writes:
    /// frames presented, draws and pixels repainted in the last second.
    private func writeFrameLines() {
        guard let stats = session.stats else { return }
        let scenes = (talk.console.map { [("console", $0)] } ?? []) + talk.audienceScenes.map { ("audience", $0) }
        let now = monotonicNanoseconds()
        for (role, scene) in scenes where scene.isConnected {
            let window = scene.displayLink.takeFrameStatistics(nowNs: now)
            let redrawn = redrawCounters[ObjectIdentifier(scene), default: RedrawCounter()].take(scene)
            stats.write([
                "event": "frames", "role": role, "output": scene.screen?.name ?? "window",
                "presented": window.presented, "draws": redrawn.draws, "redrawn_px": redrawn.redrawnPixels,
                "width": scene.pixelSize.width, "height": scene.pixelSize.height, "t_ns": monotonicNanoseconds(),
            ])
        }
        let live = Set(scenes.map { ObjectIdentifier($0.1) })
        redrawCounters = redrawCounters.filter { live.contains($0.key) }
    }
}

extension PresentCommand {
    /// The flags a talk takes, and the tool's messages and content recognition.
    var talkOptions: TalkOptions { talk.talkOptions(audio: audio, allowIdle: allowIdle) }
}
