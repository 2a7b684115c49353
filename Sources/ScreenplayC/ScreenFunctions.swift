// The screens' C functions (screenplay.h: "Screens").
public import CScreenplay
import Glibc
import Screenplay

/// A screen behind a `screenplay_screen` handle, with the C copies of its
/// strings: each copy lives until the handle is released, so a pointer
/// handed out stays valid that long even if the text changes meanwhile.
@MainActor
final class CScreen: HandleObject {
    static let kind = "screen"
    static let advice =
        "use handles from screenplay_app_screen or the screen callback, and drop them at SCREENPLAY_SCREEN_DISCONNECTED"
    let screen: Screen
    weak var app: CApp?
    private(set) var handle: OpaquePointer!
    private var copies: [String: UnsafeMutablePointer<CChar>] = [:]

    init(_ screen: Screen, app: CApp) {
        self.screen = screen
        self.app = app
        handle = Handles.shared.add(self)
    }

    func text(_ value: String) -> UnsafePointer<CChar> {
        if let copy = copies[value] { return UnsafePointer(copy) }
        let copy = strdup(value)!
        copies[value] = copy
        return UnsafePointer(copy)
    }

    func release() {
        Handles.shared.remove(handle)
        for copy in copies.values { free(copy) }
        copies = [:]
    }
}

@MainActor
private func screen(_ handle: OpaquePointer?, _ function: String) throws(Failure) -> CScreen {
    try Handles.shared.get(handle, CScreen.self, function)
}

@MainActor
private func storeText(
    _ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ function: String,
    _ value: (Screen) -> String
) throws(Failure) {
    let made = try screen(handle, function)
    try store(made.text(value(made.screen)), out, function, "string")
}

/// The connector name.
@_cdecl("screenplay_screen_name")
public func screenplayScreenName(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_name") { () throws(Failure) in
        try storeText(s, out, "screenplay_screen_name") { $0.name }
    }
}

/// The description.
@_cdecl("screenplay_screen_description")
public func screenplayScreenDescription(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    -> Int32
{
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_description") { () throws(Failure) in
        try storeText(s, out, "screenplay_screen_description") { $0.displayDescription }
    }
}

/// The manufacturer.
@_cdecl("screenplay_screen_make")
public func screenplayScreenMake(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_make") { () throws(Failure) in
        try storeText(s, out, "screenplay_screen_make") { $0.make }
    }
}

/// The model.
@_cdecl("screenplay_screen_model")
public func screenplayScreenModel(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_model") { () throws(Failure) in
        try storeText(s, out, "screenplay_screen_model") { $0.model }
    }
}

/// The serial number.
@_cdecl("screenplay_screen_serial")
public func screenplayScreenSerial(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_serial") { () throws(Failure) in
        try storeText(s, out, "screenplay_screen_serial") { $0.serial ?? "" }
    }
}

/// The current mode's size.
@_cdecl("screenplay_screen_size")
public func screenplayScreenSize(
    _ s: OpaquePointer?, _ w: UnsafeMutablePointer<Int32>?, _ h: UnsafeMutablePointer<Int32>?
)
    -> Int32
{
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let w = w
    nonisolated(unsafe) let h = h
    return entry("screenplay_screen_size") { () throws(Failure) in
        let mode = try screen(s, "screenplay_screen_size").screen.currentMode
        try storePair((mode?.width ?? 0, mode?.height ?? 0), w, h, "screenplay_screen_size", ("width", "height"))
    }
}

/// The physical size.
@_cdecl("screenplay_screen_physical_size")
public func screenplayScreenPhysicalSize(
    _ s: OpaquePointer?, _ w: UnsafeMutablePointer<Int32>?, _ h: UnsafeMutablePointer<Int32>?
) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let w = w
    nonisolated(unsafe) let h = h
    return entry("screenplay_screen_physical_size") { () throws(Failure) in
        let size = try screen(s, "screenplay_screen_physical_size").screen.physicalSizeMillimeters
        try storePair(
            (size.width, size.height), w, h, "screenplay_screen_physical_size", ("width_mm", "height_mm"))
    }
}

/// The refresh rate.
@_cdecl("screenplay_screen_refresh")
public func screenplayScreenRefresh(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_refresh") { () throws(Failure) in
        let value = try screen(s, "screenplay_screen_refresh").screen.refreshMilliHz
        try store(Int32(clamping: value), out, "screenplay_screen_refresh", "millihertz")
    }
}

