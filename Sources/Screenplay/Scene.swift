import EventLoop
import Rendering
import WaylandClient

/// Content on one screen: an external scene (layer surface spanning the
/// output) or an application window. It ties together its parts, each with
/// one job: the surface and role (`SceneSurface`), pacing on the display
/// link (`ScenePacing`), presentation feedback and shown frames
/// (`SceneFeedback`) and warnings (`SceneWarnings`); and it tears them all
/// down through one path.
@MainActor
public final class Scene {
    /// The scene's role, configuration and user info.
    public let session: SceneSession
    /// The delegate that draws the scene, made by the configuration's factory.
    public let delegate: any SceneDelegate
    /// The scene's frame clock, keyed to the refresh of the screen it is on (`CADisplayLink`).
    public let displayLink = DisplayLink()
    /// The screen the scene was made for (external scenes) or is on now.
    public private(set) var screen: Screen?
    /// Size in surface units (logical pixels) from the last configure.
    public var size: (width: Int, height: Int) { sceneSurface.size }
    /// Size of the buffer drawn into, in device pixels.
    public var pixelSize: (width: Int, height: Int) { sceneSurface.pixelSize }
    /// Device pixels per logical pixel of the buffer (UIKit's
    /// `contentScaleFactor`): the fractional scale where the compositor
    /// offers `wp_fractional_scale_v1` (1.5 is 180/120), else the screen's
    /// integer scale.
    public var contentScale: Double { sceneSurface.contentScale }
    /// True from `scene(_:willConnectTo:)` until the scene is torn down.
    public private(set) var isConnected = false
    /// True when an external scene is a fullscreen window because the
    /// compositor has no layer shell.
    public var isFullscreenFallback: Bool { sceneSurface.isFullscreenFallback }
    /// What the scene shows, in words (a file name, an item): messages
    /// about it name this, such as the one for a draw that never returns
    /// (`DrawWatch`). Nil names the scene configuration.
    public var contentDescription: String? {
        // Set during a draw (a delegate naming what it is about to draw),
        // the watched draw takes the new name.
        didSet {
            if isDrawing { drawWatch?.describe(contentDescription ?? session.configuration.name ?? "scene") }
        }
    }
    /// How many frames reached the compositor's presentation feedback.
    public var presentedFrames: Int { feedback.presentedFrames }
    /// How many times the delegate was asked to draw: once per change for
    /// static content, once per frame while the display link runs.
    public private(set) var drawCount = 0
    /// Outputs the surface is on now (screens' ids).
    public var enteredScreenIDs: [UInt32] { surface.enteredOutputs }

    unowned let host: any SceneHost
    let sceneSurface: SceneSurface
    var surface: Surface { sceneSurface.surface }
    let feedback: SceneFeedback
    private let pacing: ScenePacing
    private var warnings = SceneWarnings()
    private let drawWatch: DrawWatch?
    /// Whether the compositor reports panel power (see `init`).
    private let canReadPanelPower: Bool
    private var isDrawing = false
    private var needsDisplay = false
    private var hasDrawn = false
    private var isTornDown = false
    /// Waiting for the next frame drawn (SceneCapture.swift).
    var captureHandlers: [@MainActor (Result<CapturedFrame, SceneError>) -> Void] = []
    /// The buffer size and scale the delegate last heard of (`sceneDidResize`).
    private var reportedGeometry: [Int] = []

    /// Makes the surface and role on `compositor`; `readsPanelPower` where
    /// the compositor reports panel power (a silent link then counts as a
    /// stall only once a read found the panel not off).
    init(
        host: any SceneHost, compositor: Compositor, session: SceneSession, delegate: any SceneDelegate,
        screen: Screen?, layer: Layer, readsPanelPower: Bool, drawWatch: DrawWatch?
    ) throws(SceneError) {
        self.host = host
        self.session = session
        self.delegate = delegate
        self.screen = screen
        self.drawWatch = drawWatch
        canReadPanelPower = readsPanelPower
        let needsBatch = { [unowned host] in host.sceneNeedsRender() }
        sceneSurface = try SceneSurface(
            compositor: compositor, role: session.role, title: session.configuration.name, screen: screen,
            layer: layer, needsBatch: needsBatch)
        pacing = ScenePacing(displayLink: displayLink, needsBatch: needsBatch)
        feedback = SceneFeedback(displayLink: displayLink, needsBatch: needsBatch)
        displayLink.onResume = { [weak self] in self?.setNeedsDisplay() }
        displayLink.readsPanelPower = screen != nil && readsPanelPower
        displayLink.preferredFramesPerSecond = session.configuration.preferredFramesPerSecond
        if let screen { key(to: screen) }
        surface.commit()
    }

