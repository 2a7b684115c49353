import Dispatch
import Foundation
import Screenplay

/// What the player tells of its panels' health: whether every screen it
/// takes shows its first item (a service manager's readiness), why none
/// shows anything (a warning in the log while that lasts), and a change of
/// either to the app (`SignagePlayer.onStatusChange`).
@MainActor
final class PlayHealth {
    private unowned let runner: PlayRunner
    private let screens: PlayScreens
    /// The app's: something the status tells changed.
    var onChange: (@MainActor () -> Void)?
    private var nothingShownTimer: (any DispatchSourceTimer)?
    /// Seconds after start of the first warning while nothing shows (a
    /// service manager's readiness deadline in the tool is as long).
    static let firstWarningSeconds = 10.0

    init(runner: PlayRunner, screens: PlayScreens) {
        self.runner = runner
        self.screens = screens
    }

    /// Something the status tells changed (an item shown, a panel gone, the compositor).
    func update() { onChange?() }

    /// Every screen play shows on has shown its first item, and there is
    /// at least one; false while the compositor is gone.
    func everyPanelShowsItsFirstItem() -> Bool {
        guard let app = runner.app, !runner.compositorGone else { return false }
        let shown = Set(runner.allPanels.filter(\.hasShownFirstItem).map(\.outputName))
        let targets = app.externalScreens
        return !targets.isEmpty && targets.allSatisfy { shown.contains($0.name) }
    }

    /// Why no panel shows content, per screen; nil while one does. A black
    /// television under a service that reports itself healthy is the worst
    /// failure signage has, so this reaches STATUS=, `ctl status` and the log.
    func nothingShownReason() -> String? {
        if runner.allPanels.contains(where: \.hasShownFirstItem) { return nil }
        if runner.compositorGone { return "the compositor is gone; waiting for it to come back" }
        guard let app = runner.app else { return "not connected to a compositor yet" }
        guard !app.screens.isEmpty else { return "no screen is connected; waiting for one" }
        return app.screens.map { screens.whyDark($0, in: app) }.joined(separator: "; ")
    }

    /// While nothing shows, a warning 10 s after start and then once a
    /// minute (a log that repeats every second would bury everything else).
    func startNothingShownWarnings() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + Self.firstWarningSeconds, repeating: 60, leeway: .seconds(1))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self, let reason = self.nothingShownReason() else { return }
                self.runner.messages.warning("nothing is shown: \(reason)")
            }
        }
        timer.resume()
        nothingShownTimer = timer
    }

    /// No more warnings (the player stops).
    func stop() {
        nothingShownTimer?.cancel()
        nothingShownTimer = nil
    }
}
