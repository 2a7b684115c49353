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
/// Its jobs live in one file each: the batch of events (ApplicationBatch),
/// screens (ApplicationScreens), registrations and scenes
/// (ApplicationScenes, with `AccessoryScenes` deciding), losing and
/// regaining the compositor (ApplicationConnection, with `CompositorLink`
/// owning each connection), the shared EGL context and GL objects
/// (`SharedGraphics`).
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
    /// True while the events of a batch are handled (`handleBatch`):
    /// registration changes made by handlers then wait for its end.
    var isHandlingBatch = false
    /// A reconcile asked for while a batch was being handled.
    var needsReconcile = false
    /// Mode and power requests in flight (ScreenRequests.swift).
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
                CurrentContext.preserving { self.handleBatch() }
            },
            lost: { [weak self] error in
                guard let self else { return }
                CurrentContext.preserving { self.lost(error) }
            })
    }

    /// Where the connection went, for messages.
    public var socketDescription: String { connection.socketDescription }
    /// Whether external scenes use wlr-layer-shell.
    public var hasLayerShell: Bool { compositor.layerShell != nil }

    func report(_ error: any Error) {
        if let onSceneError {
            onSceneError(error)
        } else {
            try? FileHandle.standardError.write(contentsOf: Data("screenplay: \(error)\n".utf8))
        }
    }

    /// Brings up EGL/GLES on this connection and describes the driver, so
    /// `doctor` can say whether rendering will work before any scene exists.
    public func graphicsDescription() throws -> String {
        let context = try CurrentContext.preserving { try graphics.context() }
        return
            "\(context.renderer), \(context.version), GLES \(context.glesMajorVersion), \(context.isOpaqueConfig ? "opaque" : "alpha") config"
    }

    /// Whether scenes can repaint only what changed. With a GPU that needs
    /// two EGL extensions of the driver on this connection:
    /// EGL_EXT_buffer_age (the back buffer's content is known, so only
    /// changed rectangles are drawn) and EGL_KHR_swap_buffers_with_damage
    /// (the compositor hears which rectangles changed). Where GL renders in
    /// software (Mesa's llvmpipe, which offers neither), `sharedMemory` is
    /// true: each scene draws into a framebuffer that keeps the last frame
    /// and presents through its own wl_shm buffers, copying into each only
    /// the rows that changed since it was last shown and telling the
    /// compositor exactly those. Without any of these a scene that changes
    /// in part repaints its own copy of its picture and copies all of it
    /// into each new buffer. Brings up EGL like ``graphicsDescription()``.
    public func partialRedrawSupport() throws -> (bufferAge: Bool, swapWithDamage: Bool, sharedMemory: Bool) {
        let context = try CurrentContext.preserving { try graphics.context() }
        return (
            context.offersBufferAge, context.offersSwapWithDamage, WindowSurface.presentsThroughShm(with: context)
        )
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
