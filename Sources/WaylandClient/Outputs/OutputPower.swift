import CWayland
import CWaylandProtocols

/// A panel's power as `zwlr_output_power_v1` reports it.
package enum PowerState: String, Sendable, Equatable {
    case on, off
}

/// The compositor's answer to a power exchange.
package enum PowerAnswer: Equatable, Sendable {
    /// The compositor reported this state: the one asked for, or (for a
    /// read) the one the panel is in.
    case done(PowerState)
    /// `failed`: no power management for the output, another client controls
    /// it, or the output went away.
    case failed
    /// No confirmation within the time allowed; the last state it reported.
    case unconfirmed(last: PowerState?)
}

/// One exchange over a short-lived `zwlr_output_power_v1`: a read, or a
/// switch to `wanted`. The listener only records; the owner calls
/// `advance(nowNs:)` after each batch, which sends what comes next and,
/// once the exchange is over, destroys the object and returns the answer.
@MainActor
package final class PowerExchange {
    /// The state asked for; nil for a read.
    package let wanted: PowerState?
    private let connection: Connection
    private var proxy: OpaquePointer?
    /// The last state the compositor reported on this object.
    fileprivate var state: PowerState?
    fileprivate var failed = false
    /// Whether `set_mode` went out (a switch waits for the current state first).
    private var requested = false
    private var lastReported: PowerState?
    /// When the step now waiting gives up (CLOCK_MONOTONIC).
    package private(set) var deadlineNs: UInt64

    /// The current state arrives at once on a new object; a switch then
    /// waits up to 2 s for the compositor to report the new one.
    static let readTimeoutNs: UInt64 = 1_000_000_000
    static let switchTimeoutNs: UInt64 = 2_000_000_000

    fileprivate init(connection: Connection, proxy: OpaquePointer, wanted: PowerState?, nowNs: UInt64) {
        self.connection = connection
        self.proxy = proxy
        self.wanted = wanted
        deadlineNs = nowNs + Self.readTimeoutNs
        zwlr_output_power_v1_add_listener(proxy, &powerListener, userData(self))
        connection.flush()
    }

    /// The answer once the exchange is over (the object is then gone), nil
    /// while it waits. Call after each batch, never inside a listener.
    package func advance(nowNs: UInt64) -> PowerAnswer? {
        guard proxy != nil else { return nil }
        if let state { lastReported = state }
        let answer: PowerAnswer?
        if failed {
            answer = .failed
        } else if let wanted, !requested {
            if state == wanted {
                answer = .done(wanted)
            } else if state != nil || nowNs >= deadlineNs {
                // Off now (or silent): ask, and wait for a fresh report.
                requested = true
                state = nil
                deadlineNs = nowNs + Self.switchTimeoutNs
                zwlr_output_power_v1_set_mode(
                    proxy,
                    wanted == .on ? ZWLR_OUTPUT_POWER_V1_MODE_ON.rawValue : ZWLR_OUTPUT_POWER_V1_MODE_OFF.rawValue)
                connection.flush()
                answer = nil
            } else {
                answer = nil
            }
        } else if let wanted {
            answer = state == wanted ? .done(wanted) : nowNs >= deadlineNs ? .unconfirmed(last: lastReported) : nil
        } else {
            answer = state.map(PowerAnswer.done) ?? (nowNs >= deadlineNs ? .unconfirmed(last: nil) : nil)
        }
        if answer != nil { release() }
        return answer
    }

    /// Gives up (the application shuts down): the object goes now.
    package func release() {
        guard let proxy else { return }
        zwlr_output_power_v1_destroy(proxy)
        self.proxy = nil
        connection.flush()
    }
}

/// `zwlr_output_power_manager_v1`. wlroots lets one control per output
/// exist at a time, across all clients, so every control here lives only
/// for one exchange: holding one would make `wlopm` or another
/// `screenplay power` fail while Screenplay runs. Nothing here waits: an
/// exchange is a request whose answer arrives in a later batch.
@MainActor
package final class OutputPowerManager {
    let proxy: OpaquePointer
    private let connection: Connection

    init(connection: Connection, proxy: OpaquePointer) {
        self.connection = connection
        self.proxy = proxy
    }

    /// Starts reading the panel's power (`wanted` nil) or switching it.
    package func exchange(_ wanted: PowerState?, on output: Output, nowNs: UInt64) -> PowerExchange {
        PowerExchange(
            connection: connection, proxy: zwlr_output_power_manager_v1_get_output_power(proxy, output.proxy)!,
            wanted: wanted, nowNs: nowNs)
    }

    func destroy() { zwlr_output_power_manager_v1_destroy(proxy) }
}

private nonisolated(unsafe) var powerListener = zwlr_output_power_v1_listener(
    mode: { data, _, mode in
        deliver(data, to: PowerExchange.self) { $0.state = mode == ZWLR_OUTPUT_POWER_V1_MODE_ON.rawValue ? .on : .off }
    },
    failed: { data, _ in
        deliver(data, to: PowerExchange.self) { $0.failed = true }
    }
)
