import CWayland
import CWaylandProtocols

/// A panel's power as `zwlr_output_power_v1` reports it.
public enum PowerState: String, Sendable, Equatable {
    case on, off
}

/// The compositor's answer to a power request.
package enum PowerAnswer: Equatable, Sendable {
    /// The compositor reported the requested state.
    case done
    /// `failed`: no power management for the output, another client controls
    /// it, or the output went away.
    case failed
    /// No confirmation within the time allowed; the last state it reported.
    case unconfirmed(last: PowerState?)
}

/// One short-lived `zwlr_output_power_v1`.
@MainActor
final class PowerControl {
    let proxy: OpaquePointer
    var state: PowerState?
    var failed = false

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        zwlr_output_power_v1_add_listener(proxy, &powerListener, userData(self))
    }
}

/// `zwlr_output_power_manager_v1`. wlroots lets one control per output
/// exist at a time, across all clients, so every control here lives only
/// for one exchange: holding one would make `wlopm` or another
/// `screenplay power` fail while Screenplay runs.
@MainActor
package final class OutputPowerManager {
    let proxy: OpaquePointer
    private let connection: Connection

    init(connection: Connection, proxy: OpaquePointer) {
        self.connection = connection
        self.proxy = proxy
    }

    /// The panel's power now (nil when the compositor sent `failed` or did
    /// not answer within `timeoutMs`).
    package func state(of output: Output, timeoutMs: Int = 1000) -> PowerState? {
        let control = make(output)
        defer { release(control) }
        _ = connection.dispatch(until: { control.state != nil || control.failed }, timeoutMs: timeoutMs)
        return control.failed ? nil : control.state
    }

    /// Switches the panel and waits up to `timeoutMs` for the compositor to
    /// report the new state.
    package func set(_ wanted: PowerState, on output: Output, timeoutMs: Int = 2000) -> PowerAnswer {
        let control = make(output)
        defer { release(control) }
        _ = connection.dispatch(until: { control.state != nil || control.failed }, timeoutMs: 1000)
        if control.failed { return .failed }
        if control.state == wanted { return .done }
        let before = control.state
        control.state = nil
        zwlr_output_power_v1_set_mode(
            control.proxy,
            wanted == .on ? ZWLR_OUTPUT_POWER_V1_MODE_ON.rawValue : ZWLR_OUTPUT_POWER_V1_MODE_OFF.rawValue)
        var last: PowerState?
        _ = connection.dispatch(
            until: {
                if let state = control.state { last = state }
                return control.state == wanted || control.failed
            }, timeoutMs: timeoutMs)
        if control.failed { return .failed }
        return control.state == wanted ? .done : .unconfirmed(last: last ?? before)
    }

    private func make(_ output: Output) -> PowerControl {
        PowerControl(proxy: zwlr_output_power_manager_v1_get_output_power(proxy, output.proxy)!)
    }

    private func release(_ control: PowerControl) {
        zwlr_output_power_v1_destroy(control.proxy)
        connection.flush()
    }

    func destroy() { zwlr_output_power_manager_v1_destroy(proxy) }
}

private nonisolated(unsafe) var powerListener = zwlr_output_power_v1_listener(
    mode: { data, _, mode in
        deliver(data, to: PowerControl.self) { $0.state = mode == ZWLR_OUTPUT_POWER_V1_MODE_ON.rawValue ? .on : .off }
    },
    failed: { data, _ in
        deliver(data, to: PowerControl.self) { $0.failed = true }
    }
)
