import Dispatch
import Foundation
import Presenter
import Screenplay
import Signage

/// `screenplay present`: content on every external screen until a signal.
@MainActor
final class PresentRunner: SceneCommand {
    let command: PresentCommand
    /// Stats, signals, stopping, and the app with what it shows.
    private var session: PresentSession?
    private var image: LoadedImage?
    private var shader: FragmentShader?
    private var kind: ContentKind = .testCard
    private var presenter: PresentedTalk?
    /// Ends `present` when video stops (see VideoLifecycle).
    private lazy var videoLifecycle = VideoLifecycle(
        onAllEnded: { [weak self] in
            guard let session = self?.session else { return }
            session.whenReadyToStop {
                session.finish(status: 0, message: "the video played to its end (--no-loop)")
            }
        },
        onFailure: { [weak self] reason in
            guard let session = self?.session else { return }
            session.whenReadyToStop { session.finish(status: ExitCode.dataError.rawValue, message: reason) }
        }
    )

    init(_ command: PresentCommand) { self.command = command }

    /// Loads and checks the content (exit 65/66 before anything opens),
    /// connects, and starts presenting. Returns with the main queue to run.
    func start() throws {
        if case let .pdf(path) = command.content {
            // Slides get the presenter: a console window plus the audience view.
            let presenter = try PresentedTalk(command, path: path)
            try presenter.start()
            self.presenter = presenter
            return
        }
        kind = try loadContent()
        let session = try PresentSession(stats: command.stats, stallGrace: command.stallGrace)
        self.session = session
        var options = session.watched(command.applicationOptions(includingBuiltIn: command.allOutputs))
        if command.mode != nil {
            // A screen connected while presenting gets its scene once its
            // mode is set (the switcher says which are being switched).
            let filter = options.screenFilter
            options.screenFilter = { [weak self] screen in
                self?.modeSwitcher?.isSwitching(screen) != true && filter?(screen) ?? true
            }
        }
        if command.reconnect { options.whenCompositorGoes = .reconnect() }

        let app = try ScreenplayTool.connect(options)
        let patterns = command.outputPatterns
        if !patterns.isEmpty, !app.screens.contains(where: command.matchesOutputPatterns) {
            let list = app.screens.map { "  \($0.name) \"\($0.displayDescription)\"" }.joined(separator: "\n")
            app.shutdown()
            throw CommandFailure(
                .usage,
                "--output \(patterns.joined(separator: ", ")) matches no screen; the screens are:\n\(list.isEmpty ? "  (none)" : list)"
            )
        }
        // Before --mode's wait: `ScreenplayTool` runs this application (and
        // signals reach `stop(signal:)` through it) while the modes are set.
        // Not `session.app` yet: the session reads that as content attached.
        connectedApp = app
        session.startWatchdog()
        if let text = command.mode, let request = ScreenModeRequest(parsing: text) {
            // Before any scene connects, as UIKit apps choose a screen's mode
            // before attaching a window to it.
            let switcher = ModeSwitcher(request: request, app: app)
            modeSwitcher = switcher
            session.beforeStop = { [weak switcher] done in
                guard let switcher else { return done() }
                switcher.restore(then: done)
            }
            do {
                // The content is shown once every screen has its mode.
                try switcher.apply(to: app.externalScreens) { [weak self] failure in
                    do {
                        if let failure { throw failure }
                        try self?.attach(app)
                    } catch {
                        switcher.restore {
                            app.shutdown()
                            exitWith(error)
                        }
                    }
                }
            } catch {
                app.shutdown()
                throw error
            }
            return
        }
        try attach(app)
    }

    private var modeSwitcher: ModeSwitcher?

    /// The application from the moment it connects.
    private var connectedApp: Application?

    var application: Application? { presenter?.app ?? connectedApp }

    func stop(signal: StopSignal) {
        if let presenter { return presenter.stop(signal: signal) }
        guard let session else { return }
        // With --mode the modes go back first (answered in a later batch).
        session.whenReadyToStop { [weak self] in
            session.tearDown(because: "\(signal)")
            // Still waiting for --mode, the session has no application to
            // shut down: `run` returns only once this one is.
            self?.connectedApp?.shutdown()
        }
    }

    /// Shows the content through `app`; after a compositor restart
    /// (`--reconnect`) the application shows it again by itself.
    private func attach(_ app: Application) throws {
        guard let session else { return }
        // Not earlier: with --mode the content waits for the modes, and no
        // scene yet must not read as every panel showing it.
        session.startServiceMonitor(stallGrace: command.stallGrace, showing: command.content.label)
        session.app = app
        app.onSceneError = { error in printError("\(error)") }
        app.onConnectionLost = { [weak self] error in
            guard let self, self.command.reconnect else {
                printError("\(error.description); exiting (use --reconnect to wait for the compositor to come back)")
                exit(ExitCode.unavailable.rawValue)
            }
            // The application reconnects itself (ApplicationOptions.whenCompositorGoes)
            // and brings the registration's scenes and the preview window back.
            printError("\(error.description); --reconnect: waiting for a compositor on the same socket")
        }
        app.onReconnect = { [weak app] in
            log("reconnected to \(app?.compositorInfo.socketDescription ?? "the compositor")")
        }
        app.onScreenConnect = { [weak self, weak app] screen in
            log("screen connected: \(screen.name) (\(screen.classification.kind.rawValue))")
            if let app, app.targetReason(screen).isTarget { self?.modeSwitcher?.screenConnected(screen) }
        }
        app.onScreenDisconnect = { screen in log("screen disconnected: \(screen.name)") }

        let configuration = SceneConfiguration(
            name: "screenplay", layer: command.layer, preferredFramesPerSecond: command.framesPerSecond ?? 0,
            delegateFactory: { [kind, image, shader, stats = session.stats, videoLifecycle, command] in
                ContentDelegate(
                    kind: kind, image: image, shader: shader, events: stats.map { stats in { stats.write($0) } },
                    messages: .log, videoLifecycle: videoLifecycle, inhibitsIdle: !command.allowIdle,
                    diagnostics: .fromEnvironment,
                    statsLabel: { scene in
                        scene.screen?.name ?? "window"
                    })
            })
        if command.preview {
            session.windows = [try app.openWindow(configuration: configuration)]
            log("previewing in a window")
        } else {
            session.registration = app.registerSceneAccessory(
                .externalNonInteractive(sceneConfiguration: configuration))
            explainWhenNothingShows(app)
        }
    }

