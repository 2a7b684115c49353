/// The orientation of an output's content, as `wl_output.transform`.
public enum OutputTransform: Int32, Sendable, CaseIterable, CustomStringConvertible {
    case normal = 0, rotated90, rotated180, rotated270
    case flipped, flipped90, flipped180, flipped270

    /// The spelling used by wlr-randr, sway and `screenplay outputs --json`.
    public var description: String {
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
    public var swapsAxes: Bool { rawValue & 1 == 1 }
}

/// One display mode: pixel size and refresh in millihertz (0 when unknown).
public struct OutputMode: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshMilliHz: Int
    public var isPreferred: Bool

    public init(width: Int, height: Int, refreshMilliHz: Int, isPreferred: Bool = false) {
        self.width = width
        self.height = height
        self.refreshMilliHz = refreshMilliHz
        self.isPreferred = isPreferred
    }

    public var description: String {
        let hz = Double(refreshMilliHz) / 1000
        return refreshMilliHz > 0
            ? "\(width)x\(height) @ \(String(format: "%.3f", hz)) Hz" : "\(width)x\(height) @ unknown refresh"
    }

    func sameTiming(_ other: OutputMode) -> Bool {
        width == other.width && height == other.height && refreshMilliHz == other.refreshMilliHz
    }
}

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
    public var currentMode: OutputMode?
    public var modes: [OutputMode]
    public var scale: Int
    public var transform: OutputTransform
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

/// Events of `wl_output` and `zxdg_output_v1` in plain Swift.
package enum OutputEvent: Sendable {
    case geometry(
        x: Int, y: Int, physicalWidth: Int, physicalHeight: Int, make: String, model: String, transform: Int32)
    case mode(width: Int, height: Int, refreshMilliHz: Int, current: Bool, preferred: Bool)
    case scale(Int)
    case name(String)
    case description(String)
    case done
    case logicalPosition(x: Int, y: Int)
    case logicalSize(width: Int, height: Int)
    case xdgName(String)
    case xdgDescription(String)
    case xdgDone
}

/// What a batch of events did to an output, as seen by the app.
package enum OutputChange: Equatable, Sendable {
    case none
    case ready(OutputInfo)
    case changed(old: OutputInfo, new: OutputInfo)
}

/// Collects an output's events into `pending` and promotes them to
/// `current` on `done`, and only once xdg-output has reported too, so the
/// app never sees a half-described output (as Smithay's toolkit does).
package struct OutputState: Sendable {
    package private(set) var pending: OutputInfo
    package private(set) var current: OutputInfo?
    /// Whether an xdg_output exists for this output and which version.
    package private(set) var xdgVersion: UInt32?
    private var xdgReported = false
    private var wlDoneSinceXdg = false
    private var sawWlDone = false
    private var explicitName: String?
    private var explicitDescription: String?
    private var xdgName: String?
    private var xdgDescription: String?
    private var hasLogicalSize = false
    private var hasLogicalPosition = false
    private var geometryPosition = (x: 0, y: 0)

    package init(globalName: UInt32) { pending = OutputInfo(globalName: globalName) }

    /// Call when the xdg_output for this output has been created.
    package mutating func attachXdgOutput(version: UInt32) {
        xdgVersion = version
        xdgReported = false
        wlDoneSinceXdg = false
    }

    package mutating func apply(_ event: OutputEvent) -> OutputChange {
        switch event {
        case let .geometry(x, y, pw, ph, make, model, transform):
            geometryPosition = (x, y)
            pending.physicalWidthMillimeters = pw
            pending.physicalHeightMillimeters = ph
            pending.make = make
            pending.model = model
            pending.transform = OutputTransform(rawValue: transform) ?? .normal
        case let .mode(w, h, refresh, isCurrent, preferred):
            let mode = OutputMode(width: w, height: h, refreshMilliHz: refresh, isPreferred: preferred)
            if let i = pending.modes.firstIndex(where: { $0.sameTiming(mode) }) {
                pending.modes[i].isPreferred = pending.modes[i].isPreferred || preferred
            } else {
                pending.modes.append(mode)
            }
            if isCurrent { pending.currentMode = mode }
        case let .scale(s):
            pending.scale = max(1, s)
        case let .name(n):
            explicitName = n
        case let .description(d):
            explicitDescription = d
        case let .logicalPosition(x, y):
            hasLogicalPosition = true
            pending.logicalX = x
            pending.logicalY = y
        case let .logicalSize(w, h):
            hasLogicalSize = true
            pending.logicalWidth = w
            pending.logicalHeight = h
        case let .xdgName(n):
            xdgName = n
        case let .xdgDescription(d):
            xdgDescription = d
        case .xdgDone:
            xdgReported = true
            // xdg-output v3 deprecates its own done: wl_output.done covers both.
            if (xdgVersion ?? 0) < 3 { return promoteIfComplete() }
        case .done:
            sawWlDone = true
            if xdgVersion != nil { wlDoneSinceXdg = true }
            return promoteIfComplete()
        }
        return .none
    }

    private var isComplete: Bool {
        guard sawWlDone, pending.currentMode != nil || !pending.modes.isEmpty else { return false }
        guard let xdgVersion else { return true }
        return xdgVersion >= 3 ? wlDoneSinceXdg : (xdgReported || wlDoneSinceXdg && hasLogicalSize)
    }

    private mutating func promoteIfComplete() -> OutputChange {
        guard isComplete else { return .none }
        var next = pending
        resolveNames(&next)
        resolveLogicalGeometry(&next)
        let old = current
        current = next
        guard let old else { return .ready(next) }
        return old == next ? .none : .changed(old: old, new: next)
    }

    // wl_output v4 names first, then xdg-output v2, then "make model": old
    // compositors give no connector name at all.
    private func resolveNames(_ info: inout OutputInfo) {
        if let n = explicitName ?? xdgName, !n.isEmpty {
            info.name = n
            info.hasConnectorName = true
        } else {
            let madeUp = [info.make, info.model].filter { !$0.isEmpty }.joined(separator: " ")
            info.name = madeUp.isEmpty ? "output-\(info.globalName)" : madeUp
            info.hasConnectorName = false
        }
        info.description =
            explicitDescription ?? xdgDescription
            ?? [info.make, info.model, info.hasConnectorName ? "(\(info.name))" : ""]
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    // Without xdg-output, derive the logical box from the mode, transform and
    // integer scale, as compositors did before xdg-output existed.
    private func resolveLogicalGeometry(_ info: inout OutputInfo) {
        if !hasLogicalPosition {
            info.logicalX = geometryPosition.x
            info.logicalY = geometryPosition.y
        }
        if !hasLogicalSize, let mode = info.currentMode {
            let w = info.transform.swapsAxes ? mode.height : mode.width
            let h = info.transform.swapsAxes ? mode.width : mode.height
            info.logicalWidth = w / max(1, info.scale)
            info.logicalHeight = h / max(1, info.scale)
        }
    }
}
