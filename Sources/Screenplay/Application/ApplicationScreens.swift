import WaylandClient

extension Application {
    /// Screens that get external-display scenes.
    public var externalScreens: [Screen] { screens.filter(isTarget) }
    /// The screen that keeps the app's controls: the built-in panel, else
    /// the main screen of the classification.
    public var mainScreen: Screen? { screens.first { !$0.classification.isExternal } ?? screens.first }

    func screen(withID id: UInt32) -> Screen? { screens.first { $0.id == id } }

    private func isTarget(_ screen: Screen) -> Bool {
        guard screen.isConnected else { return false }
        return targetReason(screen).isTarget
    }

    /// Why `screen` does or does not get an external scene, in words.
    public func targetReason(_ screen: Screen) -> (isTarget: Bool, reason: String) {
        if !screen.isEnabled {
            return (false, "the compositor has this output disabled (its output-management head says so)")
        }
        let (admitted, reason) = options.targets.admits(screen.classification)
        guard admitted else { return (false, reason) }
        if let filter = options.screenFilter, !filter(screen) {
            return (false, "excluded by --output")
        }
        return (true, reason)
    }

    func outputReady(_ output: Output) {
        guard let info = output.info else { return }
        let screen = Screen(output: output, info: info, classification: .init(kind: .external, reason: ""))
        screen.head = head(for: screen)
        screens.append(screen)
        reclassify()
        onScreenConnect?(screen)
        requestReconcile()
    }

    func outputChanged(_ output: Output) {
        guard let screen = screens.first(where: { $0.output === output }), let info = output.info else { return }
        screen.update(info)
        reclassify()
        for scene in scenes { scene.screenChanged(screen) }
        onScreenChange?(screen)
        requestReconcile()
    }

    func outputRemoved(_ output: Output) {
        guard let index = screens.firstIndex(where: { $0.output === output }) else { return }
        let screen = screens.remove(at: index)
        screen.isConnected = false
        if let scene = accessories.takeScene(onScreen: screen.id) { remove(scene) }
        for scene in scenes { scene.surface.forget(outputNamed: screen.id) }
        reclassify()
        onScreenDisconnect?(screen)
        requestReconcile()
    }

    /// Makes `screen` the only built-in screen and every other one external,
    /// overriding the connector rules, `SCREENPLAY_BUILTIN` and the options:
    /// for when the guess was wrong ("which screen is the projector?").
    /// Accessory scenes move at once.
    public func markAsOnlyBuiltIn(_ screen: Screen) {
        classifier = ScreenClassifier(builtInPatterns: [screen.name])
        reclassify()
        requestReconcile()
    }

    func reclassify() {
        // Patterns see the same make, model and serial as `ScreenPattern`
        // matching a `Screen` does (`--output`, `ctl`): the head's, where the
        // compositor offers output management; wl_output has no serial.
        let kinds = classifier.classify(
            screens.map { screen in
                var info = screen.info
                info.make = screen.make
                info.model = screen.model
                info.serial = screen.serial
                return info
            })
        for (screen, kind) in zip(screens, kinds) { screen.classification = kind }
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
