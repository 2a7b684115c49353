import Rendering

/// A rectangle of a scene's buffer in device pixels, origin at the top
/// left: the coordinates `DrawingContext` draws in. The rectangle a scene
/// repaints (``Scene/setNeedsDisplay(in:)``, ``DrawingContext/redrawRect``).
public struct SceneRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, in device pixels from the buffer's left.
    public var x: Int
    /// Top edge, in device pixels from the buffer's top.
    public var y: Int
    /// Width in device pixels.
    public var width: Int
    /// Height in device pixels.
    public var height: Int

    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// How many pixels it covers.
    public var area: Int { isEmpty ? 0 : width * height }

    /// The part of this rectangle inside `other` (an empty rectangle when
    /// they do not overlap).
    public func intersection(_ other: SceneRect) -> SceneRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        guard right > left, bottom > top else { return SceneRect(x: 0, y: 0, width: 0, height: 0) }
        return SceneRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ other: SceneRect) -> SceneRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return SceneRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// "WxH+X+Y", as X geometry strings and `--stats` write rectangles.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    var pixelRect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
}
