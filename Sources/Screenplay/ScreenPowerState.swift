import WaylandClient

/// A panel's power, as `zwlr_output_power_v1` reports it.
public enum ScreenPowerState: String, Sendable, Equatable {
    case on, off

    init(_ state: PowerState) { self = state == .on ? .on : .off }

    var powerState: PowerState { self == .on ? .on : .off }
}
