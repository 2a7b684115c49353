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
        app.scheduleRender()
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
            app?.scheduleRender()
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
        let needed = app.canControlPower && app.scenes.contains { !$0.displayLink.isPaused }
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
                app.powerState(of: screen) { [weak scene] state in
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

/// A mode change: a test, then an apply, each carrying the serial of the
/// heads' last state (a configuration cancelled because that state changed
/// meanwhile waits for the newer state and is sent once more), then the
/// wl_output's new mode.
@MainActor
final class ModeChange: ScreenRequest {
    private weak var app: Application?
    private let screen: Screen
    private let choice: HeadModeChoice
    private let asked: String
    private let completion: @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void

    private enum Step {
        /// Refused before anything was sent.
        case refused(ScreenConfigurationError)
        /// A configuration sent, waiting for its answer.
        case answer(test: Bool, retried: Bool, Configuration, serial: UInt32?)
        /// Cancelled once: waiting for the state that superseded ours.
        case newerState(test: Bool, serial: UInt32?)
        /// Applied: waiting for wl_output to report the new mode.
        case newMode
    }
    private var step: Step
    private(set) var deadlineNs: UInt64 = 0

    /// The compositor answers a configuration within 3 s, announces the
    /// state that cancelled one within 1 s, and shows the new mode on
    /// wl_output within 2 s of applying it.
    private static let answerTimeoutNs: UInt64 = 3_000_000_000
    private static let newerStateTimeoutNs: UInt64 = 1_000_000_000
    private static let newModeTimeoutNs: UInt64 = 2_000_000_000

    /// Sends the test at once (`refusal` instead, when the caller found the
    /// request invalid).
    init(
        app: Application, screen: Screen, choice: HeadModeChoice, asked: String,
        refusal: ScreenConfigurationError?,
        completion: @escaping @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void
    ) {
        self.app = app
        self.screen = screen
        self.choice = choice
        self.asked = asked
        self.completion = completion
        step = .refused(refusal ?? ScreenConfigurationError(kind: .unconfirmed, description: ""))
        if refusal == nil { step = send(test: true, retried: false, nowNs: monotonicNanoseconds()) }
    }

    private func send(test: Bool, retried: Bool, nowNs: UInt64) -> Step {
        let stepName = test ? "test" : "apply"
        guard let app, let manager = app.compositor.outputManager else {
            return .refused(
                ScreenConfigurationError(
                    kind: .unsupported,
                    description: Application.missingProtocolSentence(
                        "change a screen's mode", "zwlr_output_manager_v1")))
        }
        let serial = manager.serial
        let shown = Set(app.screens.filter(\.isEnabled).map(\.name))
        guard screen.isConnected,
            let configuration = manager.send(headNamed: screen.name, choice: choice, test: test, shownNames: shown)
        else {
            return .refused(
                ScreenConfigurationError(
                    kind: .unknownScreen,
                    description:
                        "could not send the \(stepName) of the mode \(asked) for screen \(screen.name): the screen or its output-management head is gone, or the compositor stopped output management"
                ))
        }
        deadlineNs = nowNs + Self.answerTimeoutNs
        return .answer(test: test, retried: retried, configuration, serial: serial)
    }

    func advance(nowNs: UInt64) -> (@MainActor () -> Void)? {
        switch step {
        case let .refused(error):
            return finish(.failure(error))
        case let .answer(test, retried, configuration, serial):
            let stepName = test ? "test" : "apply"
            guard let answer = configuration.answer else {
                guard nowNs >= deadlineNs else { return nil }
                configuration.release()
                return finish(
                    .failure(
                        ScreenConfigurationError(
                            kind: .unconfirmed,
                            description:
                                "the compositor did not answer the \(stepName) of the mode \(asked) for screen \(screen.name) within 3 s"
                        )))
            }
            configuration.release()
            switch answer {
            case .succeeded where test:
                step = send(test: false, retried: false, nowNs: nowNs)
            case .succeeded:
                step = .newMode
                deadlineNs = nowNs + Self.newModeTimeoutNs
            case .failed:
                return finish(
                    .failure(
                        ScreenConfigurationError(
                            kind: .refused,
                            description:
                                "the compositor refused the mode \(asked) (\(choice)) for screen \(screen.name): its \(stepName) answered `failed`; the mode stays \(screen.currentMode.map { "\($0)" } ?? "unknown")"
                        )))
            case .cancelled where retried:
                return finish(
                    .failure(
                        ScreenConfigurationError(
                            kind: .refused,
                            description:
                                "the compositor cancelled the mode \(asked) for screen \(screen.name) twice (its \(stepName) answered `cancelled`: the output configuration kept changing, e.g. another tool such as kanshi is changing it); try again"
                        )))
            case .cancelled:
                // The state changed after the serial we carried (a hot-plug,
                // another tool): wait for the new state and try once more.
                step = .newerState(test: test, serial: serial)
                deadlineNs = nowNs + Self.newerStateTimeoutNs
            }
            // The next step may already be answered in this batch.
            return advance(nowNs: nowNs)
        case let .newerState(test, serial):
            guard app?.compositor.outputManager?.serial != serial || nowNs >= deadlineNs else { return nil }
            step = send(test: test, retried: true, nowNs: nowNs)
            return advance(nowNs: nowNs)
        case .newMode:
            // The new mode reaches the screen and its scenes' display links
            // with the wl_output events of a batch, before this runs.
            let (w, h, r) = choice.timing
            let shown = screen.output.info?.currentMode.map {
                $0.width == w && $0.height == h && (r == 0 || abs($0.refreshMilliHz - r) < 1000)
            }
            guard shown == true || nowNs >= deadlineNs else { return nil }
            return finish(.success(screen.currentMode))
        }
    }

    private func finish(_ result: Result<ScreenMode?, ScreenConfigurationError>) -> @MainActor () -> Void {
        let completion = completion
        return { completion(result) }
    }

    func abandon(_ reason: String) -> @MainActor () -> Void {
        if case let .answer(_, _, configuration, _) = step { configuration.release() }
        return finish(
            .failure(
                ScreenConfigurationError(
                    kind: .shutDown, description: "the mode \(asked) for screen \(screen.name) was not set: \(reason)"))
        )
    }
}

/// A read of a panel's power, or a switch. It is sent once no other power
/// exchange of the application is out for the same screen.
@MainActor
final class PowerRequest: ScreenRequest {
    private weak var app: Application?
    let screen: Screen
    private let wanted: ScreenPowerState?
    private var exchange: PowerExchange?
    private(set) var isStarted = false
    private let refusal: ScreenConfigurationError?
    private let completion: @MainActor (Result<ScreenPowerState?, ScreenConfigurationError>) -> Void

    /// A request `ScreenRequests` starts when the screen is free.
    init(
        app: Application, screen: Screen, wanted: ScreenPowerState?, refusal: ScreenConfigurationError?,
        completion: @escaping @MainActor (Result<ScreenPowerState?, ScreenConfigurationError>) -> Void
    ) {
        self.app = app
        self.screen = screen
        self.wanted = wanted
        self.refusal = refusal
        self.completion = completion
    }

    /// Sends the read or the switch (nothing when refused; a read of a
    /// screen that is gone sends nothing and answers nil).
    func start(nowNs: UInt64) {
        isStarted = true
        guard refusal == nil, screen.isConnected else { return }
        exchange = app?.compositor.powerManager?.exchange(wanted?.powerState, on: screen.output, nowNs: nowNs)
    }

    /// A request waiting for its turn needs no wake-up: it starts when the
    /// one before it ends.
    var deadlineNs: UInt64 { isStarted ? exchange?.deadlineNs ?? 0 : .max }

    func advance(nowNs: UInt64) -> (@MainActor () -> Void)? {
        guard isStarted else { return nil }
        let completion = completion
        guard let exchange else {
            let error =
                refusal
                ?? ScreenConfigurationError(
                    kind: .unsupported,
                    description: Application.missingProtocolSentence(
                        "switch a panel on or off", "zwlr_output_power_manager_v1"))
            // A read without the protocol is no error: the power is unknown.
            if wanted == nil && refusal == nil { return { completion(.success(nil)) } }
            return { completion(.failure(error)) }
        }
        guard let answer = exchange.advance(nowNs: nowNs) else { return nil }
        let (screen, wanted) = (screen, self.wanted)
        return { [weak app] in
            guard let wanted else {
                // A read: nil when the compositor answered `failed` or nothing.
                var state: ScreenPowerState?
                if case let .done(read) = answer { state = ScreenPowerState(read) }
                app?.recordPower(state, of: screen)
                return completion(.success(state))
            }
            switch answer {
            case .done:
                app?.recordPower(wanted, of: screen)
                completion(.success(wanted))
            case .failed:
                completion(
                    .failure(
                        ScreenConfigurationError(
                            kind: .refused,
                            description:
                                "the compositor answered `failed` to switching screen \(screen.name) \(wanted): it has no power control for this output, another client holds it, or the output went away"
                        )))
            case let .unconfirmed(last):
                screen.powerState = last.map(ScreenPowerState.init)
                completion(
                    .failure(
                        ScreenConfigurationError(
                            kind: .unconfirmed,
                            description:
                                "the compositor did not switch screen \(screen.name) \(wanted): it still reports \(last.map(\.rawValue) ?? "nothing") after 2 s (it could not commit the change; sway 1.7 cannot switch headless or nested outputs off, its log says \"Failed to commit output\")"
                        )))
            }
        }
    }

    func abandon(_ reason: String) -> @MainActor () -> Void {
        exchange?.release()
        let (completion, screen) = (completion, screen)
        let what = wanted.map { "switched \($0)" } ?? "read"
        return {
            completion(
                .failure(
                    ScreenConfigurationError(
                        kind: .shutDown, description: "the power of screen \(screen.name) was not \(what): \(reason)")))
        }
    }
}
