/// What a `Scene` needs from its owner (the `Application`) while it lives,
/// and no more: the screens it may name, a batch handled soon, somewhere to
/// report, the shared graphics, a flush, and a word when it freed a lot.
/// Events flow one way: the owner hands each batch to its scenes, and a
/// scene that is to close says so in its answer (`SceneChanges.BatchResult`)
/// rather than reaching back into the owner while it walks its scenes.
@MainActor
protocol SceneHost: AnyObject {
    /// Every screen now (a window follows the one it entered; a warning
    /// names the others).
    var screens: [Screen] { get }
    /// The scene has something to draw or apply: handle a batch soon.
    func sceneNeedsRender()
    /// A failure that does not stop the app.
    func report(_ error: any Error)
    /// The one EGL context and the GL objects every scene shares.
    var graphics: SharedGraphics { get }
    /// Sends what was asked (an idle inhibitor made outside a frame).
    func flush()
    /// The scene freed a lot at once (a video's decoder and its render
    /// context): hand the freed memory back to the system soon.
    func sceneFreedMemory()
}
