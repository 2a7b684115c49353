/// The largest rectangle with the content's aspect ratio that fits inside
/// `intoWidth` x `intoHeight`, centred (letterbox or pillarbox bars share
/// the leftover space; an odd leftover pixel goes to the right/bottom bar).
/// The one aspect-fit of the package: Rendering fits pictures and video
/// with it, Documents fits PDF pages (in points) with it.
///
/// The fitted side is the exact quotient rounded to the nearest pixel, half
/// up: for whole-pixel content every product and quotient here is exact in
/// a Double (sizes far below 2^26), so the result does not depend on
/// floating-point rounding. Content with a non-positive dimension has no
/// aspect ratio, so it fills the area; a non-positive area yields an empty
/// rectangle at the origin.
package func aspectFitRect(
    contentWidth: Double, contentHeight: Double, intoWidth: Int, intoHeight: Int
) -> (x: Int, y: Int, width: Int, height: Int) {
    guard intoWidth > 0, intoHeight > 0 else { return (0, 0, 0, 0) }
    guard contentWidth > 0, contentHeight > 0, contentWidth.isFinite, contentHeight.isFinite else {
        return (0, 0, intoWidth, intoHeight)
    }
    var width: Int
    var height: Int
    // Compare cw/ch with W/H by cross-multiplying.
    if contentWidth * Double(intoHeight) <= Double(intoWidth) * contentHeight {
        height = intoHeight
        width = Int((contentWidth * Double(intoHeight) / contentHeight).rounded(.toNearestOrAwayFromZero))
    } else {
        width = intoWidth
        height = Int((contentHeight * Double(intoWidth) / contentWidth).rounded(.toNearestOrAwayFromZero))
    }
    width = max(1, min(width, intoWidth))
    height = max(1, min(height, intoHeight))
    return ((intoWidth - width) / 2, (intoHeight - height) / 2, width, height)
}
