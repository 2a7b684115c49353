import CWayland
import Foundation

/// One pointer event, in the surface's own coordinates (logical units).
package struct PointerRecord {
    package enum Kind: Equatable {
        case enter, leave, motion
        /// An evdev button code (BTN_LEFT is 0x110).
        case button(UInt32, pressed: Bool)
        /// Scroll distance in surface units along each axis.
        case axis(dx: Double, dy: Double)
    }
    package var kind: Kind
    package var x: Double
    package var y: Double
    /// The surface the event is for (nil: none of ours).
    package weak var surface: Surface?
}

/// The seat's `wl_pointer`. Listeners only record events for the owner;
/// after the batch (`settle`) an enter is answered with the default arrow
/// (`set_cursor` carrying enter's serial; the cursor's surface is made
/// there, never inside a listener).
@MainActor
package final class Pointer {
    private unowned let seat: Seat
    private let compositor: Compositor
    private let proxy: OpaquePointer
    private let seatVersion: UInt32
    private weak var focus: Surface?
    private var x = 0.0
    private var y = 0.0
    private var cursor: Cursor?
    /// The serial of an enter on one of our surfaces not yet answered with the arrow.
    private var enterSerial: UInt32?

    init(seat: Seat, compositor: Compositor, proxy: OpaquePointer, seatVersion: UInt32) {
        self.seat = seat
        self.compositor = compositor
        self.proxy = proxy
        self.seatVersion = seatVersion
        wl_pointer_add_listener(proxy, &pointerListener, userData(self))
    }

    func entered(serial: UInt32, surface: OpaquePointer?, x: Double, y: Double) {
        focus = compositor.surface(forProxy: surface)
        (self.x, self.y) = (x, y)
        guard let focus else { return }
        enterSerial = serial
        seat.record(PointerRecord(kind: .enter, x: x, y: y, surface: focus))
    }

    /// Shows the arrow for the last enter (after the batch). A pointer
    /// that left meanwhile gets it too: the compositor ignores a
    /// `set_cursor` whose serial is no longer the current enter's.
    func settle() {
        guard let serial = enterSerial else { return }
        enterSerial = nil
        if cursor == nil { cursor = Cursor(compositor: compositor) }
        cursor?.show(on: proxy, serial: serial)
    }

    func left(surface: OpaquePointer?) {
        guard let focus else { return }
        self.focus = nil
        seat.record(PointerRecord(kind: .leave, x: x, y: y, surface: focus))
    }

    func moved(x: Double, y: Double) {
        (self.x, self.y) = (x, y)
        guard let focus else { return }
        seat.record(PointerRecord(kind: .motion, x: x, y: y, surface: focus))
    }

    func button(_ code: UInt32, pressed: Bool) {
        guard let focus else { return }
        seat.record(PointerRecord(kind: .button(code, pressed: pressed), x: x, y: y, surface: focus))
    }

    func axis(_ axis: UInt32, value: Double) {
        guard let focus else { return }
        let vertical = axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue
        seat.record(
            PointerRecord(kind: .axis(dx: vertical ? 0 : value, dy: vertical ? value : 0), x: x, y: y, surface: focus))
    }

    func destroy() {
        cursor?.destroy()
        cursor = nil
        if seatVersion >= 3 { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
    }
}

/// The default arrow from the cursor theme, through libwayland-cursor
/// (`XCURSOR_THEME` and `XCURSOR_SIZE` as every Wayland client reads them;
/// libwayland-cursor has a built-in arrow where no theme is installed).
/// `wp_cursor_shape_v1` would let the compositor draw it, but that protocol
/// arrived in wayland-protocols 1.32 and Debian 12 ships 1.31.
@MainActor
final class Cursor {
    private var theme: OpaquePointer?
    private var surface: OpaquePointer?
    private var hotspot: (x: Int32, y: Int32) = (0, 0)

    init?(compositor: Compositor) {
        guard let shm = compositor.shm, let wlCompositor = compositor.compositor else { return nil }
        let env = ProcessInfo.processInfo.environment
        let size = env["XCURSOR_SIZE"].flatMap { Int32($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 24
        guard let theme = wl_cursor_theme_load(env["XCURSOR_THEME"], size, shm) else { return nil }
        self.theme = theme
        // "left_ptr" is the X cursor name every theme has; "default" the CSS name newer themes add.
        guard let arrow = wl_cursor_theme_get_cursor(theme, "left_ptr") ?? wl_cursor_theme_get_cursor(theme, "default"),
            arrow.pointee.image_count > 0, let image = arrow.pointee.images[0],
            let buffer = wl_cursor_image_get_buffer(image)
        else {
            destroy()
            return nil
        }
        hotspot = (Int32(image.pointee.hotspot_x), Int32(image.pointee.hotspot_y))
        let surface = wl_compositor_create_surface(wlCompositor)!
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, Int32(image.pointee.width), Int32(image.pointee.height))
        wl_surface_commit(surface)
        self.surface = surface
    }

    func show(on pointer: OpaquePointer, serial: UInt32) {
        guard let surface else { return }
        wl_pointer_set_cursor(pointer, serial, surface, hotspot.x, hotspot.y)
    }

    func destroy() {
        if let surface { wl_surface_destroy(surface) }
        surface = nil
        // The theme owns the buffers the surface showed: after the surface.
        if let theme { wl_cursor_theme_destroy(theme) }
        theme = nil
    }
}

private nonisolated(unsafe) var pointerListener = wl_pointer_listener(
    enter: { data, _, serial, surface, x, y in
        let raw = surface.map { UInt(bitPattern: $0) }
        deliver(data, to: Pointer.self) {
            $0.entered(
                serial: serial, surface: raw.flatMap { OpaquePointer(bitPattern: $0) }, x: fixedToDouble(x),
                y: fixedToDouble(y))
        }
    },
    leave: { data, _, _, surface in
        let raw = surface.map { UInt(bitPattern: $0) }
        deliver(data, to: Pointer.self) { $0.left(surface: raw.flatMap { OpaquePointer(bitPattern: $0) }) }
    },
    motion: { data, _, _, x, y in
        deliver(data, to: Pointer.self) { $0.moved(x: fixedToDouble(x), y: fixedToDouble(y)) }
    },
    button: { data, _, _, _, button, state in
        deliver(data, to: Pointer.self) {
            $0.button(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
        }
    },
    axis: { data, _, _, axis, value in
        deliver(data, to: Pointer.self) { $0.axis(axis, value: fixedToDouble(value)) }
    },
    frame: { _, _ in },
    axis_source: { _, _, _ in },
    axis_stop: { _, _, _, _ in },
    axis_discrete: { _, _, _, _ in },
    axis_value120: { _, _, _, _ in }
)
