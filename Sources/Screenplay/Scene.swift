import Dispatch
import Rendering
import WaylandClient

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
}

extension SceneDelegate {
    public func sceneDidUpdateScreen(_ scene: Scene) {}
    public func sceneDidDisconnect(_ scene: Scene) {}
    public func sceneDidResize(_ scene: Scene) {}
}

/// Describes a connected scene, as `UISceneSession`.
@MainActor
public final class SceneSession {
    public let role: SceneRole
    public let configuration: SceneConfiguration
    /// The accessory's user info, for accessory scenes.
    public let userInfo: [String: String]
    public let persistentIdentifier: String

    init(role: SceneRole, configuration: SceneConfiguration, userInfo: [String: String], identifier: String) {
        self.role = role
        self.configuration = configuration
        self.userInfo = userInfo
        persistentIdentifier = identifier
    }
}

/// Content on one screen: an external scene (layer surface spanning the
/// output) or an application window. Owns everything its surface needs and
/// tears it all down through one path.
@MainActor
public final class Scene {
    public let session: SceneSession
    public let delegate: any SceneDelegate
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
    public private(set) var isConnected = false
    /// How many frames reached the compositor's presentation feedback.
    public private(set) var presentedFrames = 0
    /// How many times the delegate was asked to draw: once per change for
    /// static content, once per frame while the display link runs.
    public private(set) var drawCount = 0

    unowned let application: Application
    let surface: Surface
    private var layerSurface: LayerSurface?
    private var toplevel: Toplevel?
    private var window: WindowSurface?
    private var needsDisplay = false
    /// True when an external scene is a fullscreen window because the
    /// compositor has no layer shell.
    public private(set) var isFullscreenFallback = false
    private var reportedMisplacement = false
    /// enter or leave arrived since the last batch was handled.
    private var outputsChanged = false
    private var hasDrawn = false
    private var skipGeneration = 0
    private var frameDue = false
    private var isTornDown = false
    private var bufferScale = 1
    private var fractional: FractionalScale?
    /// Made while `inhibitsIdle` is true (see IdleInhibition.swift).
    var idleInhibitor: IdleInhibitor?
    /// Sizes the layer-shell configure left to us (0 = choose) resolve to this.
    private let fallbackSize: () -> (Int, Int)

