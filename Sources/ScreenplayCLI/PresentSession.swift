import Dispatch
import Foundation
import Screenplay

/// What `present` and the presenter share around their content: the
/// `--stats` file, SIGINT and SIGTERM, and the one way to stop (close the
/// windows and the registration the command made, shut the application
/// down, exit 0).
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
    private var signalSources: [any DispatchSourceSignal] = []
    /// Signals and stuck draws, off the main thread (`--stall-grace`).
    let hangGuard: HangGuard

    /// Opens the stats destination: a file that cannot be written ends the
    /// command (66) before any window opens.
    init(stats destination: PresentCommand.StatsDestination?, stallGrace: Double) throws {
        hangGuard = HangGuard(grace: stallGrace)
        switch destination {
        case nil: stats = nil
        case .standardOutput: stats = StatsWriter(handle: .standardOutput)
        case let .file(path):
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else { throw CommandFailure(.noInput, "cannot write the stats file \(path): \(readReason(path))") }
            stats = StatsWriter(handle: handle)
        }
    }

    /// `options` with the session's draw watch, for the application.
    func watched(_ options: ApplicationOptions) -> ApplicationOptions {
        var options = options
        options.drawWatch = hangGuard.watch
        return options
    }

    /// SIGINT and SIGTERM stop the session from the main queue, so teardown
    /// never runs inside a signal handler; a main thread stuck in a draw
    /// cannot hold them up (`HangGuard`), nor the process past the grace.
    func installSignalHandlers() {
        signalSources = hangGuard.installStopSignals { [weak self] sig in
            self?.stop(reason: sig == SIGINT ? "SIGINT" : "SIGTERM")
        }
        hangGuard.start()
    }

    /// Tears down what the command made, in order, and exits 0.
    func stop(reason: String) -> Never {
        log("\(reason): tearing down")
        tearDown()
        exit(0)
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
        onStop?()
        for window in windows { app?.close(window) }
        if let registration { app?.unregisterSceneAccessory(registration) }
        app?.shutdown()
    }
}
