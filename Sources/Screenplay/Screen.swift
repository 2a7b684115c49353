public import WaylandClient

/// A display mode, as `UIScreenMode`: pixel size and refresh.
public typealias ScreenMode = OutputMode
/// The layer an external scene sits in.
public typealias SceneLayer = Layer

/// One display the compositor shows: a `wl_output` with its xdg-output
/// description, as `UIScreen` is for iOS. A Screen exists from the output's
/// first complete description until the output is removed; updates (mode,
/// scale, transform, position) change it in place.
@MainActor
public final class Screen: Identifiable {
    /// The description as of the compositor's last `done`.
    public private(set) var info: OutputInfo
    /// Whether the screen is a built-in panel and why (see `Classification`).
    public internal(set) var classification: ScreenClassification
    /// False once the output is gone; a disconnected screen never returns
    /// (a new Screen is made when the display comes back).
    public internal(set) var isConnected = true
    let output: Output

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
    public var displayDescription: String { info.description }
    public var make: String { info.make }
    public var model: String { info.model }
    public var serial: String? { info.serial }
    public var currentMode: ScreenMode? { info.currentMode }
    public var availableModes: [ScreenMode] { info.modes }
    /// Integer scale the compositor applies to this output's buffers.
    public var scale: Int { info.scale }
    public var transform: OutputTransform { info.transform }
    /// Refresh of the current mode in millihertz; 0 when the output reports none.
    public var refreshMilliHz: Int { info.currentMode?.refreshMilliHz ?? 0 }
    /// Frames per second the screen can show; 60 when the refresh is unknown.
    public var maximumFramesPerSecond: Int {
        refreshMilliHz > 0 ? Int((Double(refreshMilliHz) / 1000).rounded()) : 60
    }
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
