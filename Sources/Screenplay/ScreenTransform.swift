import WaylandClient

/// How a screen's content is turned and mirrored (a portrait panel is
/// `rotated90` or `rotated270`), as the compositor applies it.
public enum ScreenTransform: Sendable, CaseIterable, CustomStringConvertible {
    /// Upright.
    case normal
    /// Turned 90 degrees counter-clockwise.
    case rotated90
    /// Upside down.
    case rotated180
    /// Turned 270 degrees counter-clockwise.
    case rotated270
    /// Mirrored left to right.
    case flipped
    /// Mirrored, then turned 90 degrees counter-clockwise.
    case flipped90
    /// Mirrored, then upside down.
    case flipped180
    /// Mirrored, then turned 270 degrees counter-clockwise.
    case flipped270

    /// The spelling of wlr-randr, sway and `screenplay outputs --json`:
    /// `normal`, `90`, `flipped-90`...
    public var description: String { outputTransform.description }

    /// Whether width and height trade places between the mode and what the viewer sees.
    public var swapsAxes: Bool { outputTransform.swapsAxes }

    init(_ transform: OutputTransform) {
        self = Self.allCases[OutputTransform.allCases.firstIndex(of: transform) ?? 0]
    }

    // Both enums list wl_output.transform's values in protocol order.
    var outputTransform: OutputTransform { OutputTransform.allCases[Self.allCases.firstIndex(of: self) ?? 0] }
}
