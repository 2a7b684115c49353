import CWayland
import CXkb
import Glibc

/// One key press or release, translated through the keymap the compositor
/// sent (so it is right for any layout).
package struct KeyboardEvent {
    /// The keysym's name as xkbcommon spells it: "Page_Down", "space", "a", "F5".
    package var keysym: String
    /// The text the key types with the current modifiers ("" for none).
    package var text: String
    package var isPressed: Bool
    package var shift: Bool
    package var control: Bool
    package var alt: Bool
    /// The surface that had keyboard focus (nil: none of ours).
    package weak var surface: Surface?
}

/// The seat's keyboard: `wl_keyboard` (made when the `Seat` reports the
/// capability), the keymap turned into an xkb state, and key events turned
/// into `KeyboardEvent`s.
///
/// Listeners only record: key events go to the seat's input queue, which
/// the owner takes after each batch (`Seat.takeInput()`), in order with
/// pointer and touch. A new keymap may arrive at any time
/// (virtual keyboards such as wtype send one per client call): it replaces
/// the old one and the old state with it, so a key is always translated
/// with the keymap that was current when it was pressed.
@MainActor
package final class Keyboard {
    private let connection: Connection
    private let seat: OpaquePointer
    private let seatVersion: UInt32
    private var keyboard: OpaquePointer?
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var isDestroyed = false
    /// Set while a just-made wl_keyboard waits for its first enter (see `entered`).
    private var isFresh = false
    /// Keys a just-made wl_keyboard found held at its first enter, waiting
    /// for the modifiers event the compositor sends right after the enter.
    private var heldAtEnter: [UInt32] = []
    /// The surface that has keyboard focus now, if it is one of ours.
    package private(set) weak var focusedSurface: Surface?
    /// Hears each key press and release (the seat queues it).
    var onEvent: ((KeyboardEvent) -> Void)?
    /// Finds our Surface for a `wl_surface*` named by enter.
    private let surfaceForProxy: (OpaquePointer?) -> Surface?

    /// Made by the `Seat` when it is bound, before the seat's first events
    /// are dispatched, so its capabilities are not missed.
    init(
        connection: Connection, seat: OpaquePointer, seatVersion: UInt32,
        surfaceForProxy: @escaping (OpaquePointer?) -> Surface?
    ) {
        self.connection = connection
        self.seat = seat
        self.seatVersion = seatVersion
        self.surfaceForProxy = surfaceForProxy
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
    }

    func capabilities(_ caps: UInt32) {
        guard !isDestroyed else { return }
        let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        if hasKeyboard, keyboard == nil {
            let k = wl_seat_get_keyboard(seat)!
            wl_keyboard_add_listener(k, &keyboardListener, userData(self))
            keyboard = k
            isFresh = true
        } else if !hasKeyboard, keyboard != nil {
            releaseKeyboard()
            focusedSurface = nil
        }
    }

    func keymap(format: UInt32, fd: Int32, size: UInt32) {
        // The fd is ours whatever we do with it.
        defer { close(fd) }
        guard !isDestroyed, format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, let context, size > 0 else { return }
        // Since wl_seat v7 the fd must be mapped private (it may be shared read-only).
        guard let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return }
        defer { munmap(mapped, Int(size)) }
        let text = mapped.assumingMemoryBound(to: CChar.self)
        // size includes the terminating NUL; new_from_buffer tolerates both.
        let length = strnlen(text, Int(size))
        guard
            let newKeymap = xkb_keymap_new_from_buffer(
                context, text, length, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS),
            let newState = xkb_state_new(newKeymap)
        else { return }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = newKeymap
        state = newState
    }

    func entered(_ surface: OpaquePointer?, pressed keys: [UInt32]) {
        focusedSurface = surfaceForProxy(surface)
        // Keys held at enter are normally left over from before the focus
        // came here (the shortcut that moved it) and are ignored. But a
        // keyboard that has just appeared (hot-plugged, or a virtual keyboard
        // such as wtype's on a seat with none) gains the seat its keyboard
        // capability with its first press: our wl_keyboard is made after that
        // press, which then arrives only in this array. That press is meant
        // for us, so deliver it, translated with the modifiers held with it:
        // they come in the modifiers event that follows the enter (Shift+Left
        // typed on a keyboard that has just appeared is Shift+Left, not Left).
        if isFresh {
            isFresh = false
            heldAtEnter = keys
        }
    }

    /// The keys held at a fresh keyboard's first enter, translated with the
    /// state as it is now.
    func deliverHeldAtEnter() {
        guard !heldAtEnter.isEmpty else { return }
        let keys = heldAtEnter
        heldAtEnter = []
        for code in keys { translate(code, pressed: true) }
    }

    func left(_ surface: OpaquePointer?) {
        deliverHeldAtEnter()
        let left = surfaceForProxy(surface)
        if left == nil || left === focusedSurface {
            focusedSurface = nil
        }
    }

    func key(_ code: UInt32, pressed: Bool) {
        isFresh = false
        deliverHeldAtEnter()
        translate(code, pressed: pressed)
    }

    private func translate(_ code: UInt32, pressed: Bool) {
        guard !isDestroyed, let state else { return }
        // Wayland sends evdev codes; xkb keycodes are offset by 8.
        let keycode = code + 8
        let sym = xkb_state_key_get_one_sym(state, keycode)
        var nameBuffer = [CChar](repeating: 0, count: 64)
        let n = xkb_keysym_get_name(sym, &nameBuffer, nameBuffer.count)
        let name = n > 0 ? decode(nameBuffer, count: Int(n)) : ""
        var textBuffer = [CChar](repeating: 0, count: 64)
        let t = xkb_state_key_get_utf8(state, keycode, &textBuffer, textBuffer.count)
        let text = t > 0 ? decode(textBuffer, count: Int(t)) : ""
        let event = KeyboardEvent(
            keysym: name, text: text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) ? text : "",
            isPressed: pressed, shift: isActive("Shift"), control: isActive("Control"), alt: isActive("Mod1"),
            surface: focusedSurface)
        onEvent?(event)
    }

    /// xkb returns the length it wanted; a longer one was truncated to the buffer.
    private func decode(_ buffer: [CChar], count: Int) -> String {
        let bytes = buffer.prefix(min(count, buffer.count - 1)).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func isActive(_ modifier: String) -> Bool {
        guard let state else { return false }
        return xkb_state_mod_name_is_active(state, modifier, XKB_STATE_MODS_EFFECTIVE) > 0
    }

    func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard !isDestroyed, let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
        deliverHeldAtEnter()
    }

    private func releaseKeyboard() {
        heldAtEnter = []
        guard let keyboard else { return }
        if seatVersion >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
        self.keyboard = nil
    }

    /// Destroys the wl_keyboard and the xkb objects; before the seat goes.
    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        releaseKeyboard()
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
        state = nil
        keymap = nil
    }
}

