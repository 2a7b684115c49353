package import WaylandClient

/// One display the compositor shows: a `wl_output` with its xdg-output
/// description, as `UIScreen` is for iOS. A Screen exists from the output's
/// first complete description until the output is removed; updates (mode,
/// scale, transform, position) change it in place.
@MainActor
public final class Screen: Identifiable {
    /// The description as of the compositor's last `done`.
    package private(set) var info: OutputInfo
    /// Whether the screen is a built-in panel and why (see `Classification`).
    public internal(set) var classification: ScreenClassification
    /// False once the output is gone; a disconnected screen never returns
    /// (a new Screen is made when the display comes back).
    public internal(set) var isConnected = true
    let output: Output
    /// The application that found the screen, which carries out its mode
    /// and power requests (ScreenSettings.swift).
    weak var application: Application?

    init(output: Output, info: OutputInfo, classification: ScreenClassification) {
        self.output = output
        id = output.globalName
        self.info = info
        self.classification = classification
    }

    func update(_ info: OutputInfo) { self.info = info }

    /// Stable for the screen's lifetime (the registry name of its output).
    public nonisolated let id: UInt32
    /// Connector name such as `HDMI-A-1`, `eDP-1`, or a made-up "make model".
    public var name: String { info.name }
    /// Whether `name` is the connector's (wl_output v4 or xdg-output gave
    /// one); false when the compositor gave none and `name` is made from
    /// make and model, so a pattern naming a connector cannot match it.
    public var hasConnectorName: Bool { info.hasConnectorName }
    /// The compositor's human-readable description, such as
    /// `Dell Inc. DELL U2720Q (DP-2)`.
    public var displayDescription: String { info.description }
    /// The manufacturer: the output-management head's where the compositor
    /// offers `zwlr_output_manager_v1`, else wl_output's.
    public var make: String { head.map(\.make).flatMap { $0.isEmpty ? nil : $0 } ?? info.make }
    /// The model: the output-management head's where the compositor offers
    /// `zwlr_output_manager_v1`, else wl_output's.
    public var model: String { head.map(\.model).flatMap { $0.isEmpty ? nil : $0 } ?? info.model }
    /// The panel's serial number, to tell identical panels apart; nil where
    /// the compositor gives none (wl_output never does; the output-management
    /// head does where the panel's EDID has one).
    public var serial: String? { head?.serialNumber.flatMap { $0.isEmpty ? nil : $0 } ?? info.serial }
    /// The mode the screen shows now, as `UIScreen.currentMode`.
    public var currentMode: ScreenMode? { info.currentMode.map(ScreenMode.init) }
    /// Every mode the screen supports, as `UIScreen.availableModes`: the
    /// head's full list where the compositor offers `zwlr_output_manager_v1`
    /// (virtual outputs may list none), else what wl_output lists (usually
    /// only the current mode).
    public var availableModes: [ScreenMode] { head?.modes ?? info.modes.map(ScreenMode.init) }
    /// The mode the panel prefers (its native one), as `UIScreen.preferredMode`.
    public var preferredMode: ScreenMode? { availableModes.first { $0.isPreferred } }
    /// The output-management head matched to this screen by name, where the
    /// compositor offers `zwlr_output_manager_v1`.
    public internal(set) var head: ScreenHead?
    /// False when the compositor keeps the output but has it disabled: its
    /// head says so and wl_output reports no current mode. Such a screen
    /// never gets a scene. (sway 1.7 calls every output running a custom
    /// mode, headless ones included, disabled in its head while it shows
    /// content on it; the wl_output's current mode settles that.)
    public var isEnabled: Bool { head.map { $0.isEnabled || info.currentMode != nil } ?? true }
    /// Whether adaptive sync (VRR) is on; nil where the compositor does not say.
    public var adaptiveSync: Bool? { head?.adaptiveSync }
    /// The panel's power as last read or set through
    /// `zwlr_output_power_manager_v1` (see `readPowerState(completion:)`);
    /// nil where unknown.
    public internal(set) var powerState: ScreenPowerState?
    /// Integer scale the compositor applies to this output's buffers.
    public var scale: Int { info.scale }
    /// How the compositor turns the screen's content (portrait panels).
    public var transform: ScreenTransform { ScreenTransform(info.transform) }
    /// Physical size in millimetres; zeros when the compositor does not know it.
    public var physicalSizeMillimeters: (width: Int, height: Int) {
        (info.physicalWidthMillimeters, info.physicalHeightMillimeters)
    }
    /// Refresh of the current mode in millihertz; 0 when the output reports none.
    public var refreshMilliHz: Int { info.currentMode?.refreshMilliHz ?? 0 }
    /// Frames per second the screen can show; 60 when the refresh is unknown.
    public var maximumFramesPerSecond: Int {
        refreshMilliHz > 0 ? Int((Double(refreshMilliHz) / 1000).rounded()) : 60
    }
    /// Whether the screen is a panel wired inside the machine (see `classification`).
    public var isBuiltIn: Bool { classification.isBuiltIn }
    /// Position and size in the compositor's logical space.
    public var bounds: (x: Int, y: Int, width: Int, height: Int) {
        (info.logicalX, info.logicalY, info.logicalWidth, info.logicalHeight)
    }
    /// Pixel size of the current mode as the viewer sees it (rotated).
    public var nativeSize: (width: Int, height: Int) {
        guard let mode = info.currentMode else { return (0, 0) }
        return info.transform.swapsAxes ? (mode.height, mode.width) : (mode.width, mode.height)
    }
}
