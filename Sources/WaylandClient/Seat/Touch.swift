import CWayland

/// One touch event, in the surface's own coordinates (logical units).
package struct TouchRecord {
    package enum Kind: Equatable { case down, motion, up, cancel }
    package var kind: Kind
    /// The compositor's id for this touch point, unique while it is down.
    package var id: Int32
    package var x: Double
    package var y: Double
    /// The surface the touch went down on (nil: none of ours).
    package weak var surface: Surface?
}

/// The seat's `wl_touch`. A touch point belongs to the surface it went down
/// on until it is lifted; motion and up name only its id, so the points
/// down now are kept here. Listeners only record.
@MainActor
package final class Touch {
    private unowned let seat: Seat
    private let compositor: Compositor
    private let proxy: OpaquePointer
    private let seatVersion: UInt32
    private var points: [Int32: (surface: Surface?, x: Double, y: Double)] = [:]

    init(seat: Seat, compositor: Compositor, proxy: OpaquePointer, seatVersion: UInt32) {
        self.seat = seat
        self.compositor = compositor
        self.proxy = proxy
        self.seatVersion = seatVersion
        wl_touch_add_listener(proxy, &touchListener, userData(self))
    }

    func down(surface: OpaquePointer?, id: Int32, x: Double, y: Double) {
        let target = compositor.surface(forProxy: surface)
        points[id] = (target, x, y)
        guard let target else { return }
        seat.record(TouchRecord(kind: .down, id: id, x: x, y: y, surface: target))
    }

    func motion(id: Int32, x: Double, y: Double) {
        guard let point = points[id] else { return }
        points[id] = (point.surface, x, y)
        guard let surface = point.surface else { return }
        seat.record(TouchRecord(kind: .motion, id: id, x: x, y: y, surface: surface))
    }

    func up(id: Int32) {
        guard let point = points.removeValue(forKey: id), let surface = point.surface else { return }
        seat.record(TouchRecord(kind: .up, id: id, x: point.x, y: point.y, surface: surface))
    }

    /// The compositor took the touches over (a gesture): every point down
    /// now ends, cancelled, at its last position.
    func cancelAll() {
        for (id, point) in points.sorted(by: { $0.key < $1.key }) {
            guard let surface = point.surface else { continue }
            seat.record(TouchRecord(kind: .cancel, id: id, x: point.x, y: point.y, surface: surface))
        }
        points.removeAll()
    }

    func destroy() {
        points.removeAll()
        if seatVersion >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
    }
}

private nonisolated(unsafe) var touchListener = wl_touch_listener(
    down: { data, _, _, _, surface, id, x, y in
        let raw = surface.map { UInt(bitPattern: $0) }
        deliver(data, to: Touch.self) {
            $0.down(
                surface: raw.flatMap { OpaquePointer(bitPattern: $0) }, id: id, x: fixedToDouble(x), y: fixedToDouble(y)
            )
        }
    },
    up: { data, _, _, _, id in
        deliver(data, to: Touch.self) { $0.up(id: id) }
    },
    motion: { data, _, _, id, x, y in
        deliver(data, to: Touch.self) { $0.motion(id: id, x: fixedToDouble(x), y: fixedToDouble(y)) }
    },
    frame: { _, _ in },
    cancel: { data, _ in
        deliver(data, to: Touch.self) { $0.cancelAll() }
    },
    shape: { _, _, _, _, _ in },
    orientation: { _, _, _, _ in }
)
