import Rendering

/// Horizontal placement of a text block within its box.
public enum TextAlign: Sendable {
    /// Lines start at the box's left edge.
    case left
    /// Lines are centred in the box.
    case center
    /// Lines end at the box's right edge.
    case right
}

extension DrawingContext {
    /// Lays out `text` with Pango, wrapped at words to `maxWidth`, and draws
    /// it with its box's top-left at (`x`, `y`). Lines beyond `maxHeight`
    /// are cut off. The laid-out block is kept as a texture (per text, font,
    /// size, colour, box and alignment; the 16 most recently drawn are kept)
    /// and drawn only where it has ink, so text that does not change costs a
    /// few textured rectangles a frame and a change costs one layout.
    /// With `markup`, `text` is Pango markup (`<b>`, `<i>`, `<tt>`,
    /// `<span size="larger">`; `&amp;` for &); markup that does not parse
    /// is drawn as the plain text it is.
    /// - Returns: the height drawn, in pixels.
    @discardableResult
    public func drawText(
        _ text: String, x: Int, y: Int, maxWidth: Int, maxHeight: Int? = nil, pixelHeight: Int, color: RGBColor,
        alignment: TextAlign = .left, font: String = "Sans", markup: Bool = false
    ) throws -> Int {
        guard !text.isEmpty, maxWidth > 0 else { return 0 }
        return try TextDrawer(on: self).block(
            text, x: x, y: y, maxWidth: maxWidth, maxHeight: maxHeight, pixelHeight: pixelHeight, color: color,
            alignment: alignment, font: font, markup: markup)
    }

    /// The size `drawText(_:x:y:maxWidth:maxHeight:pixelHeight:color:alignment:font:)`
    /// gives the same text before it is drawn, so a caller can place the
    /// block (centre it vertically, scroll it) without drawing it twice.
    /// It lays the text out with pango each call: keep the answer while the
    /// text stays the same.
    /// - Parameters:
    ///   - text: the text, as it will be drawn.
    ///   - maxWidth: the wrapping width; nil lays the text out on lines of
    ///     any length (a ticker's one long line).
    ///   - pixelHeight: the font size in pixels, as drawText takes it.
    ///   - font: a pango family and style without a size ("Sans Bold").
    /// - Returns: the laid-out width and height in pixels (the width of the
    ///   longest line, at most `maxWidth`).
    public func textSize(_ text: String, maxWidth: Int?, pixelHeight: Int, font: String = "Sans") throws -> (
        width: Int, height: Int
    ) {
        guard !text.isEmpty else { return (0, 0) }
        return try TextTypesetting.size(text, maxWidth: maxWidth, pixelHeight: pixelHeight, font: font)
    }

    /// Draws `text` on one line, never wrapped, with its top-left at
    /// (`x`, `y`): a ticker's line, scrolled a fraction of a pixel each
    /// refresh. `x` may be fractional (the line is then sampled between
    /// pixels, so a step of 1.6 pixels a refresh moves it 1.6 pixels, not
    /// 1 or 2) and may put the line partly outside the target. The laid-out
    /// line is kept as a texture, as `drawText` keeps its blocks, so
    /// scrolling costs one textured rectangle a frame; it is one texture,
    /// so a line longer than the GPU's largest texture throws.
    /// - Parameters:
    ///   - text: the line; a newline in it starts a second line.
    ///   - x: the line's left edge in pixels, fractions included.
    ///   - y: the line's top in pixels.
    ///   - pixelHeight: the font size in pixels.
    ///   - color: the text's colour.
    ///   - font: a pango family and style without a size ("Sans Bold").
    /// - Returns: the line's width in pixels.
    @discardableResult
    public func drawTextLine(
        _ text: String, x: Double, y: Int, pixelHeight: Int, color: RGBColor, font: String = "Sans"
    ) throws -> Int {
        guard !text.isEmpty, x.isFinite else { return 0 }
        return try TextDrawer(on: self).line(text, x: x, y: y, pixelHeight: pixelHeight, color: color, font: font)
    }

