import EventLoop
import Rendering
import WaylandClient

/// Losing the compositor: every scene is torn down and every screen
/// reported gone, then the app stops or tries the socket again until a
/// compositor answers, and reopens its windows there.
@MainActor
struct CompositorLoss {
    unowned let app: Application

    /// The compositor went away: every scene is torn down, every screen
    /// reported gone, then the app stops or reconnects
    /// (`ApplicationOptions.whenCompositorGoes`).
    func handle(_ error: ConnectionError) {
        let appError = ApplicationError(
            kind: error.kind == .protocolError ? .protocolError : .connectionLost, description: error.description)
        // Windows come back after a reconnect with the same session and delegate.
        let windows = app.scenes.filter { $0.session.role == .application }.map { ($0.session, $0.delegate) }
        app.screenRequests.abandonAll("the connection to the compositor was lost (\(error.description))")
        app.tearDownEverything()
        forgetScreens()
        app.onConnectionLost?(appError)
        guard !app.isShutDown else { return }
        switch app.options.whenCompositorGoes {
        case .stop:
            if app.isRunning {
                app.runError = appError
                app.shutdown()
            }
        case let .reconnect(interval):
            app.link.release()
            // Every surface, decoder and the EGL display went at once.
            app.memoryTrimmer.schedule()
            reconnect(every: interval, windows: windows)
        }
    }

    /// The screens went with the connection: each is reported gone, and
    /// registrations hear they have nothing to show on.
    private func forgetScreens() {
        for screen in app.screenRegistry.removeAll() { app.onScreenDisconnect?(screen) }
        app.accessories.setAvailable(false)
    }

    /// Tries the same socket every `interval` until a compositor answers,
    /// then shows the registrations on its screens and reopens the windows.
    private func reconnect(every interval: Duration, windows: [(SceneSession, any SceneDelegate)]) {
        let app: Application = app
        CompositorLink.retry(every: interval, app.options, isOver: { [weak app] in app?.isShutDown ?? true }) {
            [weak app] link in
            guard let app else { return true }
            do {
                try app.attach(link)
            } catch {
                return false
            }
            for (session, delegate) in windows { CompositorLoss(app: app).reopen(session, delegate: delegate) }
            app.onReconnect?()
            app.requestReconcile()
            return true
        }
    }

    private func reopen(_ session: SceneSession, delegate: any SceneDelegate) {
        do {
            app.scenes.append(try app.sceneMaker.scene(session, delegate: delegate, screen: nil, app: app))
            app.connection.flush()
        } catch {
            app.report(error)
        }
    }
}

extension Application {
    /// Every scene torn down and every registration's scene forgotten: the
    /// connection is going or gone.
    func tearDownEverything() {
        for scene in scenes { scene.tearDown() }
        scenes.removeAll()
        accessories.forgetAll()
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
