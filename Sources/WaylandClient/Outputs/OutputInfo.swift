/// Everything the compositor said about one output, as of its last `done`.
public struct OutputInfo: Hashable, Sendable {
    /// The registry name of the `wl_output` global: unique while it exists.
    public var globalName: UInt32
    /// Connector name such as `HDMI-A-1` or `eDP-1` (wl_output v4 or
    /// xdg-output v2); falls back to "make model" on older compositors.
    public var name: String
    public var description: String
    public var make: String
    public var model: String
    /// Serial number, when the compositor reports one.
    public var serial: String?
    public var physicalWidthMillimeters: Int
    public var physicalHeightMillimeters: Int
    package var currentMode: OutputMode?
    package var modes: [OutputMode]
    public var scale: Int
    package var transform: OutputTransform
    /// Position and size in the compositor's logical (layout) space.
    public var logicalX: Int
    public var logicalY: Int
    public var logicalWidth: Int
    public var logicalHeight: Int
    /// Whether the name came from the compositor or had to be made up.
    public var hasConnectorName: Bool

    public init(globalName: UInt32) {
        self.globalName = globalName
        name = ""
        description = ""
        make = ""
        model = ""
        serial = nil
        physicalWidthMillimeters = 0
        physicalHeightMillimeters = 0
        currentMode = nil
        modes = []
        scale = 1
        transform = .normal
        logicalX = 0
        logicalY = 0
        logicalWidth = 0
        logicalHeight = 0
        hasConnectorName = false
    }
}
