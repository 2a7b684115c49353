import EventLoop
import Rendering
import WaylandClient

/// Content on one screen: an external scene (layer surface spanning the
/// output) or an application window. Owns everything its surface needs and
/// tears it all down through one path.
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
    public private(set) var size: (width: Int, height: Int) = (0, 0)
    /// Size of the buffer drawn into, in device pixels.
    public private(set) var pixelSize: (width: Int, height: Int) = (0, 0)
    /// Device pixels per logical pixel of the buffer (UIKit's
    /// `contentScaleFactor`): the fractional scale where the compositor
    /// offers `wp_fractional_scale_v1` (1.5 is 180/120), else the screen's
    /// integer scale.
    public var contentScale: Double {
        if let scale120 = fractional?.scale120 { return Double(scale120) / 120 }
        return Double(bufferScale)
    }
    /// True from `scene(_:willConnectTo:)` until the scene is torn down.
    public private(set) var isConnected = false
    /// What the scene shows, in words (a file name, an item): messages
    /// about it name this, such as the one for a draw that never returns
    /// (`DrawWatch`). Nil names the scene configuration.
    public var contentDescription: String? {
        // Set during a draw (a delegate naming what it is about to draw),
        // the watched draw takes the new name.
        didSet {
            if isDrawing { host.drawWatch?.describe(contentDescription ?? session.configuration.name ?? "scene") }
        }
    }
    private var isDrawing = false
    /// How many frames reached the compositor's presentation feedback.
    public private(set) var presentedFrames = 0
    /// How many times the delegate was asked to draw: once per change for
    /// static content, once per frame while the display link runs.
    public private(set) var drawCount = 0

    unowned let host: any SceneHost
    let surface: Surface
    private var layerSurface: LayerSurface?
    private var toplevel: Toplevel?
    private var window: WindowSurface?
    private var needsDisplay = false
    /// True when an external scene is a fullscreen window because the
    /// compositor has no layer shell.
    public private(set) var isFullscreenFallback = false
    private var reportedMisplacement = false
    /// What this scene's listeners recorded since the last batch was
    /// handled (`applyPendingState`): enter or leave, `closed`, a new
    /// fractional scale, presentation feedback.
    private var outputsChanged = false
    private var closedByCompositor = false
    private var fractionalScaleDidChange = false
    private var pendingFeedback: [(event: PresentationEvent, token: UInt64)] = []
    private var hasDrawn = false
    private var skipGeneration = 0
    private var frameDue = false
    private var isTornDown = false
    private var bufferScale = 1
    private var fractional: FractionalScale?
    /// Handlers for the next frame shown (FrameShown.swift).
    var shownWatchers: [@MainActor (FrameShown) -> Void] = []
    private var pacedShownTracker: FrameShownTracker?
    /// Trackers waiting for the presentation feedback of their frame, by
    /// its request's token, and frame callbacks recorded for trackers (both
    /// resolved after the batch, in applyPendingState).
    private var shownByFeedbackToken: [UInt64: FrameShownTracker] = [:]
    private var shownCallbacks: [(tracker: FrameShownTracker, ns: UInt64)] = []
    /// Made while `inhibitsIdle` is true (see IdleInhibition.swift).
    var idleInhibitor: IdleInhibitor?
    /// Sizes the layer-shell configure left to us (0 = choose) resolve to this.
    private let fallbackSize: () -> (Int, Int)

    init(
        host: any SceneHost, session: SceneSession, delegate: any SceneDelegate, screen: Screen?,
        layer: Layer
    ) throws(SceneError) {
        self.host = host
        self.session = session
        self.delegate = delegate
        self.screen = screen
        fallbackSize = { [weak screen] in (screen?.info.logicalWidth ?? 1280, screen?.info.logicalHeight ?? 720) }
        do {
            surface = try Surface(compositor: host.compositor)
        } catch {
            throw SceneError(
                screen: screen?.name, reason: error.description, fix: "use a compositor with wl_compositor")
        }
        displayLink.onResume = { [weak self] in self?.linkResumed() }
        displayLink.readsPanelPower = screen != nil && host.canControlPower
        displayLink.preferredFramesPerSecond = session.configuration.preferredFramesPerSecond
        // enter/leave only record: where the surface is gets judged once
        // the batch is in (applyPendingState), so a compositor that sends
        // enter(A), leave(A), enter(B) together is not taken to put us on A.
        surface.onOutputsChanged = { [weak self] in self?.outputsChanged = true }
        fractional = FractionalScale(surface: surface)
        fractional?.onChange = { [weak self] _ in self?.recordFractionalScaleChange() }
        switch session.role {
        case .externalDisplayNonInteractive where host.compositor.layerShell == nil:
            // No layer shell (GNOME): a fullscreen toplevel on the screen's
            // output. It may take focus and the compositor may place it
            // elsewhere; Application warns once and watches enter events.
            do {
                let toplevel = try Toplevel(
                    surface: surface, title: session.configuration.name ?? "Screenplay", appID: "screenplay-scene")
                toplevel.onConfigure = { [weak self] serial, w, h, _ in
                    self?.configured(serial: serial, width: w, height: h)
                }
                toplevel.onClose = { [weak self] in self?.recordClosed() }
                toplevel.setFullscreen(on: screen?.output)
                self.toplevel = toplevel
                isFullscreenFallback = true
            } catch {
                surface.destroy()
                throw SceneError(
                    screen: screen?.name, reason: "the compositor offers neither zwlr_layer_shell_v1 nor xdg_wm_base",
                    fix:
                        "run on a compositor with wlr-layer-shell (sway, Hyprland, KDE, wayfire, labwc, river) or xdg-shell"
                )
            }
            surface.setEmptyInputRegion()
        case .externalDisplayNonInteractive:
            do {
                let layerSurface = try LayerSurface(
                    surface: surface, output: screen?.output, layer: layer, namespace: "screenplay")
                layerSurface.onConfigure = { [weak self] serial, w, h in
                    self?.configured(serial: serial, width: w, height: h)
                }
                layerSurface.onClosed = { [weak self] in self?.recordClosed() }
                self.layerSurface = layerSurface
            } catch {
                surface.destroy()
                throw SceneError(
                    screen: screen?.name, reason: error.description,
                    fix:
                        "run on a compositor with wlr-layer-shell (sway, Hyprland, KDE, wayfire, labwc, river), or use --preview"
                )
            }
            surface.setEmptyInputRegion()
        case .application:
            do {
                let toplevel = try Toplevel(
                    surface: surface, title: session.configuration.name ?? "Screenplay", appID: "screenplay")
                toplevel.onConfigure = { [weak self] serial, w, h, _ in
                    self?.configured(serial: serial, width: w, height: h)
                }
                toplevel.onClose = { [weak self] in self?.recordClosed() }
                self.toplevel = toplevel
            } catch {
                surface.destroy()
                throw SceneError(screen: nil, reason: error.description, fix: "use a compositor with xdg-shell")
            }
        }
        if let screen { applyScreen(screen) }
        surface.commit()
    }

    /// Asks the compositor to show this window fullscreen on `screen` (nil:
    /// leave fullscreen). For application windows; external scenes span
    /// their screen already. Compositors may ignore the output hint.
    public func setFullscreen(on screen: Screen?) {
        guard session.role == .application, let toplevel, !isTornDown else { return }
        if let screen { toplevel.setFullscreen(on: screen.output) } else { toplevel.unsetFullscreen() }
        surface.commit()
        host.sceneNeedsRender()
    }

    /// Draw once more at the next opportunity (static content).
    public func setNeedsDisplay() {
        guard !isTornDown else { return }
        needsDisplay = true
        host.sceneNeedsRender()
    }

    // MARK: configure and draw

    /// The newest configure not yet applied. Several can arrive in one batch
    /// (a compositor configuring again before the first ack); layer shell and
    /// xdg-shell both let a client answer only the last.
    private var pendingConfigure: (serial: UInt32, width: Int, height: Int)?

    private func configured(serial: UInt32, width: Int, height: Int) {
        guard !isTornDown else { return }
        // Applied after the batch (applyPendingState), so a superseded size
        // reaches neither EGL, nor the delegate, nor an ack.
        pendingConfigure = (serial, width, height)
    }

    private func applyPendingConfigure() {
        guard !isTornDown, let pending = pendingConfigure else { return }
        pendingConfigure = nil
        let serial = pending.serial
        var (w, h) = (pending.width, pending.height)
        // A 0 size means "you choose": a scene spans its screen.
        if w <= 0 || h <= 0 {
            let fallback = fallbackSize()
            if w <= 0 { w = fallback.0 }
            if h <= 0 { h = fallback.1 }
        }
        layerSurface?.ackConfigure(serial)
        toplevel?.ackConfigure(serial)
        if isFullscreenFallback, pending.width > 0, pending.height > 0 { checkFallbackSize(w, h) }
        let changed = (w, h) != size
        size = (w, h)
        let pixels = pixelSize(forLogical: size)
        do {
            if let window {
                if changed || pixels != pixelSize { try window.resize(width: pixels.0, height: pixels.1) }
            } else {
                window = try WindowSurface(
                    context: host.graphics(), waylandSurface: surface.rawProxy,
                    width: pixels.0, height: pixels.1)
            }
        } catch {
            host.report(
                SceneError(
                    screen: screen?.name, reason: "cannot create the EGL surface: \(error)",
                    fix: "check the Mesa EGL installation (`screenplay doctor`)"))
            host.sceneDidClose(self)
            return
        }
        pixelSize = pixels
        surface.setOpaque(width: w, height: h)
        if fractional?.scale120 != nil { surface.setDestinationSize(width: w, height: h) }
        reportResizeIfChanged()
        if !isConnected {
            isConnected = true
            delegate.scene(self, willConnectTo: session)
        }
        // A delegate may have closed the scene, its registration or the
        // whole application from the calls above.
        guard !isTornDown else { return }
        // Sway answers commits with repeated configures of the same size;
        // redraw only when something changed.
        if changed || !hasDrawn {
            needsDisplay = true
            host.sceneNeedsRender()
        } else {
            // An ack takes effect with the next commit. Without one, a
            // compositor that waits for it (cage) never shows the window.
            surface.commit()
        }
    }

    private var reportedGeometry: [Int] = []
    private var slowFrames = 0
    private var warnedSlow = false

    /// Content that takes longer to draw than a refresh cannot keep up:
    /// say so once, with the numbers, instead of silently dropping frames.
    private func noteFrameTime(_ ns: UInt64) {
        let refresh = displayLink.duration * 1e9
        slowFrames = Double(ns) > refresh * 1.5 ? slowFrames + 1 : 0
        guard slowFrames >= 5, !warnedSlow else { return }
        warnedSlow = true
        host.report(
            SceneError(
                screen: screen?.name,
                reason: String(
                    format: "warning: each frame takes %.1f ms to draw, longer than the %.1f ms refresh (%.0f Hz)",
                    Double(ns) / 1e6, refresh / 1e6, 1e9 / refresh),
                fix: "the content will run at a lower frame rate; simplify the shader or set --fps"))
    }

    private func reportResizeIfChanged() {
        let geometry = [pixelSize.width, pixelSize.height, bufferScale]
        defer { reportedGeometry = geometry }
        if isConnected && !reportedGeometry.isEmpty && geometry != reportedGeometry { delegate.sceneDidResize(self) }
    }

    /// Device pixels for a logical size: the fractional scale through a
    /// viewport where the compositor offers one, else the integer scale.
    private func pixelSize(forLogical logical: (width: Int, height: Int)) -> (width: Int, height: Int) {
        if let scale120 = fractional?.scale120 {
            return FractionalScaleMath.bufferSize(
                logicalWidth: logical.width, logicalHeight: logical.height, scale120: scale120)
        }
        return (logical.width * bufferScale, logical.height * bufferScale)
    }

    private func fractionalScaleChanged() {
        guard !isTornDown else { return }
        surface.setBufferScale(1)
        guard size.width > 0 else { return }
        let pixels = pixelSize(forLogical: size)
        try? window?.resize(width: pixels.0, height: pixels.1)
        pixelSize = pixels
        surface.setDestinationSize(width: size.width, height: size.height)
        reportResizeIfChanged()
        setNeedsDisplay()
    }

    private func applyScreen(_ screen: Screen) {
        bufferScale = max(1, screen.scale)
        // With a fractional scale the buffer is shown through the viewport
        // at scale 1; otherwise the compositor is told the integer scale.
        surface.setBufferScale(fractional?.scale120 != nil ? 1 : bufferScale)
        displayLink.key(toModeRefreshMilliHz: screen.refreshMilliHz)
        displayLink.isPanelOff = screen.powerState == .off
        displayLink.readsPanelPower = host.canControlPower
    }

    /// The screen this scene is on changed mode, scale or transform.
    func screenChanged(_ screen: Screen) {
        guard !isTornDown, screen === self.screen else { return }
        let oldScale = bufferScale
        applyScreen(screen)
        if oldScale != bufferScale, size.width > 0 {
            // An external scene spans its output: take the new logical size
            // now, as the compositor may send no configure when only the
            // scale changed. A window keeps its size until configured.
            if session.role == .externalDisplayNonInteractive, screen.info.logicalWidth > 0 {
                size = (screen.info.logicalWidth, screen.info.logicalHeight)
            }
            let pixels = pixelSize(forLogical: size)
            try? window?.resize(width: pixels.0, height: pixels.1)
            pixelSize = pixels
            reportResizeIfChanged()
        }
        delegate.sceneDidUpdateScreen(self)
        setNeedsDisplay()
    }

    /// A fullscreen window should be exactly its screen's logical size. Not
    /// every compositor sends `enter` (cage 0.1.4 never does), so the size is
    /// the other tell: cage spans every window over all its outputs.
    private func checkFallbackSize(_ width: Int, _ height: Int) {
        guard !reportedMisplacement, let screen else { return }
        let expected = (screen.info.logicalWidth, screen.info.logicalHeight)
        guard expected.0 > 0, expected.1 > 0, (width, height) != expected else { return }
        reportedMisplacement = true
        let others = host.screens.filter { $0 !== screen }.map(\.name)
        let spans = width > expected.0 || height > expected.1
        let reason =
            "the compositor made the fullscreen fallback window \(width)x\(height), not the screen's \(expected.0)x\(expected.1)"
            + (spans && !others.isEmpty ? ", so it spills onto other screens (\(others.joined(separator: ", ")))" : "")
        let fix =
            spans
            ? "give the compositor one output per app (cage: run with `-m last`), or use a compositor with wlr-layer-shell"
            : "the content is drawn at the size given; use a compositor with wlr-layer-shell for exact placement"
        host.report(SceneError(screen: screen.name, reason: reason, fix: fix))
    }

    private func surfaceOutputsChanged() {
        // The fallback asked for fullscreen on one output; some compositors
        // ignore the hint (Hyprland #8944). Say so rather than show content
        // silently on the wrong screen.
        if isFullscreenFallback, let screen, let last = surface.enteredOutputs.last, last != screen.id,
            !reportedMisplacement
        {
            reportedMisplacement = true
            let actual = host.screen(withID: last)?.name ?? "another output"
            host.report(
                SceneError(
                    screen: screen.name,
                    reason: "the compositor put the fullscreen fallback window on \(actual) instead",
                    fix:
                        "the compositor ignores set_fullscreen's output hint; move the window by hand or use a compositor with wlr-layer-shell"
                ))
        }
        // Windows follow the output they entered last; external scenes stay
        // keyed to the screen they were made for.
        guard session.role == .application, let last = surface.enteredOutputs.last,
            let screen = host.screen(withID: last), screen !== self.screen
        else { return }
        self.screen = screen
        applyScreen(screen)
        delegate.sceneDidUpdateScreen(self)
        setNeedsDisplay()
    }

    /// The panel was switched on or off (`Application.setPower`, or a read
    /// of its power): off asks for no frames; on draws the current content.
    func screenPowerChanged() {
        guard !isTornDown else { return }
        displayLink.isPanelOff = screen?.powerState == .off
        if !displayLink.isPanelOff { linkResumed() }
    }

    /// Reads the panel's power when the display link wants to know it (the
    /// application's panel watch asks): a panel switched off by another
    /// program looks like a stall, and one that is off says nothing when it
    /// comes back. The answer arrives in a later batch.
    func watchPanelPower(nowNs: UInt64) {
        guard !isTornDown, let screen, displayLink.needsPanelPowerRead(nowNs: nowNs) else { return }
        displayLink.panelPowerReadStarted(nowNs: nowNs)
        host.powerState(of: screen) { [weak self] state in
            self?.displayLink.panelPowerRead(isOff: state == .off)
        }
    }

    private func recordClosed() {
        closedByCompositor = true
        host.sceneNeedsRender()
    }

    private func recordFractionalScaleChange() {
        fractionalScaleDidChange = true
        host.sceneNeedsRender()
    }

    func linkResumed() {
        guard !isTornDown else { return }
        needsDisplay = true
        host.sceneNeedsRender()
    }

    private func frameCallback() {
        guard !isTornDown else { return }
        frameDue = true
        host.sceneNeedsRender()
    }

    /// Applies what this scene's listeners recorded in the batch, in
    /// order: `closed` (the scene goes), where the surface is now, a new
    /// fractional scale, presentation feedback, then the newest configure.
    /// Runs after each batch, outside libwayland's dispatch; drawing is the
    /// next, separate step (`drawIfNeeded`).
    func applyPendingState() {
        guard !isTornDown else { return }
        if closedByCompositor {
            host.sceneDidClose(self)
            return
        }
        if outputsChanged {
            outputsChanged = false
            surfaceOutputsChanged()
        }
        if fractionalScaleDidChange {
            fractionalScaleDidChange = false
            fractionalScaleChanged()
        }
        let feedback = pendingFeedback
        pendingFeedback.removeAll()
        for (event, token) in feedback where !isTornDown {
            self.feedback(event, token: token)
            shownByFeedbackToken.removeValue(forKey: token)?.feedback(event)
        }
        let shown = shownCallbacks
        shownCallbacks.removeAll()
        for (tracker, ns) in shown { tracker.frameCallback(atNs: ns) }
        applyPendingConfigure()
    }

    /// Draws if a frame is due or content changed: the step after
    /// `applyPendingState` for every scene of the batch.
    func drawIfNeeded() {
        guard !isTornDown, isConnected, let window else { return }
        // A panel switched off shows nothing: ask for no frames until it is back.
        if displayLink.isPanelOff {
            frameDue = false
            return
        }
        var draw = needsDisplay
        if frameDue {
            frameDue = false
            let now = monotonicNanoseconds()
            if displayLink.shouldDraw(nowNs: now) {
                // Asked every refresh, even when a redraw is due anyway:
                // video hands its repeats back to mpv here.
                if delegate.sceneShouldDrawFrame(self) || needsDisplay {
                    draw = true
                } else {
                    holdFrame(nowNs: now)
                }
            } else if !displayLink.isPaused {
                // Skip this refresh. An empty commit to get the next callback
                // stalls on weston, which repaints (and calls back) only for
                // damage; wait one refresh on a timer and ask again instead.
                skipGeneration &+= 1
                let generation = skipGeneration
                MainEventLoop.shared.after(ns: displayLink.skipDelayNs(nowNs: now)) { [weak self] in
                    guard let self, self.skipGeneration == generation else { return }
                    self.frameCallback()
                }
            }
        }
        guard draw else { return }
        needsDisplay = false
        hasDrawn = true
        let now = monotonicNanoseconds()
        if !displayLink.isPaused {
            displayLink.willDraw(nowNs: now)
            surface.requestFrame { [weak self] _ in
                let shownNs = monotonicNanoseconds()
                self?.displayLink.frameShown(nowNs: shownNs)
                self?.frameCallback()
                if let tracker = self?.pacedShownTracker {
                    self?.shownCallbacks.append((tracker, shownNs))
                    self?.pacedShownTracker = nil
                }
            }
        }
        var feedbackToken: UInt64?
        if surface.offersPresentationFeedback {
            let request = displayLink.feedbackRequest(nowNs: now)
            surface.abandonPresentationFeedback(request.abandon)
            for token in request.abandon { shownByFeedbackToken[token] = nil }
            feedbackToken = request.token
            if let token = request.token {
                surface.requestPresentationFeedback(token: token) { [weak self] event in
                    self?.pendingFeedback.append((event, token))
                }
            }
        }
        if let watch = host.drawWatch {
            watch.begin(
                screen: screen?.name ?? "window", content: contentDescription ?? session.configuration.name ?? "scene")
        }
        isDrawing = true
        defer {
            isDrawing = false
            host.drawWatch?.end()
        }
        do {
            try window.makeCurrent()
            let context = DrawingContext(target: window, resources: try host.resources())
            drawCount += 1
            do {
                try delegate.draw(self, in: context)
            } catch {
                host.report(error)
            }
            if !shownWatchers.isEmpty { trackShown(feedbackToken: feedbackToken) }
            try window.present()
            for action in context.afterPresent { action() }
            if !displayLink.isPaused { noteFrameTime(monotonicNanoseconds() - now) }
        } catch {
            host.report(
                SceneError(
                    screen: screen?.name, reason: "cannot present a frame: \(error)", fix: "see `screenplay doctor`"))
        }
    }

    /// The delegate kept this refresh's picture: commit nothing (no frame
    /// callback comes without a commit) and ask again on a timer just past
    /// the next vblank, so each refresh is asked about exactly once.
    private func holdFrame(nowNs: UInt64) {
        displayLink.held(nowNs: nowNs)
        skipGeneration &+= 1
        let generation = skipGeneration
        MainEventLoop.shared.after(ns: displayLink.holdDelayNs(nowNs: nowNs)) { [weak self] in
            guard let self, self.skipGeneration == generation else { return }
            self.frameCallback()
        }
    }

    /// Resolves this frame's `whenNextFrameShown` handlers by its own frame
    /// callback (the paced one when the link runs) and by the presentation
    /// feedback the frame asked for, where the compositor answers feedback
    /// (the same bounded request: no second one).
    private func trackShown(feedbackToken: UInt64?) {
        let answers = feedbackToken != nil && displayLink.isReceivingPresentationFeedback
        let tracker = FrameShownTracker(
            handlers: shownWatchers, waitsForFeedback: answers, refreshNs: UInt64(displayLink.duration * 1e9))
        shownWatchers = []
        if answers, let feedbackToken { shownByFeedbackToken[feedbackToken] = tracker }
        if displayLink.isPaused {
            surface.requestFrame { [weak self] _ in
                self?.shownCallbacks.append((tracker, monotonicNanoseconds()))
                self?.host.sceneNeedsRender()
            }
        } else {
            pacedShownTracker = tracker
        }
    }

    private func feedback(_ event: PresentationEvent, token: UInt64) {
        guard !isTornDown else { return }
        switch event {
        case let .presented(ts, refresh, seq, _, syncOutput):
            presentedFrames += 1
            // Feedback names the output the frame was synced to; when that is
            // another output than the link is keyed to, re-key (windows).
            if session.role == .application, let syncOutput, let screen = host.screen(withID: syncOutput),
                screen !== self.screen
            {
                self.screen = screen
                displayLink.key(toModeRefreshMilliHz: screen.refreshMilliHz)
                delegate.sceneDidUpdateScreen(self)
            }
            displayLink.presented(token: token, timestampNs: ts, refreshNs: refresh, sequence: seq)
        case .discarded:
            displayLink.discarded(token: token)
        }
    }

    // MARK: teardown

    /// The one teardown path: closed, output removed, registration changed,
    /// app shutdown. EGL surface, then wl_egl_window, then role, then surface.
    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        displayLink.isPaused = true
        let wasConnected = isConnected
        isConnected = false
        window?.destroy()
        window = nil
        layerSurface?.destroy()
        layerSurface = nil
        toplevel?.destroy()
        toplevel = nil
        idleInhibitor?.destroy()
        idleInhibitor = nil
        fractional?.destroy()
        fractional = nil
        surface.destroy()
        displayLink.resetFeedback()
        if wasConnected { delegate.sceneDidDisconnect(self) }
    }

    /// Outputs the surface is on now (screens' ids).
    public var enteredScreenIDs: [UInt32] { surface.enteredOutputs }
}
