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
    let target: any RenderTarget
    let resources: GraphicsResources
    /// Run by the scene right after the buffer is swapped (video reports
    /// its swaps to mpv).
    var afterPresent: [() -> Void] = []

    init(target: any RenderTarget, resources: GraphicsResources, redrawRect: SceneRect? = nil) {
        self.target = target
        self.resources = resources
        pixelWidth = target.pixelWidth
        pixelHeight = target.pixelHeight
        self.redrawRect = redrawRect ?? SceneRect(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
        // Alpha 1 across a window buffer before anything is drawn (see
        // QuadRenderer.beginFrame). A GL failure here fails the frame's
        // first draw call too, which reports it.
        try? resources.quads().beginFrame(on: target)
    }

    /// Fills the whole buffer with `color` (of a partial frame, the part
    /// repainted: ``redrawRect``).
    public func clear(_ color: RGBColor) throws {
        try resources.quads().clear(red: color.red, green: color.green, blue: color.blue, on: target)
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
        guard radius > 0 else { return }
        let left = Int((centerX - radius - 1).rounded(.down)), top = Int((centerY - radius - 1).rounded(.down))
        let side = Int((2 * radius + 2).rounded(.up)) + 1
        try fillDisc(
            PixelRect(x: left, y: top, width: side, height: side), color: color, opacity: opacity, centerX: centerX,
            centerY: centerY, radius: radius, outside: false)
    }

    /// Fills a rectangle with `color` at `opacity` (0...1) everywhere except
    /// the disc around (`centerX`, `centerY`): a spotlight that darkens all
    /// but a circle. The disc's edge is anti-aliased.
    public func fillOutsideCircle(
        x: Int, y: Int, width: Int, height: Int, centerX: Double, centerY: Double, radius: Double, color: RGBColor,
        opacity: Double = 1
    ) throws {
        try fillDisc(
            PixelRect(x: x, y: y, width: width, height: height), color: color, opacity: opacity, centerX: centerX,
            centerY: centerY, radius: radius, outside: true)
    }

    private func fillDisc(
        _ rect: PixelRect, color: RGBColor, opacity: Double, centerX: Double, centerY: Double, radius: Double,
        outside: Bool
    ) throws {
        var tinted = color.rendering
        tinted.alpha = min(max(opacity, 0), 1)
        try resources.quads().fill(
            rect, color: tinted, circleX: centerX, circleY: centerY, radius: radius, outside: outside, on: target)
    }

    /// Draws a picture fitted to the buffer, aspect kept, letterboxed in
    /// `background`.
    public func drawFitted(_ picture: Picture, background: RGBColor = .black) throws {
        try clear(background)
        let rect = aspectFit(
            contentWidth: picture.width, contentHeight: picture.height, intoWidth: pixelWidth, intoHeight: pixelHeight)
        try draw(picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// Draws `picture` fitted into `rect` when it covers all of it and has
    /// no transparent pixel, so nothing under it shows through, and returns
    /// true; otherwise draws nothing and returns false. A layout's photo
    /// region is then one scissored quad, not a layer cleared, drawn, made
    /// opaque and copied.
    public func drawCovering(_ picture: Picture, in rect: SceneRect) throws -> Bool {
        let fit = aspectFit(
            contentWidth: picture.width, contentHeight: picture.height, intoWidth: rect.width,
            intoHeight: rect.height)
        guard fit.x == 0, fit.y == 0, fit.width == rect.width, fit.height == rect.height, picture.isOpaque else {
            return false
        }
        try draw(picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return true
    }

    /// Draws a picture into a rectangle (stretched to it).
    public func draw(_ picture: Picture, x: Int, y: Int, width: Int, height: Int, opacity: Double = 1) throws {
        let texture = try resources.texture(for: picture)
        try resources.quads().draw(
            texture, in: PixelRect(x: x, y: y, width: width, height: height), on: target, opacity: opacity)
    }

    /// Runs a fragment shader over the whole buffer, with its `uniforms`
    /// and `textures`.
    public func draw(_ shader: FragmentShader, time: Double, frame: Int) throws {
        let program = try resources.program(for: shader)
        var textures: [String: Texture] = [:]
        for (name, picture) in shader.textures { textures[name] = try resources.texture(for: picture) }
        try program.draw(
            on: target, time: time, frame: frame, uniforms: shader.uniforms.mapValues(\.uniform), textures: textures)
    }

    /// Reads back pixels drawn so far in this frame (RGBA rows, top first).
    /// For checks, not per-frame use.
    public func readPixels(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        try target.readPixels(x: x, y: y, width: width, height: height)
    }
}
