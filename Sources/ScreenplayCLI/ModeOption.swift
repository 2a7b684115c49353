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
/// connects, and puts the previous mode back when present stops.
@MainActor
final class ModeSwitcher {
    let request: ScreenModeRequest
    private unowned let app: Application
    /// Screens switched, with the mode each had before.
    private var previous: [(screen: Screen, mode: ScreenMode)] = []

    init(request: ScreenModeRequest, app: Application) {
        self.request = request
        self.app = app
    }

    /// Checks every screen first (a mode one screen does not list changes
    /// nothing: exit 64 with its list), then switches them.
    func apply(to screens: [Screen]) throws(CommandFailure) {
        guard app.canSetModes else {
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
        for screen in screens { try switchMode(of: screen) }
    }

    /// A screen connected while presenting gets the mode too, before its scene.
    func screenConnected(_ screen: Screen) {
        do {
            try switchMode(of: screen)
        } catch {
            printError(error.description)
        }
    }

    private func switchMode(of screen: Screen) throws(CommandFailure) {
        let before = screen.currentMode
        do {
            let now = try app.setMode(request, for: screen)
            if let before, !previous.contains(where: { $0.screen === screen }) { previous.append((screen, before)) }
            log(
                "screen \(screen.name): mode \(now.map { "\($0)" } ?? "unknown") (was \(before.map { "\($0)" } ?? "unknown"))"
            )
        } catch {
            let code: ExitCode =
                switch error.kind {
                case .notListed: .usage
                default: .unavailable
                }
            throw CommandFailure(code, error.description)
        }
    }

    /// Puts every switched screen back in its previous mode (exit, SIGINT, SIGTERM).
    func restore() {
        for (screen, mode) in previous.reversed() where screen.isConnected {
            do {
                try app.setMode(mode, for: screen)
                log("screen \(screen.name): mode \(mode) restored")
            } catch {
                printError("could not restore the mode of \(screen.name): \(error.description)")
            }
        }
        previous.removeAll()
    }
}
