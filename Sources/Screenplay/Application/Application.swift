import Dispatch
import EventLoop
import Foundation
import Rendering
import WaylandClient

/// The app's link to the display server, as `UIApplication` and
/// `UIScreen.screens` together: it owns the Wayland connection (on the main
/// thread), turns outputs into `Screen`s, and connects a scene on every
/// external screen while an accessory registration is presented.
///
/// Its jobs are types of their own: a batch of events (`EventBatch`),
/// screens (`ScreenRegistry`; a screen's mode and power are `Screen`'s),
/// registrations and scenes (ApplicationScenes, with `AccessoryScenes`
/// deciding), losing and regaining the compositor (`CompositorLoss`, with
/// `CompositorLink` owning each connection), the shared EGL context and GL
/// objects (`SharedGraphics`).
@MainActor
public final class Application {
    /// The options the application was made with.
    public let options: ApplicationOptions
    /// The connection now and what lives on it; replaced when
    /// `CompositorLossBehavior.reconnect` reconnects.
    private(set) var link: CompositorLink
    var connection: Connection { link.connection }
    var compositor: Compositor { link.compositor }
    /// The EGL context and GL objects made on this connection.
    var graphics: SharedGraphics { link.graphics }
    /// The screens, their heads and classification.
    let screenRegistry: ScreenRegistry
    /// Every scene now: accessory scenes and windows.
    public internal(set) var scenes: [Scene] = []
    /// The registrations and which screen has the presented one's scene.
    let accessories = AccessoryScenes()
    var renderScheduled = false
    var isShutDown = false
    /// Makes windows and external scenes on the connection.
    let sceneMaker = SceneMaker()
    let memoryTrimmer = MemoryTrimmer()
    let refusalRestarts = RefusalRestarts()
    /// True while the events of a batch are handled (`EventBatch`):
    /// registration changes made by handlers then wait for its end.
    var isHandlingBatch = false
    /// A reconcile asked for while a batch was being handled.
    var needsReconcile = false
    /// Mode and power requests in flight (`Screen.setMode`, `setPower`).
    let screenRequests = ScreenRequests()

    /// Hears a new screen, after classification.
    public var onScreenConnect: ((Screen) -> Void)?
    /// Hears a changed screen (mode, scale, transform, position).
    public var onScreenChange: ((Screen) -> Void)?
    /// Hears a removed screen, after its scenes were torn down.
    public var onScreenDisconnect: ((Screen) -> Void)?
    /// Hears every failure that did not stop the app (a scene that could
    /// not be shown, a draw that threw).
    public var onSceneError: ((any Error) -> Void)?
    /// Hears the compositor going away; every scene is already torn down
    /// and every screen reported gone. What follows is
    /// `ApplicationOptions.whenCompositorGoes`.
    public var onConnectionLost: ((ApplicationError) -> Void)?
    /// Hears a reconnect (`CompositorLossBehavior.reconnect`): the new
    /// compositor's screens are known, and the windows that were open
    /// are opening again with their delegates.
    public var onReconnect: (() -> Void)?
    /// True while `run()` drains the main queue.
    var isRunning = false
    /// Why `run()` is to throw once it returns.
    var runError: ApplicationError?

    /// Connects and waits until every output is described.
    public init(options: ApplicationOptions = .init()) throws(ApplicationError) {
        self.options = options
        screenRegistry = ScreenRegistry(options: options)
        link = try CompositorLink(options)
        try attach(link)
    }

    /// Takes `link` (at start, and again after a reconnect) and starts it.
    /// Whatever EGL context the app had current (its own window's) is
    /// current again after each batch.
    func attach(_ link: CompositorLink) throws(ApplicationError) {
        self.link = link
        try link.start(
            isCurrent: { [weak self] in self?.link === $0 },
            batch: { [weak self] in
                guard let self else { return }
                CurrentContext.preserving { EventBatch(app: self).handle() }
            },
            lost: { [weak self] error in
                guard let self else { return }
                CurrentContext.preserving { CompositorLoss(app: self).handle(error) }
            })
    }

    func report(_ error: any Error) {
        if let onSceneError {
            onSceneError(error)
        } else {
            try? FileHandle.standardError.write(contentsOf: Data("screenplay: \(error)\n".utf8))
        }
    }

    /// Brings up EGL/GLES on this connection and describes the driver, so
    /// `doctor` can say whether rendering will work, and how, before any
    /// scene exists.
    public func graphicsDriver() throws -> GraphicsDriver {
        try CurrentContext.preserving { GraphicsDriver(try graphics.context()) }
    }

    /// Blocks until the compositor has answered everything sent so far,
    /// dispatching its events on this thread: a nested pump, so it is for
    /// tests only (package access) and never called from a handler or a
    /// draw; apps get every answer as an event in a later batch.
    package func roundtrip() throws {
        do { try connection.roundtrip() } catch {
            throw ApplicationError(kind: .connectionLost, description: error.description)
        }
        connection.dispatchPending()
    }
}
