import Dispatch
import Foundation
import Screenplay

/// `screenplay present`: content on every external screen until a signal.
@MainActor
final class PresentRunner {
    let command: PresentCommand
    private var app: Application?
    private var registration: SceneAccessoryRegistration?
    private var signalSources: [any DispatchSourceSignal] = []
    private var stats: StatsWriter?
    private var picture: Picture?
    private var shader: FragmentShader?
    private var kind: ContentKind = .testCard
    private var window: Scene?
    private var presenter: Presenter?
    /// Ends `present` when video stops (see VideoLifecycle).
    private lazy var videoLifecycle = VideoLifecycle(
        onAllEnded: { [weak self] in self?.finish(status: 0, message: "the video played to its end (--no-loop)") },
        onFailure: { [weak self] reason in self?.finish(status: ExitCode.dataError.rawValue, message: reason) })

    init(_ command: PresentCommand) { self.command = command }

    /// Loads and checks the content (exit 65/66 before anything opens),
    /// connects, and starts presenting. Returns with the main queue to run.
    func start() throws {
        if case let .pdf(path) = command.content {
            // Slides get the presenter: a console window plus the audience view.
            let presenter = try Presenter(command, path: path)
            try presenter.start()
            self.presenter = presenter
            return
        }
        kind = try loadContent()
        stats = try openStats()
        let options = command.applicationOptions(includingBuiltIn: command.allOutputs)
        self.options = options
        let app = try ScreenplayTool.connect(options)
        let patterns = command.outputPatterns
        if !patterns.isEmpty, !app.screens.contains(where: command.matchesOutputPatterns) {
            let list = app.screens.map { "  \($0.name) \"\($0.displayDescription)\"" }.joined(separator: "\n")
            app.shutdown()
            throw CommandFailure(.usage, "--output \(patterns.joined(separator: ", ")) matches no screen; the screens are:\n\(list.isEmpty ? "  (none)" : list)")
        }
        installSignalHandlers()
        try attach(app)
    }

    private var options = ApplicationOptions()

    /// Shows the content through `app`: at start, and again after a
    /// reconnect to a restarted compositor.
    private func attach(_ app: Application) throws {
        self.app = app
        app.onSceneError = { error in printError("\(error)") }
        app.onConnectionLost = { [weak self] error in
            guard let self, self.command.reconnect else {
                printError("\(error.description); exiting (use --reconnect to wait for the compositor to come back)")
                exit(ExitCode.unavailable.rawValue)
            }
            printError("\(error.description); --reconnect: waiting for a compositor on the same socket")
            self.registration = nil
            self.window = nil
            self.app = nil
            app.shutdown()
            self.reconnect(attempt: 0)
        }
        app.onScreenConnect = { screen in log("screen connected: \(screen.name) (\(screen.classification.kind.rawValue))") }
        app.onScreenDisconnect = { screen in log("screen disconnected: \(screen.name)") }

        let configuration = SceneConfiguration(
            name: "screenplay", layer: layer, preferredFramesPerSecond: command.framesPerSecond ?? 0,
            delegateFactory: { [kind, picture, shader, stats, videoLifecycle] in
                ContentDelegate(
                    kind: kind, picture: picture, shader: shader, stats: stats, videoLifecycle: videoLifecycle,
                    statsLabel: { scene in
                    scene.screen?.name ?? "window"
                })
            })
        if command.preview {
            window = try app.openWindow(configuration: configuration)
            log("previewing in a window")
        } else {
            registration = app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: configuration))
            explainWhenNothingShows(app)
        }
    }

    /// Tries the socket every 100 ms (a timer, not a busy loop) until a
    /// compositor answers, then shows the same content again.
    private func reconnect(attempt: Int) {
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(100)) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                guard let app = try? Application(options: self.options) else {
                    if attempt % 50 == 49 { log("still waiting for the compositor") }
                    return self.reconnect(attempt: attempt + 1)
                }
                log("reconnected to \(app.socketDescription)")
                do {
                    try self.attach(app)
                } catch {
                    printError("\(error)")
                    exit(ExitCode.unavailable.rawValue)
                }
            }
        }
    }

    private var layer: SceneLayer {
        switch command.layer {
        case .overlay: .overlay
        case .top: .top
        case .bottom: .bottom
        case .background: .background
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
            return .color(Paint(hex: UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)))
        case let .image(path):
            do {
                picture = try Picture.load(path: path)
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
        case let .pdf(path):
            // start() hands PDFs to the Presenter before loading content.
            throw CommandFailure(.software, "\(path): PDFs are presented by the presenter, not as content")
        }
    }

    private func openStats() throws -> StatsWriter? {
        switch command.stats {
        case nil: return nil
        case .standardOutput: return StatsWriter(handle: .standardOutput)
        case let .file(path):
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw CommandFailure(.noInput, "cannot write the stats file \(path): \(readReason(path))")
            }
            return StatsWriter(handle: handle)
        }
    }

    private func installSignalHandlers() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.stop(signal: sig) }
            }
            source.resume()
            signalSources.append(source)
        }
    }

    private func finish(status: Int32, message: String) {
        if status == 0 { log(message) } else { printError(message) }
        if let window { app?.close(window) }
        if let registration { app?.unregisterSceneAccessory(registration) }
        app?.shutdown()
        exit(status)
    }

    private func stop(signal: Int32) {
        log("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): tearing down")
        if let window { app?.close(window) }
        if let registration { app?.unregisterSceneAccessory(registration) }
        app?.shutdown()
        exit(0)
    }
}

func log(_ text: String) {
    FileHandle.standardError.write(Data("screenplay: \(text)\n".utf8))
}

/// Why a path cannot be read, in words (errno of open(2)).
func readReason(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    if fd >= 0 {
        close(fd)
        return "not a readable text file"
    }
    return String(cString: strerror(errno))
}

extension PresentCommand {
    /// Whether `--output` names `screen` (by name, description or glob);
    /// true when no pattern was given.
    @MainActor
    func matchesOutputPatterns(_ screen: Screen) -> Bool {
        outputPatterns.isEmpty
            || outputPatterns.contains { matches(pattern: $0, name: screen.name, description: screen.displayDescription) }
    }

    /// The screen selection shared by `present` and the presenter:
    /// `--builtin`, `--output`, and `--all` where the caller allows it.
    func applicationOptions(includingBuiltIn: Bool) -> ApplicationOptions {
        var options = ApplicationOptions()
        options.builtInPatterns = builtinPatterns
        options.presentOnAllScreens = includingBuiltIn
        if fullscreenWindow { options.maxLayerShellVersion = 0 }
        if !outputPatterns.isEmpty {
            let command = self
            options.screenFilter = { command.matchesOutputPatterns($0) }
        }
        return options
    }
}
