import Rendering

extension Application {
    /// Registers content for external screens; the most recent registration
    /// is presented while it is enabled.
    @discardableResult
    public func registerSceneAccessory(_ accessory: SceneAccessory) -> SceneAccessoryRegistration {
        let registration = accessories.register(accessory, for: self)
        registrationsChanged()
        return registration
    }

    /// Stops offering the content; its scenes are disconnected and the
    /// registration before it (if any) takes over.
    public func unregisterSceneAccessory(_ registration: SceneAccessoryRegistration) {
        accessories.unregister(registration)
        registrationsChanged()
    }

    /// The registration presented now.
    public var presentedRegistration: SceneAccessoryRegistration? { accessories.presented }

    func registrationsChanged() {
        accessories.takeEnabledStates()
        requestReconcile()
    }

    /// Asks `ApplicationOptions.screenFilter` again for every screen: call it
    /// when what the filter depends on changed (a reloaded configuration),
    /// so screens it now takes get scenes and screens it drops lose theirs.
    public func reevaluateScreens() { requestReconcile() }

    /// Opens an ordinary interactive window (role `application`).
    ///
    /// The first window the process opens asks for the focus with the
    /// `xdg_activation_v1` token a desktop's launcher passes in
    /// `XDG_ACTIVATION_TOKEN` (KWin's focus stealing prevention may otherwise
    /// leave it behind the window that had the focus); the variable is then
    /// removed from the environment, so programs the app starts do not reuse it.
    public func openWindow(configuration: SceneConfiguration) throws -> Scene {
        let scene = try sceneMaker.window(configuration, app: self)
        scenes.append(scene)
        connection.flush()
        return scene
    }

    /// Closes a window or scene the app made, or one the compositor closed.
    public func close(_ scene: Scene) {
        accessories.forget(scene)
        CurrentContext.preserving { remove(scene) }
    }

    func remove(_ scene: Scene) {
        scenes.removeAll { $0 === scene }
        scene.tearDown()
        connection.flush()
        memoryTrimmer.schedule()
    }
}

/// What a scene needs from its owner, and no more.
extension Application: SceneHost {
    func sceneNeedsRender() { EventBatch.schedule(for: self) }

    func flush() { connection.flush() }

    func sceneFreedMemory() { memoryTrimmer.schedule() }
}
