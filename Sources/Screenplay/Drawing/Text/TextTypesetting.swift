import Rendering

/// Text laid out with pango onto a canvas the size of its ink box: what a
/// `DrawingContext` keeps as a texture and draws until the text changes.
/// Each way of placing text has its own layout here; drawing it from the
/// cache of laid-out blocks is `TextDrawer`'s.
enum TextTypesetting {
    /// `text` wrapped at words to `maxWidth`, cut off below `maxHeight`,
    /// aligned within the box.
    static func block(
        _ text: String, pixelHeight: Int, maxWidth: Int, maxHeight: Int?, color: RGBColor, alignment: TextAlign,
        font: String, markup: Bool
    ) throws -> Canvas {
        let description = "\(font) \(max(1, pixelHeight))px"
        let probe = try Canvas(width: 1, height: 1)
        let size = probe.textSize(text, font: description, maxWidth: Double(maxWidth), markup: markup)
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
            maxWidth: Double(canvas.width), markup: markup)
        return canvas
    }

    /// The width and height `text` takes, wrapped at `maxWidth` (nil: never).
    static func size(_ text: String, maxWidth: Int?, pixelHeight: Int, font: String) throws -> (
        width: Int, height: Int
    ) {
        let probe = try Canvas(width: 1, height: 1)
        let size = probe.textSize(
            text, font: "\(font) \(max(1, pixelHeight))px", maxWidth: maxWidth.map { Double(max(1, $0)) })
        return (size.width, size.height)
    }

    /// `text` on one line, never wrapped.
    static func line(_ text: String, pixelHeight: Int, color: RGBColor, font: String) throws -> Canvas {
        let description = "\(font) \(max(1, pixelHeight))px"
        let size = try Canvas(width: 1, height: 1).textSize(text, font: description)
        let canvas = try Canvas(width: max(1, size.width), height: max(1, size.height))
        canvas.clear()
        canvas.drawText(text, x: 0, y: 0, font: description, color: color.rendering)
        return canvas
    }

    /// Lines each at its own pixel height, centred as a block no larger
    /// than `maxWidth` x `maxHeight`.
    static func centredLines(
        _ lines: [(text: String, pixelHeight: Int)], color: RGBColor, font: String, maxWidth: Int, maxHeight: Int
    ) throws -> Canvas {
        let fonts = lines.map { "\(font) \(max(1, $0.pixelHeight))px" }
        let probe = try Canvas(width: 1, height: 1)
        let sizes = zip(lines, fonts).map { probe.textSize($0.0.text, font: $0.1, maxWidth: Double(maxWidth)) }
        let width = min(maxWidth, max(1, sizes.map(\.width).max() ?? 1))
        let height = min(maxHeight, max(1, sizes.map(\.height).reduce(0, +)))
        let canvas = try Canvas(width: width, height: height)
        canvas.clear()
        var y = 0.0
        for ((line, font), size) in zip(zip(lines, fonts), sizes) {
            canvas.drawText(
                line.text, x: Double(width) / 2, y: y, font: font, color: color.rendering, alignment: .center,
                maxWidth: Double(width))
            y += Double(size.height)
        }
        return canvas
    }
}
