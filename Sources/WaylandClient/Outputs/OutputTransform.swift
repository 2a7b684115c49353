/// The orientation of an output's content, as `wl_output.transform`.
package enum OutputTransform: Int32, Sendable, CaseIterable, CustomStringConvertible {
    case normal = 0, rotated90, rotated180, rotated270
    case flipped, flipped90, flipped180, flipped270

    /// The spelling used by wlr-randr, sway and `screenplay outputs --json`.
    package var description: String {
        switch self {
        case .normal: "normal"
        case .rotated90: "90"
        case .rotated180: "180"
        case .rotated270: "270"
        case .flipped: "flipped"
        case .flipped90: "flipped-90"
        case .flipped180: "flipped-180"
        case .flipped270: "flipped-270"
        }
    }

    /// Whether width and height trade places between the buffer and the output.
    package var swapsAxes: Bool { rawValue & 1 == 1 }
}
