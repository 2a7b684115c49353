import Foundation
import Screenplay

extension PresentCommand {
    /// Checks `--mode WxH[@HZ]` while parsing, so a malformed mode exits 64
    /// before anything connects.
    static func parseModeOption(_ value: String?) throws(UsageError) -> String? {
        guard let value else { return nil }
        guard ScreenModeRequest(parsing: value) != nil else {
            throw usageError(
                "invalid value '\(value)' for '--mode': expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60")
        }
        return value
    }
}

/// `present --mode`: sets each external screen's mode before its scene
/// connects, and puts the previous mode back when present stops. Each
/// change is a request whose answer arrives in a later batch, so nothing
/// here waits inside a handler.
@MainActor
final class ModeSwitcher {
    let request: ScreenModeRequest
    private unowned let app: Application
    /// Screens switched, with the mode each had before.
    private var previous: [(screen: Screen, mode: ScreenMode)] = []
    /// Screens connected while presenting whose mode is being set: they
    /// get their scene once it is.
    private var switching: Set<UInt32> = []

    init(request: ScreenModeRequest, app: Application) {
        self.request = request
        self.app = app
    }

    func isSwitching(_ screen: Screen) -> Bool { switching.contains(screen.id) }

    /// Checks every screen first (a mode one screen does not list changes
    /// nothing: exit 64 with its list), then switches them one after the
    /// other; `done` hears the first failure, or nil once every screen has
    /// its mode.
    func apply(to screens: [Screen], done: @escaping @MainActor (CommandFailure?) -> Void) throws(CommandFailure) {
        guard app.compositorInfo.canSetModes else {
            throw CommandFailure(
                .unavailable,
                "cannot set --mode \(request): "
                    + ScreenplayTool.missingProtocol("change a screen's mode", "zwlr_output_manager_v1"))
        }
        for screen in screens where !screen.availableModes.isEmpty && request.match(in: screen.availableModes) == nil {
            let list = screen.availableModes.map { "  \($0)\($0.isPreferred ? " (preferred)" : "")" }.joined(
                separator: "\n")
            throw CommandFailure(
                .usage, "--mode \(request): screen \(screen.name) does not list this mode; its modes are:\n\(list)")
        }
        switchEach(screens[...], done: done)
    }

    private func switchEach(_ screens: ArraySlice<Screen>, done: @escaping @MainActor (CommandFailure?) -> Void) {
        guard let screen = screens.first else { return done(nil) }
        switchMode(of: screen) { [weak self] failure in
            if let failure { return done(failure) }
            self?.switchEach(screens.dropFirst(), done: done)
        }
    }

    /// A screen connected while presenting gets the mode too, before its scene.
    func screenConnected(_ screen: Screen) {
        switching.insert(screen.id)
        switchMode(of: screen) { [weak self] failure in
            if let failure { printError(failure.description) }
            self?.switching.remove(screen.id)
            self?.app.reevaluateScreens()
        }
    }

    private func switchMode(of screen: Screen, done: @escaping @MainActor (CommandFailure?) -> Void) {
        let before = screen.currentMode
        screen.setMode(request) { [weak self] result in
            switch result {
            case let .success(now):
                if let self, let before, !self.previous.contains(where: { $0.screen === screen }) {
                    self.previous.append((screen, before))
                }
                log(
                    "screen \(screen.name): mode \(now.map { "\($0)" } ?? "unknown") (was \(before.map { "\($0)" } ?? "unknown"))"
                )
                done(nil)
            case let .failure(error):
                let code: ExitCode =
                    switch error.kind {
                    case .notListed: .usage
                    default: .unavailable
                    }
                done(CommandFailure(code, error.description))
            }
        }
    }

    /// Puts every switched screen back in its previous mode, newest first
    /// (exit, SIGINT, SIGTERM), then calls `done`.
    func restore(then done: @escaping @MainActor () -> Void) {
        guard let (screen, mode) = previous.popLast() else { return done() }
        guard screen.isConnected else { return restore(then: done) }
        screen.setMode(mode) { [weak self] result in
            switch result {
            case .success: log("screen \(screen.name): mode \(mode) restored")
            case let .failure(error):
                printError("could not restore the mode of \(screen.name): \(error.description)")
            }
            guard let self else { return done() }
            self.restore(then: done)
        }
    }
}