private nonisolated(unsafe) var keyboardListener = wl_keyboard_listener(
    keymap: { data, _, format, fd, size in
        guard data != nil else { close(fd); return }
        deliver(data, to: Keyboard.self) { $0.keymap(format: format, fd: fd, size: size) }
    },
    enter: { data, _, _, surface, keys in
        let raw = surface.map { UInt(bitPattern: $0) }  // a pointer is not Sendable; rebuilt inside
        var codes: [UInt32] = []
        if let keys, let base = keys.pointee.data {
            let count = keys.pointee.size / MemoryLayout<UInt32>.size
            let words = base.bindMemory(to: UInt32.self, capacity: count)
            codes = (0..<count).map { words[$0] }
        }
        deliver(data, to: Keyboard.self) { [codes] in
            $0.entered(raw.flatMap { OpaquePointer(bitPattern: $0) }, pressed: codes)
        }
    },
    leave: { data, _, _, surface in
        let raw = surface.map { UInt(bitPattern: $0) }
        deliver(data, to: Keyboard.self) { $0.left(raw.flatMap { OpaquePointer(bitPattern: $0) }) }
    },
    key: { data, _, _, _, key, state in
        deliver(data, to: Keyboard.self) { $0.key(key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue) }
    },
    modifiers: { data, _, _, depressed, latched, locked, group in
        deliver(data, to: Keyboard.self) {
            $0.modifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        }
    },
    repeat_info: { _, _, _, _ in }
)

/// The keysym value of an xkbcommon keysym name ("Return", "a", "F5"), as
/// `KeyboardEvent.keysym` carries it; nil for a name xkbcommon does not know.
package func keysymValue(named name: String) -> UInt32? {
    let value = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
    return value == 0 ? nil : UInt32(value)
}
