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

    // Mapped case by case, by name: a reordered or added case in either
    // enum cannot turn a screen the wrong way.
    init(_ transform: OutputTransform) {
        switch transform {
        case .normal: self = .normal
        case .rotated90: self = .rotated90
        case .rotated180: self = .rotated180
        case .rotated270: self = .rotated270
        case .flipped: self = .flipped
        case .flipped90: self = .flipped90
        case .flipped180: self = .flipped180
        case .flipped270: self = .flipped270
        }
    }

    var outputTransform: OutputTransform {
        switch self {
        case .normal: .normal
        case .rotated90: .rotated90
        case .rotated180: .rotated180
        case .rotated270: .rotated270
        case .flipped: .flipped
        case .flipped90: .flipped90
        case .flipped180: .flipped180
        case .flipped270: .flipped270
        }
    }
}
