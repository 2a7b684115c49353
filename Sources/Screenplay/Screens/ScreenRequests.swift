import EventLoop
import WaylandClient

/// A mode or power request in flight. It is sent when made (a power
/// exchange once its screen has no other one out) and advanced after every
/// batch by what the compositor answered; nothing waits for the answer, so
/// a request made inside a handler or a draw dispatches no events there.
@MainActor
protocol ScreenRequest: AnyObject {
    /// Sends what comes next once the answer it waits for is in. Returns,
    /// once the request is over, what to do with its result: record it on
    /// the screen and call the completion (run after the walk, so a
    /// completion may make new requests).
    func advance(nowNs: UInt64) -> (@MainActor () -> Void)?
    /// When the step it waits for gives up (CLOCK_MONOTONIC).
    var deadlineNs: UInt64 { get }
    /// The application shut down or lost the compositor: release what is
    /// still open and hand back the call that finishes with `reason`.
    func abandon(_ reason: String) -> @MainActor () -> Void
}

/// The requests in flight, the timer that wakes them at their deadlines,
/// and the watch that reads a silent panel's power.
@MainActor
final class ScreenRequests {
    private var pending: [any ScreenRequest] = []
    /// The deadline a wake-up is already scheduled for.
    private var wakeNs: UInt64?
    /// The panel watch's next timer on the main event loop (it re-arms itself).
    private var panelWatch: UInt64?

    /// Starts tracking `request`; its first step is looked at after a batch
    /// that runs soon even if no event arrives.
    func add(_ request: any ScreenRequest, _ app: Application) {
        pending.append(request)
        startPowerExchanges()
        EventBatch.schedule(for: app)
    }

    /// Sends the power reads and switches whose screen has no other one
    /// out, oldest first: wlroots allows one `zwlr_output_power_v1` per
    /// output at a time (across all clients) and answers a second with
    /// `failed`, so ours take turns.
    private func startPowerExchanges() {
        let power = pending.compactMap { $0 as? PowerRequest }
        var busy = Set(power.filter(\.isStarted).map { ObjectIdentifier($0.screen) })
        for request in power where !request.isStarted && !busy.contains(ObjectIdentifier(request.screen)) {
            request.start(nowNs: monotonicNanoseconds())
            busy.insert(ObjectIdentifier(request.screen))
        }
    }

    /// After a batch (its screens and input handled): advances every
    /// request by the answers that arrived, then finishes those that are
    /// over, in the order they were made.
    func advance(_ app: Application) {
        guard !pending.isEmpty else { return }
        let now = monotonicNanoseconds()
        var finished: [@MainActor () -> Void] = []
        pending.removeAll { request in
            guard let finish = request.advance(nowNs: now) else { return false }
            finished.append(finish)
            return true
        }
        startPowerExchanges()
        for finish in finished { finish() }
        scheduleWake(app)
    }

    /// Wakes the application at the earliest deadline, so a compositor
    /// that never answers ends the request on time.
    private func scheduleWake(_ app: Application) {
        guard let next = pending.map(\.deadlineNs).min(), next < .max else { return }
        if let wakeNs, wakeNs <= next { return }
        wakeNs = next
        let now = monotonicNanoseconds()
        // Just past the deadline, so the step that waits for it sees it passed.
        // On the main event loop, so an app that runs its own loop gets it too.
        MainEventLoop.shared.after(ns: (next > now ? next - now : 0) + 1_000_000) { [weak self, weak app] in
            self?.wakeNs = nil
            if let app { EventBatch.schedule(for: app) }
        }
    }

    /// Ends every request with `reason` (shutdown, a lost compositor). The
    /// completions run on a later turn of the main queue, not inside the
    /// call that ended them.
    func abandonAll(_ reason: String) {
        let finishes = pending.map { $0.abandon(reason) }
        pending.removeAll()
        stopPanelWatch()
        guard !finishes.isEmpty else { return }
        MainEventLoop.shared.soon {
            for finish in finishes { finish() }
        }
    }

    // MARK: the panel watch

    /// Runs the panel watch while a scene's display link runs on a
    /// compositor that reports panel power: a scene whose frames went
    /// silent then learns whether its panel is off without anyone polling
    /// it, and a panel that is off is read again once a second.
    func updatePanelWatch(_ app: Application) {
        let needed = app.compositor.powerManager != nil && app.scenes.contains { !$0.displayLink.isPaused }
        if !needed {
            stopPanelWatch()
            return
        }
        guard panelWatch == nil else { return }
        // A quarter of the shortest stall threshold (250 ms): a stall is
        // known to be one, or not, soon after it counts as one.
        panelWatch = MainEventLoop.shared.after(ns: 250_000_000) { [weak self, weak app] in
            guard let self, let app else { return }
            self.panelWatch = nil
            let now = monotonicNanoseconds()
            for scene in app.scenes {
                guard let screen = scene.screenNeedingPowerRead(nowNs: now) else { continue }
                screen.readPowerState { [weak scene] state in
                    scene?.displayLink.panelPowerRead(isOff: state == .off)
                }
            }
            self.updatePanelWatch(app)
        }
    }

    private func stopPanelWatch() {
        if let panelWatch { MainEventLoop.shared.cancel(panelWatch) }
        panelWatch = nil
    }
}
