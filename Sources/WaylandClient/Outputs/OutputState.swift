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
