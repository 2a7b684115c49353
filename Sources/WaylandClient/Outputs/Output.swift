import CWayland
import CWaylandProtocols

/// One `wl_output` global and its xdg_output, owned by `Compositor`.
@MainActor
package final class Output {
    package let globalName: UInt32
    package let version: UInt32
    package private(set) var state: OutputState
    let proxy: OpaquePointer
    private var xdgOutput: OpaquePointer?
    private(set) var isDestroyed = false
    /// Hears each promoted change; set by `Compositor`.
    var onChange: ((Output, OutputChange) -> Void)?
    private let connection: Connection

    init(connection: Connection, registry: OpaquePointer, name: UInt32, offeredVersion: UInt32) {
        self.connection = connection
        globalName = name
        // v4 brings name/description; v2 and v3 still work (names fall back).
        version = min(offeredVersion, 4)
        state = OutputState(globalName: name)
        proxy = OpaquePointer(wl_registry_bind(registry, name, screenplay_interface("wl_output"), version))
        wl_output_add_listener(proxy, &outputListener, userData(self))
    }

    /// The public description, once the output is complete.
    package var info: OutputInfo? { state.current }

    func attachXdgOutput(manager: OpaquePointer, managerVersion: UInt32) {
        guard xdgOutput == nil, !isDestroyed else { return }
        let xdg = zxdg_output_manager_v1_get_xdg_output(manager, proxy)!
        zxdg_output_v1_add_listener(xdg, &xdgOutputListener, userData(self))
        xdgOutput = xdg
        state.attachXdgOutput(version: managerVersion)
    }

    func handle(_ event: OutputEvent) {
        guard !isDestroyed else { return }
        let change = state.apply(event)
        if change != .none { onChange?(self, change) }
    }

    /// Destroys the proxies; called once on global_remove or teardown.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        if let xdgOutput { zxdg_output_v1_destroy(xdgOutput) }
        xdgOutput = nil
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }
}

private nonisolated(unsafe) var outputListener = wl_output_listener(
    geometry: { data, _, x, y, pw, ph, _, make, model, transform in
        let event = OutputEvent.geometry(
            x: Int(x), y: Int(y), physicalWidth: Int(pw), physicalHeight: Int(ph),
            make: string(make) ?? "", model: string(model) ?? "", transform: transform)
        deliver(data, to: Output.self) { $0.handle(event) }
    },
    mode: { data, _, flags, w, h, refresh in
        deliver(data, to: Output.self) {
            $0.handle(
                .mode(
                    width: Int(w), height: Int(h), refreshMilliHz: Int(refresh),
                    current: flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0,
                    preferred: flags & WL_OUTPUT_MODE_PREFERRED.rawValue != 0))
        }
    },
    done: { data, _ in
        deliver(data, to: Output.self) { $0.handle(.done) }
    },
    scale: { data, _, factor in
        deliver(data, to: Output.self) { $0.handle(.scale(Int(factor))) }
    },
    name: { data, _, name in
        let value = string(name) ?? ""
        deliver(data, to: Output.self) { $0.handle(.name(value)) }
    },
    description: { data, _, text in
        let value = string(text) ?? ""
        deliver(data, to: Output.self) { $0.handle(.description(value)) }
    }
)

private nonisolated(unsafe) var xdgOutputListener = zxdg_output_v1_listener(
    logical_position: { data, _, x, y in
        deliver(data, to: Output.self) { $0.handle(.logicalPosition(x: Int(x), y: Int(y))) }
    },
    logical_size: { data, _, w, h in
        deliver(data, to: Output.self) { $0.handle(.logicalSize(width: Int(w), height: Int(h))) }
    },
    done: { data, _ in
        deliver(data, to: Output.self) { $0.handle(.xdgDone) }
    },
    name: { data, _, name in
        let value = string(name) ?? ""
        deliver(data, to: Output.self) { $0.handle(.xdgName(value)) }
    },
    description: { data, _, text in
        let value = string(text) ?? ""
        deliver(data, to: Output.self) { $0.handle(.xdgDescription(value)) }
    }
)
