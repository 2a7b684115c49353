import Rendering

/// Drawing into a scene's buffer for one frame. Coordinates are device
/// pixels with the origin at the top left, as the viewer sees the screen.
@MainActor
public final class DrawingContext {
    /// Width of the drawing target in device pixels.
    public let pixelWidth: Int
    /// Height of the drawing target in device pixels.
    public let pixelHeight: Int
    /// The part of the buffer this frame repaints: the whole buffer, or on a
    /// frame asked for with ``Scene/setNeedsDisplay(in:)`` the box around
    /// what changed (and what the reused buffer missed). Drawing outside it
    /// is clipped and the pixels there keep the last frame's content, so
    /// drawing everything is correct; a delegate may skip what lies
    /// outside to save the work.
    public let redrawRect: SceneRect
    /// The frame drawn into: its target, the shared GL objects, what it put
    /// off and what runs once it is presented and shown.
    let frameInProgress: FrameInProgress
    /// What every drawing call draws on, what the frame put off settled
    /// first (`FrameInProgress.target`).
    var target: any RenderTarget { frameInProgress.target }
    /// The shared GL objects, brought up at the first call that needs them.
    var resources: GraphicsResources {
        get throws { try frameInProgress.resources }
    }

    convenience init(target: any RenderTarget, resources: GraphicsResources, redrawRect: SceneRect? = nil) {
        self.init(target: target, resources: { resources }, redrawRect: redrawRect)
    }

    init(target: any RenderTarget, resources: @escaping () throws -> GraphicsResources, redrawRect: SceneRect? = nil) {
        frameInProgress = FrameInProgress(target: target, resources: resources)
        pixelWidth = target.pixelWidth
        pixelHeight = target.pixelHeight
        self.redrawRect = redrawRect ?? SceneRect(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
    }

    /// Fills the whole buffer with `color` (of a partial frame, the part
    /// repainted: ``redrawRect``).
    public func clear(_ color: RGBColor) throws {
        try resources.quads().clear(red: color.red, green: color.green, blue: color.blue, on: target)
        frameInProgress.cleared(to: color)
    }

    /// Fills a rectangle with `color`.
    public func fill(x: Int, y: Int, width: Int, height: Int, color: RGBColor) throws {
        try resources.quads().fill(
            PixelRect(x: x, y: y, width: width, height: height), color: color.rendering, on: target)
    }

    /// Fills a disc around (`centerX`, `centerY`) with `color` at
    /// `opacity` (0...1), blended over what is there, its edge anti-aliased
    /// (a laser-pointer dot).
    public func fillCircle(centerX: Double, centerY: Double, radius: Double, color: RGBColor, opacity: Double = 1)
        throws
    {
        try DiscFill(centerX: centerX, centerY: centerY, radius: radius, color: color, opacity: opacity).disc(on: self)
    }

    /// Fills a rectangle with `color` at `opacity` (0...1) everywhere except
    /// the disc around (`centerX`, `centerY`): a spotlight that darkens all
    /// but a circle. The disc's edge is anti-aliased.
    public func fillOutsideCircle(
        x: Int, y: Int, width: Int, height: Int, centerX: Double, centerY: Double, radius: Double, color: RGBColor,
        opacity: Double = 1
    ) throws {
        try DiscFill(centerX: centerX, centerY: centerY, radius: radius, color: color, opacity: opacity).outside(
            in: PixelRect(x: x, y: y, width: width, height: height), on: self)
    }

    /// Draws a picture fitted to the buffer, aspect kept, letterboxed in
    /// `background`.
    public func drawFitted(_ picture: Picture, background: RGBColor = .black) throws {
        try PictureDrawer(on: self).fitted(picture, background: background)
    }

    /// Draws `picture` fitted into `rect` when it covers all of it and has
    /// no transparent pixel, so nothing under it shows through, and returns
    /// true; otherwise draws nothing and returns false. A layout's photo
    /// region is then one scissored quad, not a layer cleared, drawn, made
    /// opaque and copied.
    public func drawCovering(_ picture: Picture, in rect: SceneRect) throws -> Bool {
        try PictureDrawer(on: self).covering(picture, in: rect)
    }

    /// Draws a picture into a rectangle (stretched to it).
    public func draw(_ picture: Picture, x: Int, y: Int, width: Int, height: Int, opacity: Double = 1) throws {
        try PictureDrawer(on: self).stretched(
            picture, to: PixelRect(x: x, y: y, width: width, height: height), opacity: opacity)
    }

    /// Runs a fragment shader over the whole buffer, with its `uniforms`
    /// and `textures`.
    public func draw(_ shader: FragmentShader, time: Double, frame: Int) throws {
        try shader.draw(on: self, time: time, frame: frame)
    }

    /// Reads back pixels drawn so far in this frame (RGBA rows, top first).
    /// For checks, not per-frame use.
    public func readPixels(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        try target.readPixels(x: x, y: y, width: width, height: height)
    }
}
