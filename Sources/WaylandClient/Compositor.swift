import CWayland
import CWaylandProtocols

/// What the compositor offers, bound at the versions Screenplay speaks, and
/// the outputs it announced. Listeners only record (`CompositorEvent`s, the
/// keyboard's own queue); the owner takes the events after each batch and
/// acts on them outside libwayland's dispatch.
@MainActor
package final class Compositor {
    package let connection: Connection
    private var registry: OpaquePointer?
    package private(set) var globals: [UInt32: GlobalInfo] = [:]

    package private(set) var compositor: OpaquePointer?
    package private(set) var compositorVersion: UInt32 = 0
    package private(set) var layerShell: OpaquePointer?
    package private(set) var layerShellVersion: UInt32 = 0
    package private(set) var wmBase: OpaquePointer?
    package private(set) var xdgOutputManager: OpaquePointer?
    package private(set) var xdgOutputManagerVersion: UInt32 = 0
    package private(set) var presentation: OpaquePointer?
    package private(set) var viewporter: OpaquePointer?
    package private(set) var fractionalScaleManager: OpaquePointer?
    package private(set) var idleInhibitManager: OpaquePointer?
    /// `xdg_activation_v1`: a launcher's token gives a new window the focus.
    package private(set) var activation: OpaquePointer?
    /// `wl_shm`, for the cursor image.
    package private(set) var shm: OpaquePointer?
    /// `zwlr_output_manager_v1`: heads, modes, serial numbers (wlroots compositors and others).
    package private(set) var outputManager: OutputManager?
    /// `zwlr_output_power_manager_v1`: panel power (wlroots compositors).
    package private(set) var powerManager: OutputPowerManager?
    package private(set) var seatVersion: UInt32 = 0

    /// Every wl_output the compositor announced and has not removed, in
    /// announcement order, complete or not.
    package private(set) var outputs: [Output] = []

    /// The seat (keyboard, pointer, touch), made when it is bound, before
    /// its capabilities are dispatched, so none is missed.
    package private(set) var seat: Seat?
    /// The seat's keyboard.
    package var keyboard: Keyboard? { seat?.keyboard }
    /// Events recorded since the owner last took them.
    private var events: [CompositorEvent] = []
    /// Outputs whose global went away, kept until the owner has handled it.
    private var removedOutputs: [Output] = []
    private var surfaces = SurfaceRegistry()

    /// Highest versions bound; lower ones offered still work.
    package struct VersionLimits: Sendable {
        package var output: UInt32 = 4
        package var xdgOutputManager: UInt32 = 3
        /// 0 leaves layer shell unbound, as if the compositor had none.
        package var layerShell: UInt32 = 4
        package init() {}
    }
    private let limits: VersionLimits

    package init(connection: Connection, limits: VersionLimits = .init()) {
        self.connection = connection
        self.limits = limits
    }

    /// Binds the globals and waits until every announced output is complete
    /// (two round trips: globals, then their initial events).
    package func start() throws(ConnectionError) {
        let registry = wl_display_get_registry(connection.display)!
        self.registry = registry
        wl_registry_add_listener(registry, &registryListener, userData(self))
        for _ in 0..<3 {
            try connection.roundtrip()
            settle()
        }
    }

    /// Globals announced and not yet bound, in announcement order.
    private var announced: [GlobalInfo] = []
    /// Proxies whose global went away, destroyed after the batch.
    private var retired: [() -> Void] = []

    func global(name: UInt32, interface: String, version: UInt32) {
        let info = GlobalInfo(name: name, interface: interface, version: version)
        globals[name] = info
        announced.append(info)
    }

    /// What the listeners of a batch left for the owner to do with
    /// proxies: binds the globals announced, lets the seat make or drop
    /// its devices, and destroys what went away. Call after each batch,
    /// outside libwayland's dispatch, before taking the events.
    package func settle() {
        let batch = announced
        announced.removeAll()
        for info in batch { bind(info) }
        seat?.settle()
        outputManager?.releaseRetired()
        let doomed = retired
        retired.removeAll()
        for destroy in doomed { destroy() }
    }

    private func bind(_ info: GlobalInfo) {
        let (name, interface, version) = (info.name, info.interface, info.version)
        guard let registry else { return }
        switch interface {
        case "wl_compositor":
            compositorVersion = min(version, 4)
            compositor = bind(registry, name, "wl_compositor", compositorVersion)
        case "wl_output":
            let output = Output(
                connection: connection, registry: registry, name: name,
                offeredVersion: min(version, limits.output))
            output.onChange = { [weak self] output, change in self?.outputChanged(output, change) }
            if let xdgOutputManager {
                output.attachXdgOutput(manager: xdgOutputManager, managerVersion: xdgOutputManagerVersion)
            }
            outputs.append(output)
        case "zxdg_output_manager_v1":
            xdgOutputManagerVersion = min(version, limits.xdgOutputManager)
            let manager = bind(registry, name, "zxdg_output_manager_v1", xdgOutputManagerVersion)
            xdgOutputManager = manager
            for output in outputs { output.attachXdgOutput(manager: manager, managerVersion: xdgOutputManagerVersion) }
        case "zwlr_layer_shell_v1" where limits.layerShell > 0:
            layerShellVersion = min(version, limits.layerShell, 4)
            layerShell = bind(registry, name, "zwlr_layer_shell_v1", layerShellVersion)
        case "xdg_wm_base":
            let base = bind(registry, name, "xdg_wm_base", min(version, 3))
            xdg_wm_base_add_listener(base, &wmBaseListener, nil)
            wmBase = base
        case "wp_presentation":
            // Its one event, clock_id, goes unheard: every compositor
            // Screenplay knows stamps with CLOCK_MONOTONIC, which the
            // display link assumes.
            presentation = bind(registry, name, "wp_presentation", 1)
        case "wp_viewporter":
            viewporter = bind(registry, name, "wp_viewporter", 1)
        case "wp_fractional_scale_manager_v1":
            fractionalScaleManager = bind(registry, name, "wp_fractional_scale_manager_v1", 1)
        case "zwp_idle_inhibit_manager_v1":
            idleInhibitManager = bind(registry, name, "zwp_idle_inhibit_manager_v1", 1)
        case "xdg_activation_v1":
            activation = bind(registry, name, "xdg_activation_v1", 1)
        case "zwlr_output_manager_v1":
            guard outputManager == nil else { return }
            let boundVersion = min(version, 4)
            outputManager = OutputManager(
                connection: connection, proxy: bind(registry, name, "zwlr_output_manager_v1", boundVersion),
                version: boundVersion)
            outputManager?.onDone = { [weak self] in self?.events.append(.headsChanged) }
        case "zwlr_output_power_manager_v1":
            guard powerManager == nil else { return }
            powerManager = OutputPowerManager(
                connection: connection, proxy: bind(registry, name, "zwlr_output_power_manager_v1", 1))
        case "wl_seat":
            guard seat == nil else { return }
            seatVersion = min(version, 7)
            seat = Seat(compositor: self, proxy: bind(registry, name, "wl_seat", seatVersion), version: seatVersion)
        case "wl_shm":
            shm = bind(registry, name, "wl_shm", 1)
        default:
            break
        }
    }

    func globalRemove(name: UInt32) {
        guard let info = globals.removeValue(forKey: name) else { return }
        if let index = announced.firstIndex(where: { $0.name == name }) {
            // Announced and withdrawn in one batch: never bound, never heard of.
            announced.remove(at: index)
            return
        }
        if let index = outputs.firstIndex(where: { $0.globalName == name }) {
            let output = outputs.remove(at: index)
            // Ready and removed in one batch: the owner never hears of it.
            let readyUnheard = events.contains {
                if case .outputReady(let o) = $0 { return o === output } else { return false }
            }
            if readyUnheard {
                events.removeAll {
                    switch $0 {
                    case .outputReady(let o), .outputChanged(let o): return o === output
                    default: return false
                    }
                }
            }
            // An output removed before its done was never reported: stay silent.
            if output.info != nil && !readyUnheard {
                events.append(.outputRemoved(output))
                removedOutputs.append(output)
            } else {
                retired.append { output.destroy() }
            }
            return
        }
        // Forgotten now, so nothing new is made from them; their proxies
        // go after the batch (`settle`).
        switch info.interface {
        case "zwlr_layer_shell_v1":
            // Surfaces made from it stay valid; no new ones can be made.
            if let layerShell {
                let version = layerShellVersion
                retired.append {
                    if version >= 3 { zwlr_layer_shell_v1_destroy(layerShell) } else { wl_proxy_destroy(layerShell) }
                }
            }
            layerShell = nil
        case "xdg_wm_base":
            wmBase = nil
        case "wl_compositor":
            compositor = nil
        case "zwlr_output_manager_v1":
            if let outputManager { retired.append { outputManager.destroy() } }
            outputManager = nil
        case "zwlr_output_power_manager_v1":
            if let powerManager { retired.append { powerManager.destroy() } }
            powerManager = nil
        default:
            break
        }
        events.append(.globalRemoved(info))
    }

    private func outputChanged(_ output: Output, _ change: OutputChange) {
        switch change {
        case .none: break
        case .ready: events.append(.outputReady(output))
        case .changed: events.append(.outputChanged(output))
        }
    }

    /// The events recorded since the last call, oldest first. Call after
    /// each batch, outside libwayland's dispatch; then
    /// `releaseRemovedOutputs()` once the removals are handled.
    package func takeEvents() -> [CompositorEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Destroys the proxies of outputs whose removal the owner has handled.
    package func releaseRemovedOutputs() {
        for output in removedOutputs { output.destroy() }
        removedOutputs.removeAll()
    }

    func register(_ surface: Surface) { surfaces.register(surface) }
    func unregister(_ surface: Surface) { surfaces.unregister(surface) }

    /// The live Surface whose `wl_surface*` is `proxy`, if it is one of ours.
    func surface(forProxy proxy: OpaquePointer?) -> Surface? { surfaces.surface(forProxy: proxy) }

    /// The output whose `wl_output*` is `proxy`, if it is still known.
    package func output(forProxy proxy: OpaquePointer?) -> Output? {
        guard let proxy else { return nil }
        return outputs.first { $0.proxy == proxy }
    }

    /// Destroys every proxy this object made. Surfaces must be gone first.
    package func destroy() {
        seat?.destroy()
        seat = nil
        events.removeAll()
        announced.removeAll()
        for destroy in retired { destroy() }
        retired.removeAll()
        releaseRemovedOutputs()
        for output in outputs { output.destroy() }
        outputs.removeAll()
        if let layerShell, layerShellVersion >= 3 {
            zwlr_layer_shell_v1_destroy(layerShell)
        } else if let layerShell {
            wl_proxy_destroy(layerShell)
        }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let xdgOutputManager { zxdg_output_manager_v1_destroy(xdgOutputManager) }
        if let presentation { wp_presentation_destroy(presentation) }
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
        if let idleInhibitManager { zwp_idle_inhibit_manager_v1_destroy(idleInhibitManager) }
        if let activation { xdg_activation_v1_destroy(activation) }
        outputManager?.destroy()
        powerManager?.destroy()
        outputManager = nil
        powerManager = nil
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        layerShell = nil; wmBase = nil; xdgOutputManager = nil; presentation = nil
        viewporter = nil; fractionalScaleManager = nil; idleInhibitManager = nil; activation = nil
        shm = nil; compositor = nil; registry = nil
    }

    private func bind(_ registry: OpaquePointer, _ name: UInt32, _ interface: String, _ version: UInt32)
        -> OpaquePointer
    {
        // screenplay_interface knows every name passed here.
        OpaquePointer(wl_registry_bind(registry, name, screenplay_interface(interface), version))!
    }
}

private nonisolated(unsafe) var registryListener = wl_registry_listener(
    global: { data, _, name, interface, version in
        let iface = string(interface) ?? ""
        deliver(data, to: Compositor.self) { $0.global(name: name, interface: iface, version: version) }
    },
    global_remove: { data, _, name in
        deliver(data, to: Compositor.self) { $0.globalRemove(name: name) }
    }
)

private nonisolated(unsafe) var wmBaseListener = xdg_wm_base_listener(
    ping: { _, base, serial in xdg_wm_base_pong(base, serial) }
)
