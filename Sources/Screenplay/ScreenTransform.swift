import WaylandClient

/// How a screen's content is turned and mirrored (a portrait panel is
/// `rotated90` or `rotated270`), as the compositor applies it.
public enum ScreenTransform: Sendable, CaseIterable, CustomStringConvertible {
    case normal, rotated90, rotated180, rotated270
    case flipped, flipped90, flipped180, flipped270

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
