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

    /// Makes the set of accessory scenes match (presented registration ×
    /// target screens): scenes that no longer belong go first, then the
    /// target screens without one get theirs.
    func reconcile() {
        guard !isShutDown else { return }
        let targets = externalScreens
        for scene in accessories.takeStaleScenes(targets: targets) { remove(scene) }
        if let presented = accessories.presented, compositor.connection.failure == nil {
            for screen in accessories.screensWithoutScene(targets) {
                if let scene = connectScene(for: presented, on: screen) { accessories.add(scene, on: screen) }
            }
        }
        accessories.setAvailable(!targets.isEmpty)
        connection.flush()
    }

    private func connectScene(for registration: SceneAccessoryRegistration, on screen: Screen) -> Scene? {
        if compositor.layerShell == nil && !warnedFallback {
            warnedFallback = true
            let why =
                options.maxLayerShellVersion == 0
                ? "layer shell is turned off (fullscreen window asked for)"
                : "the compositor has no zwlr_layer_shell_v1 (GNOME has none)"
            report(
                SceneError(
                    screen: nil, reason: "warning: \(why), so external scenes are fullscreen windows instead",
                    fix:
                        "they may take keyboard focus, show in task switchers, and the compositor may place them on another screen than asked"
                ))
        }
        let configuration = registration.accessory.sceneConfiguration
        let session = SceneSession(
            role: .externalDisplayNonInteractive, configuration: configuration,
            userInfo: registration.accessory.userInfo, identifier: "\(configuration.name ?? "scene")@\(screen.name)")
        do {
            let scene = try makeScene(session, delegate: configuration.delegateFactory(), screen: screen)
            scenes.append(scene)
            return scene
        } catch {
            report(error)
            return nil
        }
    }

    /// A scene on this connection: an external one on `screen`, or a window.
    func makeScene(_ session: SceneSession, delegate: any SceneDelegate, screen: Screen?) throws(SceneError) -> Scene {
        try Scene(
            host: self, compositor: compositor, session: session, delegate: delegate, screen: screen,
            layer: screen == nil ? .top : session.configuration.layer.layer, readsPanelPower: canControlPower,
            drawWatch: options.drawWatch)
    }

    /// Opens an ordinary interactive window (role `application`).
    ///
    /// The first window the process opens asks for the focus with the
    /// `xdg_activation_v1` token a desktop's launcher passes in
    /// `XDG_ACTIVATION_TOKEN` (KWin's focus stealing prevention may otherwise
    /// leave it behind the window that had the focus); the variable is then
    /// removed from the environment, so programs the app starts do not reuse it.
    public func openWindow(configuration: SceneConfiguration) throws -> Scene {
        let session = SceneSession(
            role: .application, configuration: configuration, userInfo: [:],
            identifier: "\(configuration.name ?? "window")")
        let scene = try makeScene(session, delegate: configuration.delegateFactory(), screen: nil)
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
    func sceneNeedsRender() { scheduleRender() }

    func flush() { connection.flush() }

    func sceneFreedMemory() { memoryTrimmer.schedule() }
}
