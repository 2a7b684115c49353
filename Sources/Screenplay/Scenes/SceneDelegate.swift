/// Hears a scene's life cycle and draws it, as `UIWindowSceneDelegate`.
@MainActor
public protocol SceneDelegate: AnyObject {
    /// The scene is configured and about to show its first frame. For an
    /// accessory scene, `session.userInfo` carries the registration's user info.
    func scene(_ scene: Scene, willConnectTo session: SceneSession)
    /// The scene is gone (screen removed, registration disabled or removed,
    /// compositor closed it, app teardown). Nothing of it may be used after.
    func sceneDidDisconnect(_ scene: Scene)
    /// Draw a frame: once after `setNeedsDisplay()`, or every frame of the
    /// display link while it runs. Errors are reported through
    /// `Application.onSceneError` and the frame is shown as drawn so far.
    func draw(_ scene: Scene, in context: DrawingContext) throws
    /// The scene moved to another screen or its screen changed mode, scale
    /// or transform; the display link has been re-keyed already.
    func sceneDidUpdateScreen(_ scene: Scene)
    /// The scene's size changed after it connected (a new mode, scale, or
    /// window size); the next draw uses the new `pixelSize`.
    func sceneDidResize(_ scene: Scene)
    /// A key was pressed or released while this scene (an application
    /// window) had keyboard focus. External scenes never get keys.
    func scene(_ scene: Scene, didReceiveKey event: KeyEvent)
    /// The pointer entered, left, moved over, clicked or scrolled this
    /// application window. External scenes never get pointer events.
    func scene(_ scene: Scene, didReceivePointer event: PointerEvent)
    /// A finger touched, moved on, or left this application window, or the
    /// compositor cancelled the touch. External scenes never get touches.
    func scene(_ scene: Scene, didReceiveTouch event: TouchEvent)
    /// The running display link reached a refresh: return false when this
    /// refresh has nothing new to show. The picture on screen stays,
    /// nothing is committed or drawn, and the scene asks again at the next
    /// refresh. Video holds a 30 fps frame for two refreshes of a 60 Hz
    /// output this way. The default is true (draw every refresh).
    func sceneShouldDrawFrame(_ scene: Scene) -> Bool
    /// Asked before every draw, whatever asked for it (the first configure,
    /// a new size, `setNeedsDisplay()`, the display link): return false while
    /// what the scene should show is not ready yet and is expected soon (a
    /// page still rendering). Nothing is drawn or committed, the picture on
    /// screen stays (before the first frame: none), and what was asked for
    /// is kept for the next draw: call `setNeedsDisplay()` when the content
    /// is ready, or when waiting longer is worse than showing a placeholder.
    /// The default is true.
    func sceneIsReadyToDraw(_ scene: Scene) -> Bool
}

extension SceneDelegate {
    /// Does nothing: implement it to react to the screen changing (mode, scale, transform).
    public func sceneDidUpdateScreen(_ scene: Scene) {}
    /// Does nothing: implement it to release what the scene used.
    public func sceneDidDisconnect(_ scene: Scene) {}
    /// Does nothing: the next `draw` gets the new size anyway.
    public func sceneDidResize(_ scene: Scene) {}
    /// Draws every refresh the display link asks for.
    public func sceneShouldDrawFrame(_ scene: Scene) -> Bool { true }
    /// Always ready.
    public func sceneIsReadyToDraw(_ scene: Scene) -> Bool { true }
}