/// The integer scale.
@_cdecl("screenplay_screen_scale")
public func screenplayScreenScale(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_scale") { () throws(Failure) in
        let value = try screen(s, "screenplay_screen_scale").screen.scale
        try store(Int32(clamping: value), out, "screenplay_screen_scale", "scale")
    }
}

/// The transform.
@_cdecl("screenplay_screen_transform")
public func screenplayScreenTransform(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_transform") { () throws(Failure) in
        let value: Int32
        switch try screen(s, "screenplay_screen_transform").screen.transform {
        case .normal: value = Int32(SCREENPLAY_TRANSFORM_NORMAL)
        case .rotated90: value = Int32(SCREENPLAY_TRANSFORM_90)
        case .rotated180: value = Int32(SCREENPLAY_TRANSFORM_180)
        case .rotated270: value = Int32(SCREENPLAY_TRANSFORM_270)
        case .flipped: value = Int32(SCREENPLAY_TRANSFORM_FLIPPED)
        case .flipped90: value = Int32(SCREENPLAY_TRANSFORM_FLIPPED_90)
        case .flipped180: value = Int32(SCREENPLAY_TRANSFORM_FLIPPED_180)
        case .flipped270: value = Int32(SCREENPLAY_TRANSFORM_FLIPPED_270)
        }
        try store(value, out, "screenplay_screen_transform", "transform")
    }
}

/// The classification and its reason.
@_cdecl("screenplay_screen_classification")
public func screenplayScreenClassification(
    _ s: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?, _ reason: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    nonisolated(unsafe) let reason = reason
    return entry("screenplay_screen_classification") { () throws(Failure) in
        let made = try screen(s, "screenplay_screen_classification")
        let classification = made.screen.classification
        let value: Int32
        switch classification.kind {
        case .builtIn: value = Int32(SCREENPLAY_SCREEN_BUILT_IN)
        case .main: value = Int32(SCREENPLAY_SCREEN_MAIN)
        case .external: value = Int32(SCREENPLAY_SCREEN_EXTERNAL)
        }
        try store(value, out, "screenplay_screen_classification", "classification")
        reason?.pointee = made.text(classification.reason)
    }
}

func cMode(_ mode: ScreenMode) -> screenplay_mode {
    screenplay_mode(
        width: Int32(clamping: mode.width), height: Int32(clamping: mode.height),
        refresh_millihz: Int32(clamping: mode.refreshMilliHz), preferred: mode.isPreferred ? 1 : 0)
}

/// How many modes the screen lists.
@_cdecl("screenplay_screen_mode_count")
public func screenplayScreenModeCount(_ s: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_mode_count") { () throws(Failure) in
        let count = try screen(s, "screenplay_screen_mode_count").screen.availableModes.count
        try store(Int32(count), out, "screenplay_screen_mode_count", "count")
    }
}

/// A listed mode.
@_cdecl("screenplay_screen_mode")
public func screenplayScreenMode(_ s: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<screenplay_mode>?)
    -> Int32
{
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    return entry("screenplay_screen_mode") { () throws(Failure) in
        let function = "screenplay_screen_mode"
        let modes = try screen(s, function).screen.availableModes
        guard index >= 0, Int(index) < modes.count else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): index \(index) is outside 0..<\(modes.count); ask screenplay_screen_mode_count first")
        }
        try store(cMode(modes[Int(index)]), out, function, "mode")
    }
}

/// The current mode.
@_cdecl("screenplay_screen_current_mode")
public func screenplayScreenCurrentMode(
    _ s: OpaquePointer?, _ out: UnsafeMutablePointer<screenplay_mode>?, _ has: UnsafeMutablePointer<Int32>?
) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let out = out
    nonisolated(unsafe) let has = has
    return entry("screenplay_screen_current_mode") { () throws(Failure) in
        let function = "screenplay_screen_current_mode"
        let mode = try screen(s, function).screen.currentMode
        guard let out else { throw Failure.null(function, "mode") }
        try store(mode == nil ? 0 : 1, has, function, "has_mode")
        out.pointee = mode.map(cMode) ?? screenplay_mode(width: 0, height: 0, refresh_millihz: 0, preferred: 0)
    }
}
