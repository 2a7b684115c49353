import Geometry

/// An integer rectangle in pixels, origin at the top-left of its target.
package struct PixelRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// The part shared with `other`, nil when they do not overlap.
    package func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width)
        let y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// A straight (not premultiplied) RGBA colour with components in 0...1.
package struct Color: Equatable, Sendable {
    package var red: Double
    package var green: Double
    package var blue: Double
    package var alpha: Double

    package init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    package static let black = Color(red: 0, green: 0, blue: 0)
    package static let white = Color(red: 1, green: 1, blue: 1)
}

/// `Geometry.aspectFitRect` for whole-pixel content, as a `PixelRect`.
package func aspectFit(
    contentWidth: Int, contentHeight: Int, intoWidth: Int, intoHeight: Int
) -> PixelRect {
    let fit = aspectFitRect(
        contentWidth: Double(contentWidth), contentHeight: Double(contentHeight), intoWidth: intoWidth,
        intoHeight: intoHeight)
    return PixelRect(x: fit.x, y: fit.y, width: fit.width, height: fit.height)
}
