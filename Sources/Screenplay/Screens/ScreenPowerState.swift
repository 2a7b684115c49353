import WaylandClient

/// A panel's power, as `zwlr_output_power_v1` reports it.
public enum ScreenPowerState: String, Sendable, Equatable {
    /// The panel shows content.
    case on
    /// The panel is switched off (blank, backlight off); the output stays.
    case off

    // WaylandClient's own PowerState, mapped by name.
    init(_ state: PowerState) {
        switch state {
        case .on: self = .on
        case .off: self = .off
        }
    }

    var powerState: PowerState {
        switch self {
        case .on: .on
        case .off: .off
        }
    }
}
