/// A mouse or touchpad button, by its Linux input event code (as
/// `wl_pointer.button` sends it).
public struct PointerButton: RawRepresentable, Hashable, Sendable {
    /// The evdev code (`BTN_LEFT` is 0x110).
    public var rawValue: UInt32
    /// Makes a button from its evdev code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The primary button (`BTN_LEFT`).
    public static let left = PointerButton(rawValue: 0x110)
    /// The secondary button (`BTN_RIGHT`).
    public static let right = PointerButton(rawValue: 0x111)
    /// The wheel button (`BTN_MIDDLE`).
    public static let middle = PointerButton(rawValue: 0x112)
}

/// A pointer event on an application window. Positions are in the scene's
/// device pixels, origin at the top left, the space `DrawingContext` draws
/// in: a window at scale 2 (or 1.5 with fractional scaling) gets positions
/// scaled to match, so hit tests compare directly with drawn rectangles.
public struct PointerEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The pointer came over the window.
        case entered
        /// The pointer left the window (the position is where it was last).
        case left
        /// The pointer moved over the window.
        case moved
        /// A button went down.
        case pressed(PointerButton)
        /// A button came up.
        case released(PointerButton)
        /// A wheel or touchpad scroll, in device pixels along each axis
        /// (positive is right and down).
        case scrolled(dx: Double, dy: Double)
    }
    /// What happened.
    public var kind: Kind
    /// Horizontal position in device pixels from the window's left edge.
    public var x: Double
    /// Vertical position in device pixels from the window's top edge.
    public var y: Double

    /// Makes an event (for tests of a delegate).
    public init(kind: Kind, x: Double, y: Double) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

/// A touch event on an application window, in the scene's device pixels
/// (see `PointerEvent`).
public struct TouchEvent: Sendable, Equatable {
    /// What happened to the touch point.
    public enum Kind: Sendable, Equatable {
        /// A finger touched the window.
        case began
        /// It moved.
        case moved
        /// It was lifted (the position is where it was last).
        case ended
        /// The compositor took the touch over (a gesture) or the touch
        /// device went away: forget it, do not act on it as a tap.
        case cancelled
    }
    /// What happened.
    public var kind: Kind
    /// The touch point's id, the same from `began` to `ended` or
    /// `cancelled`; several fingers down at once have different ids.
    public var id: Int
    /// Horizontal position in device pixels from the window's left edge.
    public var x: Double
    /// Vertical position in device pixels from the window's top edge.
    public var y: Double

    /// Makes an event (for tests of a delegate).
    public init(kind: Kind, id: Int, x: Double, y: Double) {
        self.kind = kind
        self.id = id
        self.x = x
        self.y = y
    }
}

extension SceneDelegate {
    /// Ignores pointer events.
    public func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {}
    /// Ignores touch events.
    public func scene(_ scene: Scene, didReceiveTouch event: TouchEvent) {}
}
