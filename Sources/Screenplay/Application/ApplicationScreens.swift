import WaylandClient

extension Application {
    /// Complete screens, in announcement order.
    public var screens: [Screen] { screenRegistry.screens }
    /// Screens that get external-display scenes.
    public var externalScreens: [Screen] { screenRegistry.targets }
    /// The screen that keeps the app's controls: the built-in panel, else
    /// the main screen of the classification.
    public var mainScreen: Screen? { screens.first { !$0.classification.isExternal } ?? screens.first }

    /// Why `screen` does or does not get an external scene, in words.
    public func targetReason(_ screen: Screen) -> (isTarget: Bool, reason: String) {
        screenRegistry.targetReason(screen)
    }

    func outputReady(_ output: Output) {
        guard let screen = screenRegistry.add(output, heads: compositor.outputManager) else { return }
        onScreenConnect?(screen)
        requestReconcile()
    }

    func outputChanged(_ output: Output) {
        guard let screen = screenRegistry.update(output) else { return }
        for scene in scenes { scene.changes.screenChanged(screen) }
        onScreenChange?(screen)
        requestReconcile()
    }

    func outputRemoved(_ output: Output) {
        guard let screen = screenRegistry.remove(output) else { return }
        if let scene = accessories.takeScene(onScreen: screen.id) { remove(scene) }
        for scene in scenes { scene.surface.forget(outputNamed: screen.id) }
        onScreenDisconnect?(screen)
        requestReconcile()
    }

    /// The output manager published a new state: give each screen its head
    /// and drop scenes on heads now disabled.
    func headsChanged() {
        let changed = screenRegistry.takeHeads(from: compositor.outputManager)
        guard !changed.isEmpty else { return }
        for screen in changed { onScreenChange?(screen) }
        requestReconcile()
    }

    /// Makes `screen` the only built-in screen and every other one external,
    /// overriding the connector rules, `SCREENPLAY_BUILTIN` and the options:
    /// for when the guess was wrong ("which screen is the projector?").
    /// Accessory scenes move at once.
    public func markAsOnlyBuiltIn(_ screen: Screen) {
        screenRegistry.makeOnlyBuiltIn(screen)
        requestReconcile()
    }

    func globalRemoved(_ info: GlobalInfo) {
        guard info.interface == "zwlr_layer_shell_v1" else { return }
        report(
            SceneError(
                screen: nil,
                reason:
                    "the compositor withdrew zwlr_layer_shell_v1; shown scenes stay until their screens go, new screens get none",
                fix: "restart the compositor's layer-shell support or restart Screenplay"))
    }
}
