import Dispatch
import Foundation
public import Screenplay

extension SignagePanelHealth {
    /// The scene's stall, from its display link (no events consumed).
    @MainActor
    public static func stall(of scene: Scene?) -> Double? { scene?.displayLink.stallWhilePanelIsOn() }
}

/// Tells systemd how a player (`screenplay play`, `screenplay present`, an
/// app's) is doing, when it runs as a `Type=notify` service: READY=1 once every panel has shown its first
/// item, or after `readyDeadline` seconds at most with a STATUS= that says
/// what is not shown and why (a service that is up but shows nothing must
/// not look healthy, nor hold up boot), a one-line STATUS= on every change, WATCHDOG=1
/// at half the watchdog interval while the main loop runs and no panel
/// that is on has been stalled longer than the stall grace, STOPPING=1 on
/// the way out. Without `NOTIFY_SOCKET` it does nothing and runs no timer.
@MainActor
public final class ServiceMonitor {
    private let notifier: ServiceNotifier?
    private let stallGrace: Double
    private let graceSetting: String
    private let panels: () -> [SignagePanelHealth]
    private let isReady: () -> Bool
    private let nothingShown: () -> String?
    private let reportStall: (String) -> Void
    private var ready = false
    private let started = monotonicSeconds()
    /// Seconds after start when READY=1 is sent even though not every
    /// panel shows its item (the STATUS= then says why).
    public static let readyDeadline = 10.0
    private var lastStatus: String?
    /// A clause added to every STATUS= (fleet: the playlist URL's state while it fails).
    public var note: (@MainActor () -> String?)?
    private var timers: [any DispatchSourceTimer] = []
    /// After STOPPING=1 nothing more is said (teardown disconnects panels).
    private var stopped = false
    /// Told once per stall that outlasts the grace, so the log says why the
    /// pings stopped.
    private var toldStalled: Set<String> = []

    /// - Parameters:
    ///   - stallGrace: seconds a panel that is on may show no frame before
    ///     the watchdog pings stop, so systemd restarts the service.
    ///   - graceSetting: how the app's user sets that grace, for the stall's
    ///     line ("--stall-grace").
    ///   - panels: each panel's health now.
    ///   - isReady: whether every matched panel has shown its first item.
    ///   - nothingShown: when no panel shows content, why (per screen);
    ///     nil while something shows.
    ///   - reportStall: takes the line that says a stall stopped the pings
    ///     (the tool writes it as an error).
    public init(
        stallGrace: Double, graceSetting: String, panels: @escaping () -> [SignagePanelHealth],
        isReady: @escaping () -> Bool, nothingShown: @escaping () -> String? = { nil },
        reportStall: @escaping (String) -> Void
    ) {
        notifier = ServiceNotifier()
        self.stallGrace = stallGrace
        self.graceSetting = graceSetting
        self.reportStall = reportStall
        self.panels = panels
        self.isReady = isReady
        self.nothingShown = nothingShown
    }

    /// Starts the timers (under systemd only): readiness is checked every
    /// 50 ms until it holds, the status once a second, the watchdog at half
    /// its interval.
    public func start() {
        guard let notifier else { return }
        every(0.05) { [weak self] timer in
            guard let self else { return timer.cancel() }
            if self.ready { timer.cancel() } else { self.update() }
        }
        every(1) { [weak self] _ in self?.update() }
        if let watchdog = notifier.watchdogSeconds {
            every(watchdog / 2) { [weak self] _ in self?.watchdogTick() }
        }
        update()
    }

    /// Re-reads the panels: READY once, STATUS when its text changed.
    public func update() {
        guard let notifier, !stopped else { return }
        let health = panels()
        // The status first: READY follows a status that shows every panel's
        // item, or says why nothing is shown.
        let status =
            (nothingShown().map { "nothing shown: " + $0 } ?? Self.statusLine(health))
            + (note?().map { "; " + $0 } ?? "")
        if status != lastStatus {
            lastStatus = status
            notifier.send("STATUS=" + status)
        }
        if !ready, isReady() || monotonicSeconds() - started >= Self.readyDeadline {
            ready = true
            notifier.send("READY=1")
        }
    }

    private func watchdogTick() {
        guard let notifier else { return }
        let health = panels()
        update()
        let stuck = health.filter { ($0.stalledSeconds ?? 0) > stallGrace }
        for panel in stuck where !toldStalled.contains(panel.output) {
            reportStall(
                "\(panel.output) has shown no frame for \(Int(panel.stalledSeconds ?? 0)) s (more than \(graceSetting) \(Self.format(stallGrace)) s); no more watchdog pings, so systemd restarts the service"
            )
            toldStalled.insert(panel.output)
        }
        toldStalled.formIntersection(stuck.map(\.output))
        if stuck.isEmpty { notifier.send("WATCHDOG=1") }
    }

    /// STOPPING=1: the manager knows the exit is intended.
    public func stopping() {
        stopped = true
        for timer in timers { timer.cancel() }
        timers = []
        notifier?.send("STOPPING=1")
    }

    /// "2 panels: DP-1 welcome.png, HDMI-A-1 menu.pdf#page=2; stalled: DP-1"
    nonisolated public static func statusLine(_ health: [SignagePanelHealth]) -> String {
        guard !health.isEmpty else { return "no panel connected; waiting for one" }
        let sorted = health.sorted { $0.output < $1.output }
        let items = sorted.map { "\($0.output) \($0.showing.map(shortName) ?? "(starting)")" }.joined(separator: ", ")
        // Which panels are stalled, not for how long: the status changes when something does, not every poll.
        let stalled = sorted.filter { $0.stalledSeconds != nil }.map(\.output)
        let stalls = stalled.isEmpty ? "" : "; stalled: \(stalled.joined(separator: ", "))"
        return "\(health.count) panel\(health.count == 1 ? "" : "s"): \(items)\(stalls)"
    }

    /// The file name of a media label (its folder says little in one line).
    nonisolated private static func shortName(_ label: String) -> String {
        label.split(separator: "/").last.map(String.init) ?? label
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    private func every(_ seconds: Double, _ body: @escaping @MainActor (any DispatchSourceTimer) -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let interval = DispatchTimeInterval.nanoseconds(Int(seconds * 1e9))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler { [timer] in MainActor.assumeIsolated { body(timer) } }
        timer.resume()
        timers.append(timer)
    }
}