    init(
        application: Application, session: SceneSession, delegate: any SceneDelegate, screen: Screen?,
        layer: Layer
    ) throws(SceneError) {
        self.application = application
        self.session = session
        self.delegate = delegate
        self.screen = screen
        fallbackSize = { [weak screen] in (screen?.info.logicalWidth ?? 1280, screen?.info.logicalHeight ?? 720) }
        do {
            surface = try Surface(compositor: application.compositor)
        } catch {
            throw SceneError(screen: screen?.name, reason: error.description, fix: "use a compositor with wl_compositor")
        }
        displayLink.scene = self
        displayLink.preferredFramesPerSecond = session.configuration.preferredFramesPerSecond
        // enter/leave only record: where the surface is gets judged once
        // the batch is in (renderIfNeeded), so a compositor that sends
        // enter(A), leave(A), enter(B) together is not taken to put us on A.
        surface.onOutputsChanged = { [weak self] in self?.outputsChanged = true }
        fractional = FractionalScale(surface: surface)
        fractional?.onChange = { [weak self] _ in self?.fractionalScaleChanged() }
        switch session.role {
        case .externalDisplayNonInteractive where application.compositor.layerShell == nil:
            // No layer shell (GNOME): a fullscreen toplevel on the screen's
            // output. It may take focus and the compositor may place it
            // elsewhere; Application warns once and watches enter events.
            do {
                let toplevel = try Toplevel(
                    surface: surface, title: session.configuration.name ?? "Screenplay", appID: "screenplay-scene")
                toplevel.onConfigure = { [weak self] serial, w, h, _ in self?.configured(serial: serial, width: w, height: h) }
                toplevel.onClose = { [weak self] in self?.application.sceneClosedByCompositor(self) }
                toplevel.setFullscreen(on: screen?.output)
                self.toplevel = toplevel
                isFullscreenFallback = true
            } catch {
                surface.destroy()
                throw SceneError(
                    screen: screen?.name, reason: "the compositor offers neither zwlr_layer_shell_v1 nor xdg_wm_base",
                    fix: "run on a compositor with wlr-layer-shell (sway, Hyprland, KDE, wayfire, labwc, river) or xdg-shell")
            }
            surface.setEmptyInputRegion()
        case .externalDisplayNonInteractive:
            do {
                let layerSurface = try LayerSurface(
                    surface: surface, output: screen?.output, layer: layer, namespace: "screenplay")
                layerSurface.onConfigure = { [weak self] serial, w, h in self?.configured(serial: serial, width: w, height: h) }
                layerSurface.onClosed = { [weak self] in self?.application.sceneClosedByCompositor(self) }
                self.layerSurface = layerSurface
            } catch {
                surface.destroy()
                throw SceneError(
                    screen: screen?.name, reason: error.description,
                    fix: "run on a compositor with wlr-layer-shell (sway, Hyprland, KDE, wayfire, labwc, river), or use --preview")
            }
            surface.setEmptyInputRegion()
        case .application:
            do {
                let toplevel = try Toplevel(
                    surface: surface, title: session.configuration.name ?? "Screenplay", appID: "screenplay")
                toplevel.onConfigure = { [weak self] serial, w, h, _ in self?.configured(serial: serial, width: w, height: h) }
                toplevel.onClose = { [weak self] in self?.application.sceneClosedByCompositor(self) }
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
        application.scheduleRender()
    }

    /// Draw once more at the next opportunity (static content).
    public func setNeedsDisplay() {
        guard !isTornDown else { return }
        needsDisplay = true
        application.scheduleRender()
    }

    // MARK: configure and draw

    /// The newest configure not yet applied. Several can arrive in one batch
    /// (a compositor configuring again before the first ack); layer shell and
    /// xdg-shell both let a client answer only the last.
    private var pendingConfigure: (serial: UInt32, width: Int, height: Int)?

    private func configured(serial: UInt32, width: Int, height: Int) {
        guard !isTornDown else { return }
        // Applied after the batch (renderIfNeeded), so a superseded size
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
                    context: application.graphics(), waylandSurface: surface.rawProxy,
                    width: pixels.0, height: pixels.1)
            }
        } catch {
            application.report(SceneError(screen: screen?.name, reason: "cannot create the EGL surface: \(error)", fix: "check the Mesa EGL installation (`screenplay doctor`)"))
            application.sceneFailed(self)
            return
        }
        pixelSize = pixels
        surface.setOpaque(width: w, height: h)
        if fractional?.scale120 != nil { surface.setDestinationSize(width: w, height: h) }
        reportResizeIfChanged()
        if !isConnected {
            isConnected = true
            delegate.scene(self, willConnectTo: session)
            application.sceneDidConnect(self)
        }
        // Sway answers commits with repeated configures of the same size;
        // redraw only when something changed.
        if changed || !hasDrawn {
            needsDisplay = true
            application.scheduleRender()
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
        application.report(
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
            return FractionalScaleMath.bufferSize(logicalWidth: logical.width, logicalHeight: logical.height, scale120: scale120)
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
        let others = application.screens.filter { $0 !== screen }.map(\.name)
        let spans = width > expected.0 || height > expected.1
        let reason =
            "the compositor made the fullscreen fallback window \(width)x\(height), not the screen's \(expected.0)x\(expected.1)"
            + (spans && !others.isEmpty ? ", so it spills onto other screens (\(others.joined(separator: ", ")))" : "")
        let fix =
            spans
            ? "give the compositor one output per app (cage: run with `-m last`), or use a compositor with wlr-layer-shell"
            : "the content is drawn at the size given; use a compositor with wlr-layer-shell for exact placement"
        application.report(SceneError(screen: screen.name, reason: reason, fix: fix))
    }

    private func surfaceOutputsChanged() {
        // The fallback asked for fullscreen on one output; some compositors
        // ignore the hint (Hyprland #8944). Say so rather than show content
        // silently on the wrong screen.
        if isFullscreenFallback, let screen, let last = surface.enteredOutputs.last, last != screen.id, !reportedMisplacement {
            reportedMisplacement = true
            let actual = application.screen(withID: last)?.name ?? "another output"
            application.report(
                SceneError(
                    screen: screen.name, reason: "the compositor put the fullscreen fallback window on \(actual) instead",
                    fix: "the compositor ignores set_fullscreen's output hint; move the window by hand or use a compositor with wlr-layer-shell"))
        }
        // Windows follow the output they entered last; external scenes stay
        // keyed to the screen they were made for.
        guard session.role == .application, let last = surface.enteredOutputs.last,
            let screen = application.screen(withID: last), screen !== self.screen
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

    private var lastPowerCheckNs: UInt64 = 0

    /// Asks the compositor whether the panel is off, where it offers power
    /// control: a panel switched off by another program looks like a stall.
    func panelIsOff(nowNs: UInt64) -> Bool {
        guard let screen, application.canControlPower else { return false }
        lastPowerCheckNs = nowNs
        return application.powerState(of: screen) == .off
    }

    /// While the panel is off, reads its power again at most once a second
    /// (nothing else says it came back: the scene asks for no frames).
    func recheckPanelPower(nowNs: UInt64) {
        guard nowNs >= lastPowerCheckNs + 1_000_000_000 else { return }
        _ = panelIsOff(nowNs: nowNs)
    }

    func linkResumed() {
        guard !isTornDown else { return }
        needsDisplay = true
        application.scheduleRender()
    }

    private func frameCallback() {
        guard !isTornDown else { return }
        frameDue = true
        application.scheduleRender()
    }

    /// Draws if a frame is due or content changed. Runs after each batch of
    /// events, never inside a listener.
    func renderIfNeeded() {
        if outputsChanged, !isTornDown {
            outputsChanged = false
            surfaceOutputsChanged()
        }
        applyPendingConfigure()
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
                draw = true
            } else if !displayLink.isPaused {
                // Skip this refresh. An empty commit to get the next callback
                // stalls on weston, which repaints (and calls back) only for
                // damage; wait one refresh on a timer and ask again instead.
                skipGeneration &+= 1
                let generation = skipGeneration
                let delay = DispatchTimeInterval.nanoseconds(Int(displayLink.skipDelayNs(nowNs: now)))
                DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [weak self] in
                    MainActor.assumeIsolated {
                        guard let self, self.skipGeneration == generation else { return }
                        self.frameCallback()
                    }
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
                self?.displayLink.frameShown(nowNs: monotonicNanoseconds())
                self?.frameCallback()
            }
        }
        if surface.offersPresentationFeedback {
            let request = displayLink.feedbackRequest(nowNs: now)
            surface.abandonPresentationFeedback(request.abandon)
            if let token = request.token {
                surface.requestPresentationFeedback(token: token) { [weak self] event in self?.feedback(event, token: token) }
            }
        }
        do {
            try window.makeCurrent()
            let context = DrawingContext(target: window, resources: try application.resources())
            drawCount += 1
            do {
                try delegate.draw(self, in: context)
            } catch {
                application.report(error)
            }
            try window.present()
            if !displayLink.isPaused { noteFrameTime(monotonicNanoseconds() - now) }
        } catch {
            application.report(SceneError(screen: screen?.name, reason: "cannot present a frame: \(error)", fix: "see `screenplay doctor`"))
        }
    }

    private func feedback(_ event: PresentationEvent, token: UInt64) {
        guard !isTornDown else { return }
        switch event {
        case let .presented(ts, refresh, seq, _, syncOutput):
            presentedFrames += 1
            // Feedback names the output the frame was synced to; when that is
            // another output than the link is keyed to, re-key (windows).
            if session.role == .application, let syncOutput, let screen = application.screen(withID: syncOutput),
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

/// Why a scene could not be shown: the screen, the reason and the fix.
public struct SceneError: Error, CustomStringConvertible, Sendable {
    public let screen: String?
    public let reason: String
    public let fix: String
    public var description: String {
        "\(screen.map { "screen \($0): " } ?? "")\(reason); \(fix)"
    }
}
