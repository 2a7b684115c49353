import WaylandClient

/// An output device as `zwlr_output_manager_v1` describes it, also while the
/// compositor has it disabled (then it is no `Screen`; see
/// `CompositorInfo.disabledHeads`).
public struct ScreenHead: Hashable, Sendable {
    /// Connector name; the same as the screen's when the head is enabled.
    public var name: String
    /// The compositor's human-readable description.
    public var description: String
    /// The manufacturer; empty when the compositor does not say (manager
    /// version 1, virtual outputs).
    public var make: String
    /// The model; empty when the compositor does not say.
    public var model: String
    /// The panel's serial number, when the compositor knows one.
    public var serialNumber: String?
    /// Physical width in millimetres; 0 when unknown.
    public var physicalWidthMillimeters: Int
    /// Physical height in millimetres; 0 when unknown.
    public var physicalHeightMillimeters: Int
    /// Every mode the head supports, in the order announced. Virtual
    /// outputs (headless, nested) may list none and take custom modes.
    public var modes: [ScreenMode]
    /// The mode the head shows now; nil while disabled.
    public var currentMode: ScreenMode?
    /// Whether the head is part of the compositor's space.
    public var isEnabled: Bool
    /// Position in the compositor's logical space.
    public var x: Int
    /// Position in the compositor's logical space.
    public var y: Int
    /// How the head's content is turned.
    public var transform: ScreenTransform
    /// The scale the compositor applies (fractional where it allows that).
    public var scale: Double
    /// Whether adaptive sync (VRR) is on; nil before manager version 4.
    public var adaptiveSync: Bool?

    init(_ head: HeadInfo) {
        name = head.name
        description = head.description
        make = head.make
        model = head.model
        serialNumber = head.serialNumber
        physicalWidthMillimeters = head.physicalWidthMillimeters
        physicalHeightMillimeters = head.physicalHeightMillimeters
        modes = head.modes.map(ScreenMode.init)
        currentMode = head.currentMode.map(ScreenMode.init)
        isEnabled = head.isEnabled
        x = head.x
        y = head.y
        transform = ScreenTransform(head.transform)
        scale = head.scale
        adaptiveSync = head.adaptiveSync
    }
}