    /// Every "nothing shows" case says why, on stderr.
    private func explainWhenNothingShows(_ app: Application) {
        if app.externalScreens.isEmpty {
            let why = app.screens.map { "\($0.name): \(app.targetReason($0).reason)" }.joined(separator: "; ")
            log("no external screen yet; waiting for one to connect (\(why.isEmpty ? "no screens at all" : why))")
        }
    }

    private func loadContent() throws -> ContentKind {
        switch command.content {
        case .testCard:
            return .testCard
        case let .color(c):
            return .color(c)
        case let .image(path):
            do {
                image = try LoadedImage.load(path: path)
            } catch {
                throw CommandFailure(error.isUnreadable ? .noInput : .dataError, error.description)
            }
            return .image(path: path)
        case let .shader(path):
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CommandFailure(.noInput, "cannot read \(path): \(readReason(path))")
            }
            guard let source = String(data: data, encoding: .utf8) else {
                throw CommandFailure(.dataError, "\(path) is not a shader: it is not UTF-8 text")
            }
            let shader = FragmentShader(source: source, name: path)
            do {
                try shader.validate()
            } catch {
                throw CommandFailure(.dataError, "\(path) does not compile: \(error)")
            }
            self.shader = shader
            return .shader(path: path, source: source)
        case let .video(path):
            try probeVideo(path)
            return .video(path: path, loops: command.loops, audio: command.audio)
        case let .web(url):
            if url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") {
                return .web(url: url)
            }
            guard FileManager.default.isReadableFile(atPath: url) else {
                throw CommandFailure(.noInput, "cannot read \(url): \(readReason(url))")
            }
            return .web(url: URL(fileURLWithPath: url).standardizedFileURL.absoluteString)
        case let .pdf(path):
            // start() hands PDFs to the Presenter before loading content.
            throw CommandFailure(.software, "\(path): PDFs are presented by the presenter, not as content")
        }
    }

}

extension PresentCommand {
    /// Whether `--output` names `screen` (see `ScreenPattern`);
    /// true when no pattern was given.
    @MainActor
    func matchesOutputPatterns(_ screen: Screen) -> Bool {
        outputPatterns.isEmpty
            || outputPatterns.contains { ScreenPattern($0).matches(screen) }
    }

    /// The screen selection shared by `present` and the presenter:
    /// `--builtin`, `--output`, and `--all` where the caller allows it.
    func applicationOptions(includingBuiltIn: Bool) -> ApplicationOptions {
        var options = ApplicationOptions()
        options.builtInPatterns = builtinPatterns
        options.targets = includingBuiltIn ? .everyScreen : .externalScreens
        if fullscreenWindow { options.maxLayerShellVersion = 0 }
        if !outputPatterns.isEmpty {
            let command = self
            options.screenFilter = { command.matchesOutputPatterns($0) }
        }
        return options
    }
}

extension PresentRunner {
    /// Missing or unreadable: exit 66; not media, corrupt or no decodable
    /// video stream: exit 65 with libmpv's reason; both before any scene.
    func probeVideo(_ path: String) throws {
        do {
            let info = try VideoPlayer.probe(path: path)
            log(
                String(
                    format: "video %@: %@ %dx%d, %.3g fps, %.2f s", path, info.codec, info.width, info.height,
                    info.framesPerSecond, info.duration))
        } catch {
            throw CommandFailure(error.isUnreadable ? .noInput : .dataError, error.description)
        }
    }
}

extension ContentDiagnostics {
    /// Hidden, not for users: `SCREENPLAY_BENCH_CONTINUOUS=1` redraws a
    /// colour every refresh (the benchmark's clear-only scene),
    /// `SCREENPLAY_BENCH_TEXT=TEXT` draws TEXT over it (its text scene),
    /// `SCREENPLAY_VIDEO_PROBE=1` reads back each video frame's centre pixel.
    static var fromEnvironment: ContentDiagnostics {
        let environment = ProcessInfo.processInfo.environment
        var diagnostics = ContentDiagnostics()
        diagnostics.redrawsContinuously = environment["SCREENPLAY_BENCH_CONTINUOUS"] == "1"
        diagnostics.overlayText = environment["SCREENPLAY_BENCH_TEXT"]
        diagnostics.probesVideoPixels = environment["SCREENPLAY_VIDEO_PROBE"] == "1"
        return diagnostics
    }
}
