import CCairo

/// Horizontal placement of text relative to the x coordinate given.
package enum TextAlignment: Sendable {
    /// x is the left edge.
    case left
    /// x is the centre.
    case center
    /// x is the right edge.
    case right
}

/// The logical size of laid-out text in pixels.
package struct TextSize: Equatable, Sendable {
    package var width: Int
    package var height: Int
}

/// A cairo ARGB32 image for 2D content (text, shapes, images), uploaded to a
/// `Texture` to be shown. Coordinates are pixels from the top-left.
///
/// Text goes through Pango, and font sizes in descriptions are pixels
/// ("Sans Bold 48" is 48 px tall), not points: the layout resolution is set
/// to 72 dpi so sizes do not depend on the machine's DPI setting.
package final class Canvas {
    package let width: Int
    package let height: Int
    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    private let layout: OpaquePointer

    /// Largest side cairo image surfaces accept.
    package static let maxSide = 32767

    /// A transparent canvas.
    package init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide else {
            throw RenderingError.invalidSize(
                what: "canvas", detail: "\(width)x\(height) (each side must be 1...\(Self.maxSide))")
        }
        self.width = width
        self.height = height
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderingError.cairo(
                call: "cairo_image_surface_create(\(width)x\(height))",
                status: String(cString: cairo_status_to_string(status)))
        }
        self.surface = surface
        cairo = cairo_create(surface)
        // One layout reused for every text call; creating one makes a new
        // Pango context each time.
        layout = pango_cairo_create_layout(cairo)
        pango_cairo_context_set_resolution(pango_layout_get_context(layout), 72)
        pango_layout_context_changed(layout)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    private func setSource(_ color: Color) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }

    /// Replaces every pixel with `color` (alpha included, no blending).
    package func fill(_ color: Color) {
        cairo_save(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        setSource(color)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// Makes every pixel transparent.
    package func clear() { fill(Color(red: 0, green: 0, blue: 0, alpha: 0)) }

    /// Strokes the polyline through `points` (canvas pixels) with round
    /// caps and joins, so a freehand line has no corners or gaps between
    /// its segments and a single point is a dot. The whole line is one
    /// path: a translucent colour (a highlighter) is as light where the
    /// line crosses itself as elsewhere. `erase` clears what the line
    /// covers instead of painting (an eraser on earlier lines).
    package func strokeLine(_ points: [(x: Double, y: Double)], width: Double, color: Color, erase: Bool = false) {
        guard let first = points.first, width > 0 else { return }
        cairo_save(cairo)
        cairo_set_operator(cairo, erase ? CAIRO_OPERATOR_CLEAR : CAIRO_OPERATOR_OVER)
        setSource(color)
        cairo_set_line_width(cairo, width)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_move_to(cairo, first.x, first.y)
        // A lone point: a zero-length segment, which the round cap makes a dot.
        if points.count == 1 { cairo_line_to(cairo, first.x, first.y) }
        for point in points.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// Lays out `text` without drawing it and returns its size.
    /// - Parameters:
    ///   - font: a Pango font description, e.g. "Sans Bold 48" (size in px).
    ///   - maxWidth: wrap lines (at words, else characters) to this width.
    package func textSize(_ text: String, font: String, maxWidth: Double? = nil, markup: Bool = false) -> TextSize {
        prepareLayout(text, font: font, alignment: .left, maxWidth: maxWidth, markup: markup)
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return TextSize(width: Int(width), height: Int(height))
    }

    /// Draws text with its top at `y`, anchored horizontally at `x` according
    /// to `alignment`; lines of multi-line text are aligned the same way.
    /// With `maxWidth` the anchor applies to a box of that width. Returns the
    /// text's size.
    @discardableResult
    package func drawText(
        _ text: String, x: Double, y: Double, font: String, color: Color, alignment: TextAlignment = .left,
        maxWidth: Double? = nil, markup: Bool = false
    ) -> TextSize {
        prepareLayout(text, font: font, alignment: alignment, maxWidth: maxWidth, markup: markup)
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        let boxWidth = maxWidth ?? Double(width)
        let left: Double
        switch alignment {
        case .left: left = x
        case .center: left = x - boxWidth / 2
        case .right: left = x - boxWidth
        }
        setSource(color)
        cairo_move_to(cairo, left, y)
        pango_cairo_update_layout(cairo, layout)
        pango_cairo_show_layout(cairo, layout)
        cairo_new_path(cairo)
        return TextSize(width: Int(width), height: Int(height))
    }

    /// `markup`: the text is Pango markup (`<b>`, `<i>`, `<span size=...>`);
    /// markup that does not parse is shown as the plain text it is.
    private func prepareLayout(
        _ text: String, font: String, alignment: TextAlignment, maxWidth: Double?, markup: Bool = false
    ) {
        let description = pango_font_description_from_string(font)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        if markup, pango_parse_markup(text, -1, 0, nil, nil, nil, nil) != 0 {
            pango_layout_set_markup(layout, text, -1)
        } else {
            // Also resets attributes a markup text set before.
            pango_layout_set_attributes(layout, nil)
            pango_layout_set_text(layout, text, -1)
        }
        if let maxWidth, maxWidth > 0 {
            pango_layout_set_width(layout, Int32(clamping: Int((maxWidth * Double(PANGO_SCALE)).rounded())))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        } else {
            pango_layout_set_width(layout, -1)
        }
        switch alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
    }

    /// Cell-aligned rectangles that together cover every pixel with any
    /// alpha (ink), the rest being fully transparent: drawing only these
    /// skips the empty parts of a text block (`InkMask.rects`).
    package func inkRects(cell: Int = 8) -> [PixelRect] {
        guard let mask = inkMask() else { return [PixelRect(x: 0, y: 0, width: width, height: height)] }
        return mask.rects(cell: cell)
    }

    /// Which pixels have any alpha, kept for drawing after the canvas is
    /// gone; nil if cairo gives no pixels.
    package func inkMask() -> InkMask? {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        // ARGB32 words in native (little-endian) order: alpha is byte 3.
        return InkMask(
            width: width, height: height, alphaOf: data, stride: Int(cairo_image_surface_get_stride(surface)))
    }

    /// Uploads the canvas into a new texture.
    package func makeTexture(context: GraphicsContext) throws -> Texture {
        cairo_surface_flush(surface)
        return try Texture(
            context: context, width: width, height: height, cairoPixels: cairo_image_surface_get_data(surface)!,
            stride: Int(cairo_image_surface_get_stride(surface)))
    }

    /// Re-uploads the canvas into a texture made by `makeTexture` (same size).
    package func update(_ texture: Texture) throws {
        guard texture.width == width, texture.height == height else {
            throw RenderingError.invalidSize(
                what: "texture update",
                detail: "canvas is \(width)x\(height), texture is \(texture.width)x\(texture.height)")
        }
        cairo_surface_flush(surface)
        try texture.upload(
            cairoPixels: cairo_image_surface_get_data(surface)!, stride: Int(cairo_image_surface_get_stride(surface)))
    }

    /// The pixels as straight RGBA, rows top to bottom (for tests and checks).
    package func rgbaPixels() -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            for column in 0..<width {
                let word = data.loadUnaligned(fromByteOffset: row * stride + column * 4, as: UInt32.self)
                let alpha = word >> 24
                func unpremultiply(_ value: UInt32) -> UInt8 {
                    alpha == 0 ? 0 : UInt8(min(255, (value * 255 + alpha / 2) / alpha))
                }
                let o = (row * width + column) * 4
                rgba[o] = unpremultiply((word >> 16) & 0xFF)
                rgba[o + 1] = unpremultiply((word >> 8) & 0xFF)
                rgba[o + 2] = unpremultiply(word & 0xFF)
                rgba[o + 3] = UInt8(alpha)
            }
        }
        return rgba
    }

    /// Writes the canvas as a PNG file (for debugging and screenshots).
    package func writePNG(to path: String) throws {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderingError.cairo(
                call: "cairo_surface_write_to_png(\(path))", status: String(cString: cairo_status_to_string(status)))
        }
    }
}