    /// Draws lines of text (pango), centred as a block, each line at its
    /// own pixel height. The block is kept as a texture (see
    /// `drawText(_:x:y:maxWidth:maxHeight:pixelHeight:color:alignment:font:)`):
    /// a scoreboard redrawn every frame lays its text out only when it changes.
    public func drawText(lines: [(text: String, pixelHeight: Int)], color: RGBColor, font: String = "Sans") throws {
        try TextDrawer(on: self).centred(lines, color: color, font: font)
    }
}

extension Application {
    /// Frees the GPU copy of a picture the app will not draw again, now.
    /// Textures are cached per picture and held only while the picture
    /// lives: a dropped picture's texture is freed before the next upload
    /// anyway, so this is for freeing it at a moment of the app's choosing
    /// (before a large upload, or while keeping the picture for later).
    public func releaseResources(of picture: Picture) {
        CurrentContext.preserving { graphics.resourcesIfMade?.release(picture) }
    }
}

/// Text drawn on a frame from the cache of laid-out blocks
/// (`GraphicsResources.text`): the key its look makes, its layout on a
/// miss (`TextTypesetting`), and the block's inked parts drawn. The calls
/// that take it, with what they promise, are `DrawingContext`'s.
@MainActor
struct TextDrawer {
    let context: DrawingContext

    init(on context: DrawingContext) { self.context = context }

    /// A wrapped block with its top-left at (`x`, `y`); the height drawn.
    func block(
        _ text: String, x: Int, y: Int, maxWidth: Int, maxHeight: Int?, pixelHeight: Int, color: RGBColor,
        alignment: TextAlign, font: String, markup: Bool
    ) throws -> Int {
        let key = TextKey(
            lines: [text], pixelHeights: [max(1, pixelHeight)], font: font, color: color, maxWidth: maxWidth,
            maxHeight: maxHeight, alignment: alignment, markup: markup)
        let block = try context.resources.text(key) {
            try TextTypesetting.block(
                text, pixelHeight: pixelHeight, maxWidth: maxWidth, maxHeight: maxHeight, color: color,
                alignment: alignment, font: font, markup: markup)
        }
        try draw(block, x: x, y: y)
        return block.texture.height
    }

    /// One unwrapped line at a fractional `x`; its width.
    func line(_ text: String, x: Double, y: Int, pixelHeight: Int, color: RGBColor, font: String) throws -> Int {
        // Width 0 in the key: an unwrapped line, never one of drawText's boxes.
        let key = TextKey(
            lines: [text], pixelHeights: [max(1, pixelHeight)], font: font, color: color, maxWidth: 0,
            maxHeight: nil, alignment: .left)
        let block = try context.resources.text(key) {
            try TextTypesetting.line(text, pixelHeight: pixelHeight, color: color, font: font)
        }
        let (width, height) = (block.texture.width, block.texture.height)
        // Between pixels, each edge texel blends into the pixel beyond it:
        // the whole line and a texel either side (clamped: transparent).
        let regions =
            x == x.rounded() && abs(x) < 1e9
            ? block.ink(x: Int(x), y: y) : [Rendering.PixelRect(x: -1, y: 0, width: width + 2, height: height)]
        try context.resources.quads().draw(block.texture, regions: regions, x: x, y: Double(y), on: context.target)
        return width
    }

    /// Lines, each at its own pixel height, centred as a block on the whole target.
    func centred(_ lines: [(text: String, pixelHeight: Int)], color: RGBColor, font: String) throws {
        let pixelWidth = context.pixelWidth, pixelHeight = context.pixelHeight
        let key = TextKey(
            lines: lines.map(\.text), pixelHeights: lines.map { max(1, $0.pixelHeight) }, font: font, color: color,
            maxWidth: pixelWidth, maxHeight: pixelHeight, alignment: .center)
        let block = try context.resources.text(key) {
            try TextTypesetting.centredLines(
                lines, color: color, font: font, maxWidth: pixelWidth, maxHeight: pixelHeight)
        }
        let (x, y) = ((pixelWidth - block.texture.width) / 2, (pixelHeight - block.texture.height) / 2)
        try draw(block, x: x, y: y)
    }
}
