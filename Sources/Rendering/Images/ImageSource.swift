import CCairo
import CPixbuf
import CRsvg
import Foundation

/// An image file, recognised by its content (never its name): PNG, JPEG
/// (EXIF orientation applied), GIF and WebP (animated or not) through
/// gdk-pixbuf's loaders, SVG through librsvg.
///
/// Loading decodes everything once, so damaged files fail here, before
/// anything is shown. Pixels for the screen come from `image(fitting:)`:
/// an SVG is rendered at exactly the size it will occupy, and a raster
/// image larger than that is scaled down on the CPU (area filter), so no
/// texture ever exceeds what the panel needs, whatever the file's size.
///
/// Safe to share between threads: the decoded data is immutable and
/// librsvg calls are serialised.
package final class ImageSource: @unchecked Sendable {
    package enum Kind: Sendable, Equatable {
        /// One picture (PNG, JPEG, a still GIF or WebP).
        case raster
        /// Frames with delays (GIF, WebP).
        case animation
        /// Resolution-independent (SVG), rendered per target size.
        case vector
    }

    package let path: String
    /// gdk-pixbuf's name of the format ("png", "jpeg", "gif", "webp"), or "svg".
    package let format: String
    package let kind: Kind
    /// Size in pixels as the viewer sees it (after EXIF orientation). For an
    /// SVG without a size of its own, its viewBox's size, or 0x0 when it has
    /// neither (it then fills whatever it is fitted into).
    package let width: Int
    package let height: Int

    /// The oriented picture (rasters) or the first frame (animations).
    private let pixbuf: OpaquePointer?
    private let animation: OpaquePointer?
    private let svg: UnsafeMutablePointer<RsvgHandle>?
    private let lock = NSLock()

    package var isAnimated: Bool { kind == .animation }
    package var isVector: Bool { kind == .vector }

    private init(
        path: String, format: String, kind: Kind, width: Int, height: Int, pixbuf: OpaquePointer?,
        animation: OpaquePointer?, svg: UnsafeMutablePointer<RsvgHandle>?
    ) {
        self.path = path
        self.format = format
        self.kind = kind
        self.width = width
        self.height = height
        self.pixbuf = pixbuf
        self.animation = animation
        self.svg = svg
    }

    deinit {
        if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        if let animation { g_object_unref(UnsafeMutableRawPointer(animation)) }
        if let svg { g_object_unref(UnsafeMutableRawPointer(svg)) }
    }

    /// Loads and decodes an image file.
    ///
    /// A raster image's size is checked against `maxPixels` from its header,
    /// before anything is decoded, so a small file claiming huge dimensions
    /// costs nothing.
    package static func load(path: String, maxPixels: Int = 8192 * 8192) throws(ImageError) -> ImageSource {
        let head = try ImageFileProbe.readHead(path)
        if ImageFileProbe.looksLikeSVG(head) || ImageFileProbe.isGzip(head) { return try loadSVG(path: path) }
        try ImageFileProbe.checkWebPLength(head, path: path)

        var headerWidth: Int32 = 0
        var headerHeight: Int32 = 0
        guard let format = gdk_pixbuf_get_file_info(path, &headerWidth, &headerHeight) else {
            throw .corrupt(
                path: path,
                reason: "not a recognised image format (PNG, JPEG, GIF, WebP or SVG), or the header is damaged")
        }
        let formatName =
            gdk_pixbuf_format_get_name(format).map { name in
                defer { g_free(name) }
                return String(cString: name)
            } ?? "unknown"
        if formatName == "svg" { return try loadSVG(path: path) }
        guard headerWidth > 0, headerHeight > 0 else {
            throw .corrupt(path: path, reason: "the header gives no image size")
        }
        guard Int(headerWidth) * Int(headerHeight) <= maxPixels else {
            throw .tooLarge(path: path, width: Int(headerWidth), height: Int(headerHeight), maxPixels: maxPixels)
        }
        return try loadRaster(path: path, format: formatName, maxPixels: maxPixels)
    }

    /// Decodes the whole file. gdk-pixbuf picks the decoder by the content's
    /// signature first (a PNG named .jpg is a PNG); the name only breaks
    /// ties. (Its incremental loader would accept a cut PNG without a word;
    /// the whole-file path does not.)
    private static func loadRaster(path: String, format: String, maxPixels: Int) throws(ImageError) -> ImageSource {
        var error: UnsafeMutablePointer<GError>?
        guard animatedFormats.contains(format) else {
            guard let loaded = quietly({ gdk_pixbuf_new_from_file(path, &error) }) else {
                throw ImageFileProbe.translate(error, path: path)
            }
            if let error { g_error_free(error) }
            defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
            return try still(loaded, path: path, format: format, maxPixels: maxPixels)
        }
        guard let animation = quietly({ gdk_pixbuf_animation_new_from_file(path, &error) }) else {
            throw ImageFileProbe.translate(error, path: path)
        }
        if let error { g_error_free(error) }
        var adopted = false
        defer { if !adopted { g_object_unref(UnsafeMutableRawPointer(animation)) } }
        let width = Int(gdk_pixbuf_animation_get_width(animation))
        let height = Int(gdk_pixbuf_animation_get_height(animation))
        guard width > 0, height > 0, width * height <= maxPixels else {
            throw .corrupt(path: path, reason: "decoded size \(width)x\(height) is invalid")
        }
        if gdk_pixbuf_animation_is_static_image(animation) == 0 {
            adopted = true
            let first = gdk_pixbuf_animation_get_static_image(animation).map { frame -> OpaquePointer in
                g_object_ref(UnsafeMutableRawPointer(frame))
                return frame
            }
            return ImageSource(
                path: path, format: format, kind: .animation, width: width, height: height, pixbuf: first,
                animation: animation, svg: nil)
        }
        guard let loaded = gdk_pixbuf_animation_get_static_image(animation) else {
            throw .corrupt(path: path, reason: "gdk-pixbuf decoded no picture")
        }
        return try still(loaded, path: path, format: format, maxPixels: maxPixels)
    }

    /// Runs a gdk-pixbuf decode with GLib's g_print silenced: the GIF loader
    /// prints its error (also returned as the GError this reports) to
    /// standard output, where it would break `--stats -`.
    private static func quietly<T>(_ body: () -> T) -> T {
        let previous = g_set_print_handler { _ in }
        defer { g_set_print_handler(previous) }
        return body()
    }

    /// Formats whose files may hold several frames (gdk-pixbuf's names).
    private static let animatedFormats: Set<String> = ["gif", "webp", "ani"]

    private static func still(_ loaded: OpaquePointer, path: String, format: String, maxPixels: Int) throws(ImageError)
        -> ImageSource
    {
        // Camera JPEGs store the sensor's orientation in EXIF; a new pixbuf
        // (or the same one, referenced) comes back either way.
        guard let oriented = gdk_pixbuf_apply_embedded_orientation(loaded) else {
            throw .corrupt(path: path, reason: "could not apply the EXIF orientation")
        }
        let width = Int(gdk_pixbuf_get_width(oriented))
        let height = Int(gdk_pixbuf_get_height(oriented))
        guard width > 0, height > 0, width * height <= maxPixels else {
            g_object_unref(UnsafeMutableRawPointer(oriented))
            throw .corrupt(path: path, reason: "decoded size \(width)x\(height) is invalid")
        }
        return ImageSource(
            path: path, format: format, kind: .raster, width: width, height: height, pixbuf: oriented, animation: nil,
            svg: nil)
    }

    private static func loadSVG(path: String) throws(ImageError) -> ImageSource {
        var error: UnsafeMutablePointer<GError>?
        guard let handle = rsvg_handle_new_from_file(path, &error) else {
            throw ImageFileProbe.translate(error, path: path)
        }
        var width = 0.0
        var height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) == 0 {
            // Only a viewBox (or percentages): its size gives the aspect.
            var hasWidth: gboolean = 0
            var hasHeight: gboolean = 0
            var hasViewBox: gboolean = 0
            var w = RsvgLength()
            var h = RsvgLength()
            var viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &w, &hasHeight, &h, &hasViewBox, &viewBox)
            if hasViewBox != 0 {
                width = viewBox.width
                height = viewBox.height
            }
        }
        guard width.isFinite, height.isFinite, width >= 0, height >= 0, width < 1e7, height < 1e7 else {
            g_object_unref(UnsafeMutableRawPointer(handle))
            throw .corrupt(path: path, reason: "the SVG's size \(width)x\(height) is not usable")
        }
        let source = ImageSource(
            path: path, format: "svg", kind: .vector, width: Int(width.rounded()), height: Int(height.rounded()),
            pixbuf: nil, animation: nil, svg: handle)
        // librsvg parses lazily in places; a render proves the document draws.
        _ = try source.image(fitting: 16, height: 16)
        return source
    }

    // MARK: pixels

    /// The size `image(fitting:)` gives for a target of `width` x `height`
    /// pixels: the aspect-fitted size for SVGs, for rasters that or their
    /// own size, whichever is smaller.
    package func size(fitting targetWidth: Int, height targetHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (max(1, targetWidth), max(1, targetHeight)) }
        let fit = aspectFit(
            contentWidth: width, contentHeight: height, intoWidth: targetWidth, intoHeight: targetHeight)
        let fitted = (max(1, fit.width), max(1, fit.height))
        if kind == .vector || fitted.0 < width { return fitted }
        return (width, height)
    }

    /// The still picture (an animation's first frame) for a target of
    /// `width` x `height` pixels, as `size(fitting:)` says.
    package func image(fitting targetWidth: Int, height targetHeight: Int) throws(ImageError) -> DecodedImage {
        let size = size(fitting: targetWidth, height: targetHeight)
        if let svg { return try render(svg, width: size.width, height: size.height) }
        guard let pixbuf else { throw .corrupt(path: path, reason: "no picture was decoded") }
        return try PixelConversion.rgba(pixbuf, path: path, width: size.width, height: size.height)
    }

    /// The still picture at the file's own size (an SVG at its natural size).
    package func image() throws(ImageError) -> DecodedImage {
        try image(fitting: max(width, 1), height: max(height, 1))
    }

    /// Playback state for an animation, starting at its first frame; nil
    /// for still images. Each viewer (a scene) keeps its own.
    package func makeAnimation() -> ImageAnimation? {
        guard let animation else { return nil }
        return ImageAnimation(source: self, animation: animation)
    }

    /// Serialises calls into librsvg and gdk-pixbuf's animation iterators.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func render(_ handle: UnsafeMutablePointer<RsvgHandle>, width: Int, height: Int) throws(ImageError)
        -> DecodedImage
    {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw .corrupt(path: path, reason: "cannot make a \(width)x\(height) surface to render into")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        var error: UnsafeMutablePointer<GError>?
        let drawn = locked { rsvg_handle_render_document(handle, cr, &viewport, &error) }
        guard drawn != 0 else { throw ImageFileProbe.translate(error, path: path) }
        cairo_surface_flush(surface)
        return try PixelConversion.rgba(cairoSurface: surface, width: width, height: height, path: path)
    }
}