    /// Whether the compositor's last configure of this window said
    /// fullscreen: after `setFullscreen(on:)`, false means it refused (or
    /// has not answered yet). Always false for external scenes' layer surfaces.
    public private(set) var isFullscreen = false

    /// Asks the compositor to show this window fullscreen on `screen` (nil:
    /// leave fullscreen). For application windows; external scenes span
    /// their screen already. Compositors may ignore the output hint.
    public func setFullscreen(on screen: Screen?) {
        guard session.role == .application, !isTornDown else { return }
        sceneSurface.setFullscreen(on: screen)
        host.sceneNeedsRender()
    }

    /// Draw once more at the next opportunity (static content).
    public func setNeedsDisplay() {
        guard !isTornDown else { return }
        needsDisplay = true
        host.sceneNeedsRender()
    }

    // MARK: after each batch

    /// What applying a batch left: the scene stays, or its owner closes it
    /// once it has walked all its scenes (nothing here reaches back into
    /// the owner's collection).
    enum BatchResult { case open, close }

    /// Applies what this scene's listeners recorded in the batch, in
    /// order: `closed` (the scene goes), where the surface is now, a new
    /// fractional scale, presentation feedback, then the newest configure.
    /// Runs after each batch, outside libwayland's dispatch; drawing is the
    /// next, separate step (`drawIfNeeded`).
    func applyPendingState() -> BatchResult {
        guard !isTornDown else { return .open }
        // Since wlroots 0.19 a lost output closes its layer surfaces: the
        // scene goes, the registration stays, and a returning screen gets a
        // new scene.
        let recorded = sceneSurface.takeRecorded()
        if recorded.closed { return .close }
        if recorded.outputsChanged { surfaceOutputsChanged() }
        if recorded.scaleChanged, !isTornDown {
            sceneSurface.applyFractionalScale()
            reportResizeIfChanged()
            setNeedsDisplay()
        }
        for (event, token) in feedback.takeRecorded() where !isTornDown {
            if case let .presented(_, _, _, _, syncOutput?) = event { follow(syncOutput: syncOutput) }
            feedback.resolve(event, token: token)
        }
        feedback.resolveRecordedCallbacks()
        if let fullscreen = recorded.fullscreen { isFullscreen = fullscreen }
        if let configure = recorded.configure, !isTornDown { return apply(configure) }
        return .open
    }

    private func apply(_ configure: (serial: UInt32, width: Int, height: Int)) -> BatchResult {
        let fallback = (screen?.info.logicalWidth ?? 1280, screen?.info.logicalHeight ?? 720)
        let changed: Bool
        do {
            changed = try sceneSurface.apply(configure, fallbackSize: fallback) { try host.graphics.context() }
        } catch {
            host.report(
                SceneError(
                    screen: screen?.name, reason: "cannot create the EGL surface: \(error)",
                    fix: "check the Mesa EGL installation (`screenplay doctor`)"))
            return .close
        }
        if isFullscreenFallback, configure.width > 0, configure.height > 0, let screen,
            let warning = warnings.fallbackConfigured(
                width: configure.width, height: configure.height, screen: screen,
                others: host.screens.filter { $0 !== screen }.map(\.name))
        {
            host.report(warning)
        }
        reportResizeIfChanged()
        if !isConnected {
            isConnected = true
            delegate.scene(self, willConnectTo: session)
        }
        // A delegate may have closed the scene, its registration or the
        // whole application from the calls above.
        guard !isTornDown else { return .open }
        // Sway answers commits with repeated configures of the same size;
        // redraw only when something changed.
        if changed || !hasDrawn {
            setNeedsDisplay()
        } else {
            // An ack takes effect with the next commit. Without one, a
            // compositor that waits for it (cage) never shows the window.
            surface.commit()
        }
        return .open
    }

    private func reportResizeIfChanged() {
        let geometry = [pixelSize.width, pixelSize.height, sceneSurface.bufferScale]
        defer { reportedGeometry = geometry }
        if isConnected && !reportedGeometry.isEmpty && geometry != reportedGeometry { delegate.sceneDidResize(self) }
    }

    private func surfaceOutputsChanged() {
        if isFullscreenFallback, let screen, let last = surface.enteredOutputs.last, last != screen.id,
            let warning = warnings.fallbackEntered(
                host.screens.first { $0.id == last }?.name ?? "another output", screen: screen)
        {
            host.report(warning)
        }
        // Windows follow the output they entered last; external scenes stay
        // keyed to the screen they were made for.
        guard session.role == .application, let last = surface.enteredOutputs.last else { return }
        move(to: last)
    }

