import EventLoop
import WaylandClient

// A screen's mode and its panel's power are the screen's, as
// `UIScreen.currentMode` is: the calls live here, and the application that
// found the screen carries them out on its connection.
//
// Mode changes, power changes and power reads are requests: each call sends
// what it can and returns at once; the compositor's answers arrive as
// events, and the result is handed over after a later batch (never inside
// the call, so a call from a handler or a draw is safe).
extension Screen {
    /// Sets the screen's mode as `request` asks, through a test-then-apply
    /// output configuration carrying the current serial (a configuration
    /// cancelled because the state changed meanwhile is retried once with
    /// the newer state). A mode the screen does not list is refused, unless
    /// it lists none (virtual outputs): then it is tried as a custom mode.
    ///
    /// Returns at once. `completion` runs after a later batch, once the
    /// compositor reported the new mode on the screen (or 2 s after it
    /// confirmed the apply), with the screen's mode then; by that time
    /// the scenes on the screen have re-keyed their display links to its
    /// refresh. Every refusal arrives there too, as a
    /// `ScreenConfigurationError`.
    public func setMode(
        _ request: ScreenModeRequest,
        completion: @escaping @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void
    ) {
        changeMode(asked: request.description, completion) {
            ScreenRequestCheck.choice(for: request, on: self, canSetModes: $0)
        }
    }

    /// Sets the screen's mode as `request` asks and returns its mode once
    /// the compositor reported it (see `setMode(_:completion:)`).
    @discardableResult
    public func setMode(_ request: ScreenModeRequest) async throws(ScreenConfigurationError) -> ScreenMode? {
        try await withCheckedContinuation { continuation in
            setMode(request) { continuation.resume(returning: $0) }
        }.get()
    }

    /// Sets exactly `mode` (as read from `currentMode` earlier, to restore
    /// it): the listed mode of that timing, else a custom mode. Returns at
    /// once; `completion` runs as for `setMode(_:completion:)` with a
    /// `ScreenModeRequest`.
    public func setMode(
        _ mode: ScreenMode, completion: @escaping @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void
    ) {
        changeMode(asked: mode.description, completion) {
            ScreenRequestCheck.choice(for: mode, on: self, canSetModes: $0)
        }
    }

    /// Hands a mode change to the application's requests: `check` picks the
    /// head mode, or the refusal, knowing whether the compositor lets
    /// clients change modes at all.
    private func changeMode(
        asked: String, _ completion: @escaping @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void,
        check: (Bool) -> (HeadModeChoice, refusal: ScreenConfigurationError?)
    ) {
        guard let app = application else { return answerOrphaned(completion) }
        let (choice, refusal) = check(app.compositor.outputManager != nil)
        app.screenRequests.add(
            ModeChange(app: app, screen: self, choice: choice, asked: asked, refusal: refusal, completion: completion),
            app)
    }

    /// Sets exactly `mode` and returns the screen's mode once the
    /// compositor reported it (see `setMode(_:completion:)`).
    @discardableResult
    public func setMode(_ mode: ScreenMode) async throws(ScreenConfigurationError) -> ScreenMode? {
        try await withCheckedContinuation { continuation in
            setMode(mode) { continuation.resume(returning: $0) }
        }.get()
    }

    /// Reads the panel's power (a short-lived `zwlr_output_power_v1`, so
    /// other tools such as wlopm keep working). Returns at once;
    /// `completion` runs after a later batch with the state, nil without
    /// the protocol, for a screen that is gone, or when the compositor
    /// answered `failed` or nothing within 1 s. A state that differs from
    /// `powerState` is recorded there first, and scenes on the screen and
    /// `Application.onScreenChange` hear of it.
    public func readPowerState(completion: @escaping @MainActor (ScreenPowerState?) -> Void) {
        guard let app = application else {
            return answerOrphaned { (_: Result<Void, ScreenConfigurationError>) in completion(nil) }
        }
        app.screenRequests.add(
            PowerRequest(app: app, screen: self, wanted: nil, refusal: nil) { result in
                completion((try? result.get()) ?? nil)
            }, app)
    }

    /// Reads the panel's power and returns it once the compositor answered
    /// (see `readPowerState(completion:)`).
    @discardableResult
    public func readPowerState() async -> ScreenPowerState? {
        await withCheckedContinuation { continuation in
            readPowerState { continuation.resume(returning: $0) }
        }
    }

    /// Switches the panel on or off. Returns at once; `completion` runs
    /// after a later batch, once the compositor confirmed the new state
    /// (or answered `failed`, or 2 s passed without it). Scenes on a panel
    /// that is off ask for no frames and report no stall; they draw their
    /// current content when it comes back on.
    public func setPower(
        _ state: ScreenPowerState, completion: @escaping @MainActor (Result<Void, ScreenConfigurationError>) -> Void
    ) {
        guard let app = application else { return answerOrphaned(completion) }
        let refusal = ScreenRequestCheck.powerRefusal(self, canControlPower: app.compositor.powerManager != nil)
        app.screenRequests.add(
            PowerRequest(app: app, screen: self, wanted: state, refusal: refusal) { result in
                completion(result.map { _ in () })
            }, app)
    }

    /// Switches the panel on or off and returns once the compositor
    /// confirmed it (see `setPower(_:completion:)`).
    public func setPower(_ state: ScreenPowerState) async throws(ScreenConfigurationError) {
        try await withCheckedContinuation { continuation in
            setPower(state) { continuation.resume(returning: $0) }
        }.get()
    }

    /// A power read or switch answered: record the state, and tell the
    /// screen's scenes and `Application.onScreenChange` when it changed.
    func recordPower(_ state: ScreenPowerState?) {
        guard state != powerState else { return }
        powerState = state
        guard let application else { return }
        for scene in application.scenes where scene.screen === self { scene.screenPowerChanged() }
        application.onScreenChange?(self)
    }

    /// The application that found this screen is gone, so nothing can be
    /// sent: the refusal still comes after the call, as every answer does.
    private func answerOrphaned<T>(
        _ completion: @escaping @MainActor (Result<T, ScreenConfigurationError>) -> Void
    ) {
        let error = ScreenConfigurationError(
            kind: .shutDown,
            description:
                "screen \(name): the Application that found it was released, so there is no connection to ask the compositor on; keep the Application alive while you use its screens"
        )
        MainEventLoop.shared.soon { completion(.failure(error)) }
    }
}
