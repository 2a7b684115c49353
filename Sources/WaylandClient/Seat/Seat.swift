import CWayland

/// One input event of the seat, in the order the compositor sent it.
package enum InputRecord {
    case key(KeyboardEvent)
    case pointer(PointerRecord)
    case touch(TouchRecord)
}

/// The bound `wl_seat`: its capabilities make and release the keyboard,
/// pointer and touch objects. One listener per proxy is all libwayland
/// allows, so the seat hears capabilities and hands each device its part.
/// The listener only records the capabilities; the devices' objects are
/// made and released after the batch (`settle`).
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
    /// The capabilities the compositor announced last, not yet acted on.
    private var pendingCapabilities: UInt32?

    /// Listens to `proxy` at once, before its first events are dispatched.
    init(compositor: Compositor, proxy: OpaquePointer, version: UInt32) {
        self.compositor = compositor
        self.proxy = proxy
        self.version = version
        keyboard = Keyboard(connection: compositor.connection, seat: proxy, seatVersion: version) { [weak compositor] in
            compositor?.surface(forProxy: $0)
        }
        keyboard.onEvent = { [unowned self] in self.input.append(.key($0)) }
        wl_seat_add_listener(proxy, &seatListener, userData(self))
    }

    func capabilities(_ caps: UInt32) {
        guard !isDestroyed else { return }
        pendingCapabilities = caps
    }

    /// Makes and releases the devices' objects for the capabilities the
    /// last batch announced, and answers a pointer's enter with the arrow;
    /// after the batch, never inside a listener.
    func settle() {
        guard !isDestroyed else { return }
        if let caps = pendingCapabilities {
            pendingCapabilities = nil
            apply(caps)
        }
        pointer?.settle()
    }

    private func apply(_ caps: UInt32) {
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

    /// Key, pointer and touch events since the owner last took them, in
    /// one stream: kept here, not in the devices, so their order survives
    /// and a device that goes mid-batch loses none.
    private var input: [InputRecord] = []

    func record(_ event: PointerRecord) { input.append(.pointer(event)) }
    func record(_ event: TouchRecord) { input.append(.touch(event)) }

    /// The input recorded since the last call, in the order the compositor
    /// sent it.
    package func takeInput() -> [InputRecord] {
        // Keys a fresh keyboard found held, if no modifiers event let them out yet.
        keyboard.deliverHeldAtEnter()
        defer { input.removeAll() }
        return input
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
