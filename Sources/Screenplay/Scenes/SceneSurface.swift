import Rendering
import WaylandClient

/// A scene's surface and its role: a layer surface spanning an output, the
/// fullscreen window that stands in for one where the compositor has no
/// layer shell, or an application's toplevel; with the EGL window drawn
/// into and the size and scale it is drawn at. Its listeners only record
/// (`takeRecorded()`); the scene applies what they recorded after the
/// batch, so a superseded configure reaches neither EGL nor the delegate.
@MainActor
final class SceneSurface {
    /// What the listeners recorded since the last batch was handled.
    struct Recorded {
        /// The compositor closed the role (`closed`, `close`).
        var closed = false
        /// The surface entered or left an output.
        var outputsChanged = false
        /// A new preferred fractional scale.
        var scaleChanged = false
        /// The newest configure. Several can arrive in one batch (a
        /// compositor configuring again before the first ack); layer shell
        /// and xdg-shell both let a client answer only the last.
        var configure: (serial: UInt32, width: Int, height: Int)?
        /// A window's configure said fullscreen (or not).
        var fullscreen: Bool?
    }

    let surface: Surface
    private var layerSurface: LayerSurface?
    private var toplevel: Toplevel?
    /// The launcher's activation token, used by the app's window at its first configure.
    private var activationToken: String?
    private var fractional: FractionalScale?
    /// The EGL window, made at the first configure.
    private(set) var window: WindowSurface?
    /// Made while the scene inhibits idle (IdleInhibition.swift).
    private var idleInhibitor: IdleInhibitor?
    /// True when an external scene is a fullscreen window because the
    /// compositor has no layer shell.
    private(set) var isFullscreenFallback = false
    /// Size in surface units from the last configure applied.
    private(set) var size: (width: Int, height: Int) = (0, 0)
    /// Size of the EGL window, in device pixels.
    private(set) var pixelSize: (width: Int, height: Int) = (0, 0)
    /// The screen's integer scale (the buffer scale without a fractional one).
    private(set) var bufferScale = 1
    private var recorded = Recorded()
    /// Asks for the batch to be handled soon: a listener recorded something.
    private let needsBatch: () -> Void

    /// Makes the surface and the role `role` asks for, on `screen`'s output
    /// for an external scene; errors name the screen, the reason and the fix.
    init(
        compositor: Compositor, role: SceneRole, title: String?, screen: Screen?, layer: Layer,
        needsBatch: @escaping () -> Void
    ) throws(SceneError) {
        self.needsBatch = needsBatch
        do {
            surface = try Surface(compositor: compositor)
        } catch {
            throw SceneError(
                screen: screen?.name, reason: error.description, fix: "use a compositor with wl_compositor")
        }
        surface.onOutputsChanged = { [weak self] in self?.record { $0.outputsChanged = true } }
        fractional = FractionalScale(surface: surface)
        fractional?.onChange = { [weak self] _ in self?.record { $0.scaleChanged = true } }
        do throws(SceneError) {
            switch role {
            case .externalDisplayNonInteractive where compositor.layerShell == nil:
                // No layer shell (GNOME): a fullscreen toplevel on the
                // screen's output. It may take focus and the compositor may
                // place it elsewhere; the scene's warnings say so.
                try makeToplevel(title: title ?? "Screenplay", appID: "screenplay-scene", screen: screen)
                isFullscreenFallback = true
                surface.setEmptyInputRegion()
            case .externalDisplayNonInteractive:
                try makeLayerSurface(screen: screen, layer: layer)
                surface.setEmptyInputRegion()
            case .application:
                try makeToplevel(title: title ?? "Screenplay", appID: "screenplay", screen: nil)
                activationToken = LaunchActivation.takeToken()
            }
        } catch {
            surface.destroy()
            throw error
        }
    }

    private func makeLayerSurface(screen: Screen?, layer: Layer) throws(SceneError) {
        do {
            let layerSurface = try LayerSurface(
                surface: surface, output: screen?.output, layer: layer, namespace: "screenplay")
            layerSurface.onConfigure = { [weak self] serial, w, h in
                self?.record { $0.configure = (serial, w, h) }
            }
            layerSurface.onClosed = { [weak self] in self?.record { $0.closed = true } }
            self.layerSurface = layerSurface
        } catch {
            throw SceneError(
                screen: screen?.name, reason: error.description,
                fix:
                    "run on a compositor with wlr-layer-shell (sway, Hyprland, KDE, wayfire, labwc, river), or use --preview"
            )
        }
    }

    /// A toplevel; with `screen`, the fullscreen fallback of an external scene.
    private func makeToplevel(title: String, appID: String, screen: Screen?) throws(SceneError) {
        do {
            let toplevel = try Toplevel(surface: surface, title: title, appID: appID)
            toplevel.onConfigure = { [weak self] serial, w, h, fullscreen in
                self?.record {
                    $0.configure = (serial, w, h)
                    $0.fullscreen = fullscreen
                }
            }
            toplevel.onClose = { [weak self] in self?.record { $0.closed = true } }
            if let screen { toplevel.setFullscreen(on: screen.output) }
            self.toplevel = toplevel
        } catch {
            guard let screen else {
                throw SceneError(screen: nil, reason: error.description, fix: "use a compositor with xdg-shell")
            }
            throw SceneError(
                screen: screen.name, reason: "the compositor offers neither zwlr_layer_shell_v1 nor xdg_wm_base",
                fix:
                    "run on a compositor with wlr-layer-shell (sway, Hyprland, KDE, wayfire, labwc, river) or xdg-shell"
            )
        }
    }

