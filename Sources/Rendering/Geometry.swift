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

/// The largest rectangle with the content's aspect ratio that fits inside
/// `intoWidth` x `intoHeight`, centred (letterbox or pillarbox bars share the
/// leftover space; an odd leftover pixel goes to the right/bottom bar).
///
/// Integer arithmetic throughout so the result does not depend on floating
/// point rounding: the fitted side is rounded to the nearest pixel. Content
/// with a non-positive dimension has no aspect ratio, so it fills the area.
/// A non-positive area yields an empty rectangle at the origin.
package func aspectFit(
    contentWidth: Int, contentHeight: Int, intoWidth: Int, intoHeight: Int
) -> PixelRect {
    guard intoWidth > 0, intoHeight > 0 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
    guard contentWidth > 0, contentHeight > 0 else {
        return PixelRect(x: 0, y: 0, width: intoWidth, height: intoHeight)
    }
    var width: Int
    var height: Int
    // Compare cw/ch with W/H by cross-multiplying.
    if contentWidth * intoHeight <= intoWidth * contentHeight {
        height = intoHeight
        width = (2 * contentWidth * intoHeight + contentHeight) / (2 * contentHeight)
    } else {
        width = intoWidth
        height = (2 * contentHeight * intoWidth + contentWidth) / (2 * contentWidth)
    }
    width = max(1, min(width, intoWidth))
    height = max(1, min(height, intoHeight))
    return PixelRect(
        x: (intoWidth - width) / 2, y: (intoHeight - height) / 2, width: width, height: height)
}
