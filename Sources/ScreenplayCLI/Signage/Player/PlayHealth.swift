import Dispatch
import Foundation
import Screenplay

/// What `play` tells of its panels' health: systemd's notify protocol
/// (READY=1 once every screen shows its first item, STATUS=, the watchdog)
/// when it runs as a service, and a warning in the log while nothing shows.
@MainActor
final class PlayHealth {
    private unowned let runner: PlayRunner
    private let screens: PlayScreens
    /// systemd's notify protocol; nil until play has connected.
    private var monitor: ServiceMonitor?
    private var nothingShownTimer: (any DispatchSourceTimer)?

    init(runner: PlayRunner, screens: PlayScreens) {
        self.runner = runner
        self.screens = screens
    }

    /// Starts the service manager's protocol; `note` is a clause added to every STATUS=.
    func startMonitor(stallGrace: Double, note: @escaping @MainActor () -> String?) {
        let monitor = ServiceMonitor(
            stallGrace: stallGrace, panels: { [weak self] in self?.runner.allPanels.map(\.health) ?? [] },
            isReady: { [weak self] in self?.everyPanelShowsItsFirstItem() ?? false },
            nothingShown: { [weak self] in self?.nothingShownReason() })
        self.monitor = monitor
        monitor.note = note
        monitor.start()
    }

    /// Something the status tells changed (an item shown, a panel gone, the compositor).
    func update() { monitor?.update() }

    /// STOPPING=1: nothing more is said during teardown.
    func stopping() { monitor?.stopping() }

    /// READY=1: every screen play shows on has shown its first item, and
    /// there is at least one; false while the compositor is gone (the
    /// monitor's deadline sends READY=1 anyway, saying why).
    private func everyPanelShowsItsFirstItem() -> Bool {
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
        timer.schedule(deadline: .now() + ServiceMonitor.readyDeadline, repeating: 60, leeway: .seconds(1))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self, let reason = self.nothingShownReason() else { return }
                warn("nothing is shown: \(reason)")
            }
        }
        timer.resume()
        nothingShownTimer = timer
    }
}