    private func record(_ change: (inout Recorded) -> Void) {
        change(&recorded)
        needsBatch()
    }

    /// What the listeners recorded since the last call.
    func takeRecorded() -> Recorded {
        defer { recorded = Recorded() }
        return recorded
    }

    /// Device pixels per logical pixel of the buffer: the fractional scale
    /// where the compositor offers `wp_fractional_scale_v1`, else the
    /// screen's integer scale.
    var contentScale: Double {
        if let scale120 = fractional?.scale120 { return Double(scale120) / 120 }
        return Double(bufferScale)
    }

    /// Acks `configure` and sizes the EGL window for it (making it at the
    /// first one); a 0 width or height takes `fallbackSize`'s, as a scene
    /// spans its screen. Returns whether the logical size changed.
    func apply(
        _ configure: (serial: UInt32, width: Int, height: Int), fallbackSize: (Int, Int),
        graphics: @escaping () throws -> GraphicsContext
    ) throws -> Bool {
        var (w, h) = (configure.width, configure.height)
        if w <= 0 { w = fallbackSize.0 }
        if h <= 0 { h = fallbackSize.1 }
        layerSurface?.ackConfigure(configure.serial)
        toplevel?.ackConfigure(configure.serial)
        let changed = (w, h) != size
        size = (w, h)
        let pixels = pixelSize(forLogical: size)
        if let window {
            if changed || pixels != pixelSize { try window.resize(width: pixels.0, height: pixels.1) }
        } else {
            if let shm = surface.compositor.shm, WindowSurface.presentsThroughShmWithoutGL() {
                // Software GL for certain: EGL comes up at the first GL draw,
                // never for a scene that only presents frames as they are.
                window = try WindowSurface(
                    deferring: graphics, waylandSurface: surface.rawProxy, width: pixels.0, height: pixels.1, shm: shm)
            } else {
                window = try WindowSurface(
                    context: graphics(), waylandSurface: surface.rawProxy, width: pixels.0, height: pixels.1,
                    shm: surface.compositor.shm)
            }
            // The app's first window asks for the focus its launcher's token
            // gives, before it maps: KWin 5.27 forgets the token once any
            // window is activated, the new one included.
            if let token = activationToken { _ = surface.activate(token: token) }
            activationToken = nil
        }
        pixelSize = pixels
        surface.setOpaque(width: w, height: h)
        if fractional?.scale120 != nil { surface.setDestinationSize(width: w, height: h) }
        return changed
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

    /// Sizes the EGL window for the current size and scale.
    private func resizeBuffer() {
        let pixels = pixelSize(forLogical: size)
        try? window?.resize(width: pixels.0, height: pixels.1)
        pixelSize = pixels
    }

    /// The compositor prefers a new fractional scale: the buffer is shown
    /// through the viewport at scale 1, sized for the new scale.
    func applyFractionalScale() {
        surface.setBufferScale(1)
        guard size.width > 0 else { return }
        resizeBuffer()
        surface.setDestinationSize(width: size.width, height: size.height)
    }

    /// Takes `screen`'s integer scale; returns whether it changed. With a
    /// fractional scale the buffer is shown through the viewport at scale
    /// 1; otherwise the compositor is told the integer scale.
    func useScale(of screen: Screen) -> Bool {
        let old = bufferScale
        bufferScale = max(1, screen.scale)
        surface.setBufferScale(fractional?.scale120 != nil ? 1 : bufferScale)
        return old != bufferScale
    }

    /// The integer scale changed under a configured surface: the buffer
    /// follows at once, as the compositor may send no configure when only
    /// the scale changed. `spanning` is the screen's new logical size for a
    /// scene that spans it; a window keeps its size until configured.
    func scaleChanged(spanning logicalSize: (width: Int, height: Int)?) {
        guard size.width > 0 else { return }
        if let logicalSize { size = logicalSize }
        resizeBuffer()
    }

    /// Asks for fullscreen on `screen` (nil: leave fullscreen); windows only.
    func setFullscreen(on screen: Screen?) {
        guard let toplevel else { return }
        if let screen { toplevel.setFullscreen(on: screen.output) } else { toplevel.unsetFullscreen() }
        surface.commit()
    }

    /// Whether an idle inhibitor is held on the surface.
    var inhibitsIdle: Bool { idleInhibitor != nil }

    /// Makes or drops the idle inhibitor; returns whether anything changed
    /// (so the caller flushes).
    func setInhibitsIdle(_ inhibits: Bool) -> Bool {
        if inhibits, idleInhibitor == nil, !surface.isDestroyed {
            idleInhibitor = IdleInhibitor(surface: surface)
            surface.commit()
            return true
        }
        if !inhibits, let inhibitor = idleInhibitor {
            inhibitor.destroy()
            idleInhibitor = nil
            return true
        }
        return false
    }

    /// EGL surface, then wl_egl_window, then role, then what hangs on the
    /// surface, then the surface itself.
    func destroy() {
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
    }
}
