import WaylandClient

/// Reads a mode or power request before anything is sent: the head mode it
/// picks, or why it cannot be asked for at all (the compositor offers no
/// protocol for it, the screen is gone, the mode is not listed). A refusal
/// is still handed to the request, which reports it after a later batch
/// like any answer.
@MainActor
enum ScreenRequestCheck {
    /// The listed mode `request` matches on `screen`, or a custom mode when
    /// the screen lists none (virtual outputs).
    static func choice(for request: ScreenModeRequest, on screen: Screen, canSetModes: Bool) -> (
        HeadModeChoice, refusal: ScreenConfigurationError?
    ) {
        var refusal = modeRefusal(screen, canSetModes: canSetModes)
        let modes = screen.availableModes
        var choice = HeadModeChoice.custom(
            width: request.width, height: request.height, refreshMilliHz: request.refreshMilliHz)
        if refusal == nil, !modes.isEmpty {
            if let mode = request.match(in: modes) {
                choice = .listed(mode.outputMode)
            } else {
                refusal = ScreenConfigurationError(
                    kind: .notListed,
                    description:
                        "screen \(screen.name) does not list the mode \(request); it lists \(modes.map { "\($0)" }.joined(separator: ", "))"
                )
            }
        }
        return (choice, refusal)
    }

    /// Exactly `mode`: the listed mode of that timing, else a custom mode.
    static func choice(for mode: ScreenMode, on screen: Screen, canSetModes: Bool) -> (
        HeadModeChoice, refusal: ScreenConfigurationError?
    ) {
        let listed = screen.availableModes.contains {
            $0.width == mode.width && $0.height == mode.height && $0.refreshMilliHz == mode.refreshMilliHz
        }
        let choice: HeadModeChoice =
            listed
            ? .listed(mode.outputMode)
            : .custom(width: mode.width, height: mode.height, refreshMilliHz: mode.refreshMilliHz)
        return (choice, modeRefusal(screen, canSetModes: canSetModes))
    }

    /// Why no mode can be set on `screen`, or nil.
    private static func modeRefusal(_ screen: Screen, canSetModes: Bool) -> ScreenConfigurationError? {
        guard canSetModes else {
            return ScreenConfigurationError(
                kind: .unsupported,
                description: CompositorInfo.missingProtocolSentence("change a screen's mode", "zwlr_output_manager_v1"))
        }
        guard screen.isConnected, screen.head != nil else {
            return ScreenConfigurationError(
                kind: .unknownScreen,
                description:
                    "screen \(screen.name) has no output-management head (it is gone, or the compositor names it differently); its mode cannot be set"
            )
        }
        return nil
    }

    /// Why `screen`'s panel cannot be switched, or nil.
    static func powerRefusal(_ screen: Screen, canControlPower: Bool) -> ScreenConfigurationError? {
        if !canControlPower {
            return ScreenConfigurationError(
                kind: .unsupported,
                description: CompositorInfo.missingProtocolSentence(
                    "switch a panel on or off", "zwlr_output_power_manager_v1"))
        }
        if !screen.isConnected {
            return ScreenConfigurationError(kind: .unknownScreen, description: "screen \(screen.name) is gone")
        }
        return nil
    }
}
