import Rendering

/// Horizontal placement of a text block within its box.
public enum TextAlign: Sendable {
    case left, center, right
}

extension DrawingContext {
    /// Lays out `text` with Pango, wrapped at words to `maxWidth`, and draws
    /// it with its box's top-left at (`x`, `y`). Lines beyond `maxHeight`
    /// are cut off. For consoles and labels redrawn now and then (each call
    /// lays out and uploads the text once), not for per-frame text.
    /// - Returns: the height drawn, in pixels.
    @discardableResult
    public func drawText(
        _ text: String, x: Int, y: Int, maxWidth: Int, maxHeight: Int? = nil, pixelHeight: Int, color: RGBColor,
        alignment: TextAlign = .left, font: String = "Sans"
    ) throws -> Int {
        guard !text.isEmpty, maxWidth > 0 else { return 0 }
        let description = "\(font) \(max(1, pixelHeight))px"
        let probe = try Canvas(width: 1, height: 1)
        let size = probe.textSize(text, font: description, maxWidth: Double(maxWidth))
        let height = min(max(1, size.height), max(1, maxHeight ?? size.height), Canvas.maxSide)
        let canvas = try Canvas(width: min(maxWidth, Canvas.maxSide), height: height)
        canvas.clear()
        let anchor: Double
        let rendering: Rendering.TextAlignment
        switch alignment {
        case .left: (anchor, rendering) = (0, .left)
        case .center: (anchor, rendering) = (Double(canvas.width) / 2, .center)
        case .right: (anchor, rendering) = (Double(canvas.width), .right)
        }
        canvas.drawText(
            text, x: anchor, y: 0, font: description, color: color.rendering, alignment: rendering,
            maxWidth: Double(canvas.width))
        let texture = try canvas.makeTexture(context: resources.context)
        defer { texture.destroy() }
        try resources.quads().draw(
            texture, in: PixelRect(x: x, y: y, width: canvas.width, height: height), on: target)
        return height
    }
}

extension Application {
    /// Frees the GPU copy of a picture the app will not draw again. Textures
    /// are cached per picture; an app that makes many pictures (a slide
    /// cache) calls this before letting one go.
    public func releaseResources(of picture: Picture) {
        try? resources().release(picture)
    }
}
