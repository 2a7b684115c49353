import EventLoop
import Rendering
import WaylandClient

extension Application {
    /// The compositor went away: every scene is torn down, every screen
    /// reported gone, then the app stops or reconnects
    /// (`ApplicationOptions.whenCompositorGoes`).
    func lost(_ error: ConnectionError) {
        let appError = ApplicationError(
            kind: error.kind == .protocolError ? .protocolError : .connectionLost, description: error.description)
        // Windows come back after a reconnect with the same session and delegate.
        let windows = scenes.filter { $0.session.role == .application }.map { ($0.session, $0.delegate) }
        screenRequests.abandonAll("the connection to the compositor was lost (\(error.description))")
        tearDownEverything()
        forgetScreens()
        onConnectionLost?(appError)
        guard !isShutDown else { return }
        switch options.whenCompositorGoes {
        case .stop:
            if isRunning {
                runError = appError
                shutdown()
            }
        case let .reconnect(interval):
            link.release()
            // Every surface, decoder and the EGL display went at once.
            memoryTrimmer.schedule()
            reconnect(every: interval, windows: windows)
        }
    }

    /// The screens went with the connection: each is reported gone, and
    /// registrations hear they have nothing to show on.
    private func forgetScreens() {
        for screen in screenRegistry.removeAll() { onScreenDisconnect?(screen) }
        accessories.setAvailable(false)
    }

    /// Tries the same socket every `interval` until a compositor answers,
    /// then shows the registrations on its screens and reopens the windows.
    private func reconnect(every interval: Duration, windows: [(SceneSession, any SceneDelegate)]) {
        CompositorLink.retry(every: interval, options, isOver: { [weak self] in self?.isShutDown ?? true }) {
            [weak self] link in
            guard let self else { return true }
            do {
                try self.attach(link)
            } catch {
                return false
            }
            for (session, delegate) in windows { self.reopen(session, delegate: delegate) }
            self.onReconnect?()
            self.requestReconcile()
            return true
        }
    }

    private func tearDownEverything() {
        for scene in scenes { scene.tearDown() }
        scenes.removeAll()
        accessories.forgetAll()
    }

    private func reopen(_ session: SceneSession, delegate: any SceneDelegate) {
        do {
            scenes.append(try sceneMaker.scene(session, delegate: delegate, screen: nil, app: self))
            connection.flush()
        } catch {
            report(error)
        }
    }

    /// Tears every scene down and closes the connection (a `run()` in
    /// progress then returns). Idempotent.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        screenRequests.abandonAll("the application shut down")
        CurrentContext.preserving {
            tearDownEverything()
            link.release()
        }
    }
}
