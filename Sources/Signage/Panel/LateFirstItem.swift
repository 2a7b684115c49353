public import Screenplay

/// A panel's first item that would reach the screen only after its slot
/// (drawn once GL is up, or ready after its slot: a video's first picture,
/// a page rendered at a slot's end). Shown then, it flashed for a frame or
/// two into the next item's slot, and proof of play logged two items in
/// that second; so it is passed over, and nothing starts until its slot
/// ends (it would be that item again, as late), then the clock's next.
@MainActor
public struct LateFirstItem {
    /// First items passed over as late: a few at most, so a box too slow
    /// for any slot still shows something.
    private var skips = 0
    /// The end of the slot of a first item passed over as late.
    private var notBefore: Double?

    /// Whether item `index`, drawn now on `scene`, would reach the screen
    /// after its slot ends, and may still be passed over.
    public func isLate(_ index: Int, in schedule: PlaySchedule, now: Double, scene: Scene) -> Bool {
        isLate(index, in: schedule, now: now, refresh: scene.displayLink.duration)
    }

    /// `isLate` for a screen refreshing every `refresh` seconds.
    public func isLate(_ index: Int, in schedule: PlaySchedule, now: Double, refresh: Double) -> Bool {
        skips < 3 && schedule.slotEnds(of: index, before: now, latency: Self.drawToScreen(refresh: refresh))
    }

    /// Passes over item `index`; the end of its slot, when the panel looks
    /// again, or nil when that slot is over already.
    public mutating func passOver(_ index: Int, in schedule: PlaySchedule, now: Double) -> Double? {
        skips += 1
        let position = schedule.position(at: now)
        guard position.index == index else { return nil }
        notBefore = position.end
        return position.end
    }

    /// While a passed-over item's slot lasts, its end; nil once it is over.
    public mutating func wait(now: Double) -> Double? {
        guard let notBefore else { return nil }
        if now < notBefore { return notBefore }
        self.notBefore = nil
        return nil
    }

    /// Whether a first item may start now (no passed-over slot lasts).
    public func allowsStart(now: Double) -> Bool { now >= notBefore ?? now }

    /// None passed over yet.
    public init() {}

    /// How long a panel's first frame, drawn now, may take to reach the
    /// screen: its first paint (shaders compiled, textures uploaded), the
    /// wait for the compositor's next refresh and its render. A quarter of a
    /// second leaves room for a loaded machine: 90 ms was seen beside busy
    /// cores here, and with 0.1 s a fresh CI machine once logged two items
    /// in a panel's first second, most likely a first item reaching the
    /// screen after its slot. An item with less of its slot left would only
    /// flash, so grey until the boundary costs nothing seen.
    static func drawToScreen(refresh: Double) -> Double { max(3 * refresh, 0.25) }
}
