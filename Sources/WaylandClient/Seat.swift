import CWayland

/// The bound `wl_seat`: its capabilities make and release the keyboard,
/// pointer and touch objects. One listener per proxy is all libwayland
/// allows, so the seat hears capabilities and hands each device its part.
@MainActor
package final class Seat {
    let proxy: OpaquePointer
    let version: UInt32
    /// Keys, translated through the compositor's keymap.
    package let keyboard: Keyboard
    /// Pointer events, recorded for the owner (nil while the seat has no pointer).
    package private(set) var pointer: Pointer?
    /// Touch events, recorded for the owner (nil while the seat has no touch).
    package private(set) var touch: Touch?
    private let compositor: Compositor
    private var isDestroyed = false

    /// Listens to `proxy` at once, before its first events are dispatched.
    init(compositor: Compositor, proxy: OpaquePointer, version: UInt32) {
        self.compositor = compositor
        self.proxy = proxy
        self.version = version
        keyboard = Keyboard(connection: compositor.connection, seat: proxy, seatVersion: version) { [weak compositor] in
            compositor?.surface(forProxy: $0)
        }
        wl_seat_add_listener(proxy, &seatListener, userData(self))
    }

    func capabilities(_ caps: UInt32) {
        guard !isDestroyed else { return }
        keyboard.capabilities(caps)
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        if hasPointer, pointer == nil {
            pointer = Pointer(
                seat: self, compositor: compositor, proxy: wl_seat_get_pointer(proxy)!, seatVersion: version)
        } else if !hasPointer, let pointer {
            pointer.destroy()
            self.pointer = nil
        }
        let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        if hasTouch, touch == nil {
            touch = Touch(seat: self, compositor: compositor, proxy: wl_seat_get_touch(proxy)!, seatVersion: version)
        } else if !hasTouch, let touch {
            // The devices are gone: their touches end as cancelled.
            touch.cancelAll()
            touch.destroy()
            self.touch = nil
        }
    }

    /// Pointer and touch events since the owner last took them. Kept here,
    /// not in the devices, so a device that goes mid-batch loses none.
    private var pointerEvents: [PointerRecord] = []
    private var touchEvents: [TouchRecord] = []

    func record(_ event: PointerRecord) { pointerEvents.append(event) }
    func record(_ event: TouchRecord) { touchEvents.append(event) }

    /// The pointer events recorded since the last call, oldest first.
    package func takePointerEvents() -> [PointerRecord] {
        defer { pointerEvents.removeAll() }
        return pointerEvents
    }

    /// The touch events recorded since the last call, oldest first.
    package func takeTouchEvents() -> [TouchRecord] {
        defer { touchEvents.removeAll() }
        return touchEvents
    }

    /// Destroys the devices' objects and the seat.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        keyboard.destroy()
        pointer?.destroy()
        pointer = nil
        touch?.destroy()
        touch = nil
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }
}

private nonisolated(unsafe) var seatListener = wl_seat_listener(
    capabilities: { data, _, caps in
        deliver(data, to: Seat.self) { $0.capabilities(caps) }
    },
    name: { _, _, _ in }
)

/// Surface-local coordinates from the protocol's 24.8 fixed point.
@inline(__always)
func fixedToDouble(_ value: wl_fixed_t) -> Double { Double(value) / 256 }
