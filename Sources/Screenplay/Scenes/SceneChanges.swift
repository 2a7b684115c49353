/// What changed around a scene, applied to it and told to its delegate:
/// what its listeners recorded in a batch (closed, entered outputs, a new
/// fractional scale, presentation feedback, the newest configure) and a
/// change of the screen it is on. Each change that alters what the scene
/// shows asks for a full redraw; drawing is the scene's next, separate step.
@MainActor
final class SceneChanges {
    /// What applying a batch left: the scene stays, or its owner closes it
    /// once it has walked all its scenes (nothing here reaches back into
    /// the owner's collection).
    enum BatchResult { case open, close }

    private unowned let scene: Scene
    /// The buffer size and scale the delegate last heard of (`sceneDidResize`).
    private var reportedGeometry: [Int] = []

    init(scene: Scene) { self.scene = scene }

    /// Applies what the scene's listeners recorded in the batch, in order:
    /// `closed` (the scene goes), where the surface is now, a new
    /// fractional scale, presentation feedback, then the newest configure.
    /// Runs after each batch, outside libwayland's dispatch.
    func applyPendingState() -> BatchResult {
        guard !scene.isTornDown else { return .open }
        // Since wlroots 0.19 a lost output closes its layer surfaces: the
        // scene goes, the registration stays, and a returning screen gets a
        // new scene.
        let recorded = scene.sceneSurface.takeRecorded()
        if recorded.closed { return .close }
        if recorded.outputsChanged { surfaceOutputsChanged() }
        if recorded.scaleChanged, !scene.isTornDown {
            scene.sceneSurface.applyFractionalScale()
            reportResizeIfChanged()
            scene.setNeedsDisplay()
        }
        for (event, token) in scene.feedback.takeRecorded() where !scene.isTornDown {
            if case let .presented(_, _, _, _, syncOutput?) = event { follow(screenID: syncOutput) }
            scene.feedback.resolve(event, token: token)
        }
        scene.feedback.resolveRecordedCallbacks()
        if let fullscreen = recorded.fullscreen { scene.isFullscreen = fullscreen }
        if let configure = recorded.configure, !scene.isTornDown { return apply(configure) }
        return .open
    }

    /// The screen the scene is on changed mode, scale or transform.
    func screenChanged(_ screen: Screen) {
        guard !scene.isTornDown, let scaleChanged = scene.binding.screenChanged(screen) else { return }
        if scaleChanged { reportResizeIfChanged() }
        scene.delegate.sceneDidUpdateScreen(scene)
        scene.setNeedsDisplay()
    }

    private func apply(_ configure: (serial: UInt32, width: Int, height: Int)) -> BatchResult {
        let host = scene.host
        let screen = scene.screen
        let fallback = (screen?.info.logicalWidth ?? 1280, screen?.info.logicalHeight ?? 720)
        let changed: Bool
        do {
            changed = try scene.sceneSurface.apply(
                configure, fallbackSize: fallback, graphics: scene.graphicsWhenDrawn())
        } catch {
            host.report(
                SceneError(
                    screen: screen?.name, reason: "cannot create the EGL surface: \(error)",
                    fix: "check the Mesa EGL installation (`screenplay doctor`)"))
            return .close
        }
        if scene.isFullscreenFallback, configure.width > 0, configure.height > 0, let screen,
            let warning = scene.warnings.fallbackConfigured(
                width: configure.width, height: configure.height, screen: screen,
                others: host.screens.filter { $0 !== screen }.map(\.name))
        {
            host.report(warning)
        }
        reportResizeIfChanged()
        if !scene.isConnected {
            scene.isConnected = true
            scene.delegate.scene(scene, willConnectTo: scene.session)
        }
        // A delegate may have closed the scene, its registration or the
        // whole application from the calls above.
        guard !scene.isTornDown else { return .open }
        // Sway answers commits with repeated configures of the same size;
        // redraw only when something changed.
        if changed || !scene.frameRequest.hasDrawn {
            scene.setNeedsDisplay()
        } else {
            // An ack takes effect with the next commit. Without one, a
            // compositor that waits for it (cage) never shows the window.
            scene.surface.commit()
        }
        return .open
    }

    private func reportResizeIfChanged() {
        let geometry = [scene.pixelSize.width, scene.pixelSize.height, scene.sceneSurface.bufferScale]
        defer { reportedGeometry = geometry }
        if scene.isConnected && !reportedGeometry.isEmpty && geometry != reportedGeometry {
            scene.delegate.sceneDidResize(scene)
        }
    }

    private func surfaceOutputsChanged() {
        let entered = scene.surface.enteredOutputs
        if scene.isFullscreenFallback, let screen = scene.screen, let last = entered.last, last != screen.id,
            let warning = scene.warnings.fallbackEntered(
                scene.host.screens.first { $0.id == last }?.name ?? "another output", screen: screen)
        {
            scene.host.report(warning)
        }
        // Windows follow the output they entered last; external scenes stay
        // keyed to the screen they were made for.
        guard let last = entered.last else { return }
        follow(screenID: last)
    }

    /// A window follows the output it entered, or its frames were synced to.
    private func follow(screenID: UInt32) {
        guard scene.binding.follow(screenID, among: scene.host.screens) else { return }
        scene.delegate.sceneDidUpdateScreen(scene)
        scene.setNeedsDisplay()
    }
}