    /// Feedback names the output a frame was synced to; a window follows it.
    private func follow(syncOutput: UInt32) {
        guard session.role == .application else { return }
        move(to: syncOutput)
    }

    private func move(to screenID: UInt32) {
        guard let screen = host.screens.first(where: { $0.id == screenID }), screen !== self.screen else { return }
        self.screen = screen
        key(to: screen)
        delegate.sceneDidUpdateScreen(self)
        setNeedsDisplay()
    }

    /// Takes `screen`'s scale, refresh and panel power; returns whether the
    /// integer scale changed.
    @discardableResult
    private func key(to screen: Screen) -> Bool {
        let scaleChanged = sceneSurface.useScale(of: screen)
        displayLink.key(toModeRefreshMilliHz: screen.refreshMilliHz)
        displayLink.isPanelOff = screen.powerState == .off
        displayLink.readsPanelPower = canReadPanelPower
        return scaleChanged
    }

    /// The screen this scene is on changed mode, scale or transform.
    func screenChanged(_ screen: Screen) {
        guard !isTornDown, screen === self.screen else { return }
        if key(to: screen) {
            let spans = session.role == .externalDisplayNonInteractive && screen.info.logicalWidth > 0
            sceneSurface.scaleChanged(spanning: spans ? (screen.info.logicalWidth, screen.info.logicalHeight) : nil)
            reportResizeIfChanged()
        }
        delegate.sceneDidUpdateScreen(self)
        setNeedsDisplay()
    }

    /// The panel was switched on or off (`Application.setPower`, or a read
    /// of its power): off asks for no frames; on draws the current content.
    func screenPowerChanged() {
        guard !isTornDown else { return }
        displayLink.isPanelOff = screen?.powerState == .off
        if !displayLink.isPanelOff { setNeedsDisplay() }
    }

    /// The screen whose panel power the display link wants read now (a
    /// silence that may be a panel switched off by another program), and
    /// marks the read as started; nil when no read is wanted.
    func screenNeedingPowerRead(nowNs: UInt64) -> Screen? {
        guard !isTornDown, let screen, displayLink.needsPanelPowerRead(nowNs: nowNs) else { return nil }
        displayLink.panelPowerReadStarted(nowNs: nowNs)
        return screen
    }

    // MARK: drawing

    /// Draws if a frame is due or content changed: the step after
    /// `applyPendingState` for every scene of the batch.
    func drawIfNeeded() {
        guard !isTornDown, isConnected, let window = sceneSurface.window else { return }
        // A panel switched off shows nothing: ask for no frames until it is back.
        if displayLink.isPanelOff {
            pacing.dropDueRefresh()
            return
        }
        var draw = needsDisplay
        let now = monotonicNanoseconds()
        if pacing.takeDueRefresh(nowNs: now) {
            // Asked every refresh, even when a redraw is due anyway: video
            // hands its repeats back to mpv here.
            if delegate.sceneShouldDrawFrame(self) || needsDisplay { draw = true } else { pacing.hold(nowNs: now) }
        }
        guard draw else { return }
        needsDisplay = false
        hasDrawn = true
        pacing.willDraw(on: surface, nowNs: now) { [weak self] shownNs in
            self?.feedback.pacedFrameShown(atNs: shownNs)
        }
        let feedbackToken = feedback.requestFeedback(on: surface, nowNs: now)
        drawWatch?.begin(
            screen: screen?.name ?? "window", content: contentDescription ?? session.configuration.name ?? "scene")
        isDrawing = true
        defer {
            isDrawing = false
            drawWatch?.end()
        }
        do {
            try window.makeCurrent()
            let context = DrawingContext(target: window, resources: try host.graphics.resources())
            drawCount += 1
            do {
                try delegate.draw(self, in: context)
            } catch {
                host.report(error)
            }
            feedback.trackShown(feedbackToken: feedbackToken, surface: surface)
            deliverCaptures(from: window)
            try window.present()
            for action in context.afterPresent { action() }
            if !displayLink.isPaused,
                let warning = warnings.frameTook(
                    monotonicNanoseconds() - now, refreshSeconds: displayLink.duration, screen: screen?.name)
            {
                host.report(warning)
            }
        } catch {
            host.report(
                SceneError(
                    screen: screen?.name, reason: "cannot present a frame: \(error)", fix: "see `screenplay doctor`"))
        }
    }

    // MARK: teardown

    /// The one teardown path: closed, output removed, registration changed,
    /// app shutdown.
    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        displayLink.isPaused = true
        pacing.stop()
        let wasConnected = isConnected
        isConnected = false
        sceneSurface.destroy()
        feedback.reset()
        abandonCaptures()
        if wasConnected { delegate.sceneDidDisconnect(self) }
    }
}
