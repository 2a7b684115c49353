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
            releaseLink()
            // Every surface, decoder and the EGL display went at once.
            memoryTrimmer.schedule()
            reconnect(every: interval, windows: windows, attempt: 0)
        }
    }

    /// The screens went with the connection: each is reported gone, and
    /// registrations hear they have nothing to show on.
    private func forgetScreens() {
        let gone = screens
        screens.removeAll()
        for screen in gone {
            screen.isConnected = false
            onScreenDisconnect?(screen)
        }
        accessories.setAvailable(false)
    }

    /// Frees what belonged to the lost connection: GL objects and the EGL
    /// display made on it, every proxy, the connection itself.
    private func releaseLink() {
        graphics.destroy()
        compositor.destroy()
        connection.disconnect()
    }

    /// Tries the same socket every `interval` (a timer of the main event
    /// loop, no busy loop) until a compositor answers, then shows the
    /// registrations on its screens and reopens the windows.
    private func reconnect(every interval: Duration, windows: [(SceneSession, any SceneDelegate)], attempt: Int) {
        let delayNs = UInt64(
            clamping: interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        MainEventLoop.shared.after(ns: delayNs) { [weak self] in
            guard let self, !self.isShutDown else { return }
            guard let (connection, compositor) = try? Self.link(self.options) else {
                return self.reconnect(every: interval, windows: windows, attempt: attempt + 1)
            }
            self.use(connection, compositor)
            do {
                try self.attachLink()
            } catch {
                // It went again during the set-up: start over.
                compositor.destroy()
                connection.disconnect()
                return self.reconnect(every: interval, windows: windows, attempt: attempt + 1)
            }
            for (session, delegate) in windows { self.reopen(session, delegate: delegate) }
            self.onReconnect?()
            self.requestReconcile()
        }
    }

    private func tearDownEverything() {
        for scene in scenes { scene.tearDown() }
        scenes.removeAll()
        accessories.forgetAll()
    }

    private func reopen(_ session: SceneSession, delegate: any SceneDelegate) {
        do {
            scenes.append(try makeScene(session, delegate: delegate, screen: nil))
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
            releaseLink()
        }
    }
}
