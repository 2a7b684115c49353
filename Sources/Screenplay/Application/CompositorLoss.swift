import Dispatch
import EventLoop
import Rendering
import WaylandClient

/// Losing the compositor: every scene is torn down and every screen
/// reported gone, then the app stops or tries the socket again until a
/// compositor answers, and reopens its windows there.
@MainActor
struct CompositorLoss {
    unowned let app: Application

    /// The connection failed: every scene is torn down, every screen
    /// reported gone. A message libwayland refused (the compositor most
    /// likely still there) is followed by one reconnect at once, whatever
    /// `ApplicationOptions.whenCompositorGoes` says, up to three times a
    /// minute; any other loss, or a refusal beyond that, goes to
    /// `onConnectionLost` and the app stops or reconnects as the option says.
    func handle(_ error: ConnectionError) {
        if error.kind == .refusedMessage {
            let nowNs = DispatchTime.now().uptimeNanoseconds
            if app.refusalRestarts.allowsAnother(atNs: nowNs) { return restart(after: error) }
        }
        let windows = forgetEverything(error.description)
        lost(
            Self.applicationError(error, then: "this is the \(RefusalRestarts.limit + 1)th time within a minute"),
            windows: windows)
    }

    /// `then`: why a refused message ends as a lost connection.
    private static func applicationError(_ error: ConnectionError, then: String = "") -> ApplicationError {
        switch error.kind {
        case .protocolError: return ApplicationError(kind: .protocolError, description: error.description)
        case .refusedMessage:
            return ApplicationError(
                kind: .messageRefused,
                description:
                    "\(error.description); \(then), so it is treated as a lost connection (fix: report it to the compositor's project with the output of `WAYLAND_DEBUG=1`)"
            )
        case .noCompositor, .lost: return ApplicationError(kind: .connectionLost, description: error.description)
        }
    }

    /// Tears down what lived on the connection; the windows that were open,
    /// to reopen after a reconnect with the same sessions and delegates.
    private func forgetEverything(_ reason: String) -> [(SceneSession, any SceneDelegate)] {
        let windows = app.scenes.filter { $0.session.role == .application }.map { ($0.session, $0.delegate) }
        app.screenRequests.abandonAll("the connection to the compositor was lost (\(reason))")
        app.tearDownEverything()
        for screen in app.screenRegistry.removeAll() { app.onScreenDisconnect?(screen) }
        // Registrations hear they have nothing to show on.
        app.accessories.setAvailable(false)
        return windows
    }

    /// The app hears the loss, then stops or keeps trying the socket.
    private func lost(_ appError: ApplicationError, windows: [(SceneSession, any SceneDelegate)]) {
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

    /// The compositor is most likely still there: one attempt on the next
    /// turn of the loop, and only if nothing answers is it a lost compositor.
    /// The app hears the refusal as a scene error, not as a loss: an app
    /// that ends on `onConnectionLost` (`present` without `--reconnect`)
    /// must not end over a message its compositor sent by mistake.
    private func restart(after error: ConnectionError) {
        let windows = forgetEverything(error.description)
        app.report(
            ApplicationError(
                kind: .messageRefused,
                description:
                    "\(error.description); reconnecting at once and reopening every scene and window (at most \(RefusalRestarts.limit) times a minute)"
            ))
        guard !app.isShutDown else { return }
        app.link.release()
        app.memoryTrimmer.schedule()
        MainEventLoop.shared.after(ns: 0) { [weak app] in
            guard let app, !app.isShutDown else { return }
            let gone = Self.applicationError(error, then: "then no compositor answered on the socket")
            guard let link = try? CompositorLink(app.options) else {
                return CompositorLoss(app: app).lost(gone, windows: windows)
            }
            if !CompositorLoss(app: app).adopt(link, windows: windows) {
                link.release()
                CompositorLoss(app: app).lost(gone, windows: windows)
            }
        }
    }

    /// Tries the same socket every `interval` until a compositor answers,
    /// then shows the registrations on its screens and reopens the windows.
    private func reconnect(every interval: Duration, windows: [(SceneSession, any SceneDelegate)]) {
        let app: Application = app
        CompositorLink.retry(every: interval, app.options, isOver: { [weak app] in app?.isShutDown ?? true }) {
            [weak app] link in
            guard let app else { return true }
            return CompositorLoss(app: app).adopt(link, windows: windows)
        }
    }

    /// Starts `link` as the app's connection and reopens the windows there;
    /// false when it failed while starting.
    private func adopt(_ link: CompositorLink, windows: [(SceneSession, any SceneDelegate)]) -> Bool {
        do {
            try app.attach(link)
        } catch {
            return false
        }
        for (session, delegate) in windows { reopen(session, delegate: delegate) }
        app.onReconnect?()
        app.requestReconcile()
        return true
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

/// How often a connection dropped over a refused message is reopened at
/// once: a compositor that keeps sending such messages must end in the
/// app's `whenCompositorGoes`, not in a reconnect loop.
@MainActor
final class RefusalRestarts {
    static let limit = 3
    private static let windowNs: UInt64 = 60_000_000_000
    private var times: [UInt64] = []

    /// Counts a refusal at `now`; true while the last minute holds at most `limit`.
    func allowsAnother(atNs now: UInt64) -> Bool {
        times.removeAll { now &- $0 >= Self.windowNs }
        times.append(now)
        return times.count <= Self.limit
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
