import Rendering

/// A part of a larger canvas that one target shows: a video wall's tile
/// shows its part of the wall. The content is drawn at the canvas's size
/// into a layer, and the part is shown over the whole target; where the
/// part is the target's size, canvas pixels are the target's, one to one,
/// otherwise the part is stretched to fit. A canvas that is one shared
/// picture at its own size (a wall's video), shown one to one on a window
/// presenting through wl_shm, is not drawn: the tile reads its part of the
/// picture straight into its buffer (`LayerComposite.part`).
public struct CanvasPart: Hashable, Sendable {
    /// The canvas's width: what is drawn is drawn at the canvas's size.
    public var canvasWidth: Int
    /// The canvas's height.
    public var canvasHeight: Int
    /// The left edge of the part in the canvas.
    public var x: Int
    /// The top edge of the part in the canvas.
    public var y: Int
    /// The width of the part.
    public var width: Int
    /// The height of the part.
    public var height: Int

    /// The part at (`x`, `y`), `width` x `height`, of a `canvasWidth` x `canvasHeight` canvas.
    public init(canvasWidth: Int, canvasHeight: Int, x: Int, y: Int, width: Int, height: Int) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Draws `body` as if `context` were the whole canvas, and shows this
    /// part of it over all of `context`.
    @MainActor
    public func draw(on context: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        guard width > 0, height > 0, canvasWidth > 0, canvasHeight > 0 else { return }
        let across = Double(context.pixelWidth) / Double(width), down = Double(context.pixelHeight) / Double(height)
        let rect = PixelRect(
            x: Int((-Double(x) * across).rounded()), y: Int((-Double(y) * down).rounded()),
            width: Int((Double(canvasWidth) * across).rounded()), height: Int((Double(canvasHeight) * down).rounded()))
        var composite = LayerComposite(rect: rect, width: canvasWidth, height: canvasHeight)
        // One to one over a frame that may be one shared picture: a canvas
        // that is one (a wall's video) is read back part by part, undrawn.
        if context.pixelWidth == width, context.pixelHeight == height,
            context.frameInProgress.deferred.mayHoldShared
        {
            composite.part = self
        }
        try composite.draw(on: context, body)
    }
}
