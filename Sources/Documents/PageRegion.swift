import Geometry

/// A part of a page in fractions of its size (0...1, from the top left).
public struct PageRegion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole page.
    public static let whole = PageRegion(x: 0, y: 0, width: 1, height: 1)
    public static let leftHalf = PageRegion(x: 0, y: 0, width: 0.5, height: 1)
    public static let rightHalf = PageRegion(x: 0.5, y: 0, width: 0.5, height: 1)
    public static let topHalf = PageRegion(x: 0, y: 0, width: 1, height: 0.5)
    public static let bottomHalf = PageRegion(x: 0, y: 0.5, width: 1, height: 0.5)
}

/// The largest rectangle of the content's aspect that fits, centred, in
/// whole pixels (the package's one aspect-fit, `Geometry.aspectFitRect`).
public func fitRect(contentWidth: Double, contentHeight: Double, width: Int, height: Int) -> (
    x: Int, y: Int, width: Int, height: Int
) {
    aspectFitRect(contentWidth: contentWidth, contentHeight: contentHeight, intoWidth: width, intoHeight: height)
}
