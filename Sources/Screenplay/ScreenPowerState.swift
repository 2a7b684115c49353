import WaylandClient

/// A panel's power, as `zwlr_output_power_v1` reports it.
public enum ScreenPowerState: String, Sendable, Equatable {
    /// The panel shows content.
    case on
    /// The panel is switched off (blank, backlight off); the output stays.
    case off

    init(_ state: PowerState) { self = state == .on ? .on : .off }

    var powerState: PowerState { self == .on ? .on : .off }
}
