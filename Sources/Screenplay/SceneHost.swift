import Rendering
import WaylandClient

/// What a `Scene` needs from its owner (the `Application`): the compositor
/// to make its surface on, a way to be drawn soon, somewhere to report, the
/// shared graphics, the screens it may name, and the panel power. Events
/// flow one way: the owner hands each batch to its scenes; a scene asks
/// only through this.
@MainActor
protocol SceneHost: AnyObject {
    /// The compositor the scene's surface and role are made on.
    var compositor: Compositor { get }
    /// Every screen now (to name the others in a report).
    var screens: [Screen] { get }
    func screen(withID id: UInt32) -> Screen?
    /// The scene has something to draw or apply: handle a batch soon.
    func sceneNeedsRender()
    /// A failure that does not stop the app.
    func report(_ error: any Error)
    /// The compositor closed the scene or it could not be shown: remove it
    /// (called after the batch, never inside a listener).
    func sceneDidClose(_ scene: Scene)
    /// The one EGL context and the GL objects every scene shares.
    func graphics() throws -> GraphicsContext
    func resources() throws -> GraphicsResources
    /// Sends what was asked (an idle inhibitor made outside a frame).
    func flush()
    /// Panel power, where the compositor offers it.
    var canControlPower: Bool { get }
    /// Reads the panel's power; the answer comes after a later batch.
    func powerState(of screen: Screen, completion: @escaping @MainActor (ScreenPowerState?) -> Void)
    /// The scene freed a lot at once (a video's decoder and its render
    /// context): hand the freed memory back to the system soon.
    func sceneFreedMemory()
    /// Brackets every draw for a watching thread, if the app has one.
    var drawWatch: DrawWatch? { get }
}
