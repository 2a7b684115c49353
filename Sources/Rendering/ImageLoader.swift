import CCairo
import CPixbuf
import CRsvg
import Foundation

/// Decoded pixels: straight (not premultiplied) RGBA, 8 bits per channel,
/// rows top to bottom, no padding.
package struct DecodedImage: Equatable, Sendable {
    package let width: Int
    package let height: Int
    package let rgba: [UInt8]

    package init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(width >= 0 && height >= 0 && rgba.count == width * height * 4, "RGBA size mismatch")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The image scaled down (aspect kept, gdk-pixbuf's area filter) so
    /// neither side exceeds `maxDimension`; itself when it already fits.
    package func scaledDown(toFit maxDimension: Int) -> DecodedImage {
        guard maxDimension > 0, max(width, height) > maxDimension else { return self }
        let fit = aspectFit(
            contentWidth: width, contentHeight: height, intoWidth: maxDimension, intoHeight: maxDimension)
        return rgba.withUnsafeBufferPointer { pixels -> DecodedImage in
            guard
                let wrapped = gdk_pixbuf_new_from_data(
                    pixels.baseAddress, GDK_COLORSPACE_RGB, 1, 8, Int32(width), Int32(height), Int32(width * 4), nil,
                    nil),
                let scaled = gdk_pixbuf_scale_simple(
                    wrapped, Int32(max(1, fit.width)), Int32(max(1, fit.height)), GDK_INTERP_BILINEAR)
            else { return self }
            defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
            g_object_unref(UnsafeMutableRawPointer(wrapped))
            return (try? ImageSource.convert(scaled, path: "")) ?? self
        }
    }
}

/// Why an image could not be loaded. `unreadable` is a problem with the file
/// itself (missing, permissions, a directory; sysexits EX_NOINPUT, 66); the
/// other cases are problems with its content (EX_DATAERR, 65).
package enum ImageError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case unsupported(path: String, reason: String)
    /// Refused from the header, before decoding.
    case tooLarge(path: String, width: Int, height: Int, maxPixels: Int)

    /// Whether the file could not be opened or read, as opposed to bad content.
    package var isUnreadable: Bool {
        if case .unreadable = self { return true }
        return false
    }

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read image '\(path)': \(reason)"
        case .corrupt(let path, let reason):
            return "image '\(path)' is damaged or not an image: \(reason)"
        case .unsupported(let path, let reason):
            return "image '\(path)' has an unsupported format: \(reason)"
        case .tooLarge(let path, let width, let height, let maxPixels):
            return "image '\(path)' is \(width)x\(height) pixels (\(width * height)), more than the limit of "
                + "\(maxPixels) pixels; scale it down first"
        }
    }
}

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
        let head = try readHead(path)
        if looksLikeSVG(head) || isGzip(head) { return try loadSVG(path: path) }
        try checkWebPLength(head, path: path)

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
                throw translate(error, path: path)
            }
            if let error { g_error_free(error) }
            defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
            return try still(loaded, path: path, format: format, maxPixels: maxPixels)
        }
        guard let animation = quietly({ gdk_pixbuf_animation_new_from_file(path, &error) }) else {
            throw translate(error, path: path)
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
            throw translate(error, path: path)
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
        return try Self.convert(pixbuf, path: path, width: size.width, height: size.height)
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
        guard drawn != 0 else { throw Self.translate(error, path: path) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            throw .corrupt(path: path, reason: "cairo gave no pixels")
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let raw = UnsafeRawPointer(data)
        rgba.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                for column in 0..<width {
                    // ARGB32: native-endian words of premultiplied channels.
                    let word = raw.loadUnaligned(fromByteOffset: row * stride + column * 4, as: UInt32.self)
                    let alpha = word >> 24
                    let o = (row * width + column) * 4
                    out[o + 3] = UInt8(alpha)
                    guard alpha > 0 else { continue }
                    out[o] = UInt8(min(255, ((word >> 16 & 0xff) * 255 + alpha / 2) / alpha))
                    out[o + 1] = UInt8(min(255, ((word >> 8 & 0xff) * 255 + alpha / 2) / alpha))
                    out[o + 2] = UInt8(min(255, ((word & 0xff) * 255 + alpha / 2) / alpha))
                }
            }
        }
        return DecodedImage(width: width, height: height, rgba: rgba)
    }

    /// A pixbuf's pixels as straight RGBA, scaled to `width` x `height`
    /// first when those differ from its own.
    static func convert(_ pixbuf: OpaquePointer, path: String, width: Int? = nil, height: Int? = nil) throws(ImageError)
        -> DecodedImage
    {
        let ownWidth = Int(gdk_pixbuf_get_width(pixbuf))
        let ownHeight = Int(gdk_pixbuf_get_height(pixbuf))
        let width = width ?? ownWidth
        let height = height ?? ownHeight
        if width != ownWidth || height != ownHeight {
            guard width > 0, height > 0,
                let scaled = gdk_pixbuf_scale_simple(pixbuf, Int32(width), Int32(height), GDK_INTERP_BILINEAR)
            else {
                throw .corrupt(path: path, reason: "cannot scale \(ownWidth)x\(ownHeight) to \(width)x\(height)")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
            return try convert(scaled, path: path)
        }
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard width > 0, height > 0 else {
            throw .corrupt(path: path, reason: "decoded size \(width)x\(height) is invalid")
        }
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
            let source = gdk_pixbuf_read_pixels(pixbuf)
        else {
            throw .unsupported(path: path, reason: "pixel layout other than 8-bit RGB/RGBA")
        }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                // The last row is only width * channels long, not a full stride.
                let input = source + row * stride
                var o = row * width * 4
                if channels == 4 {
                    (out.baseAddress! + o).update(from: input, count: width * 4)
                } else {
                    for column in 0..<width {
                        out[o] = input[column * 3]
                        out[o + 1] = input[column * 3 + 1]
                        out[o + 2] = input[column * 3 + 2]
                        o += 4
                    }
                }
            }
        }
        return DecodedImage(width: width, height: height, rgba: rgba)
    }

    // MARK: files and content

    /// Opens the file (the reasons for 66 come from here) and returns its
    /// first bytes for recognising the format.
    private static func readHead(_ path: String) throws(ImageError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "it is a directory") }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        if count == 0 { throw .corrupt(path: path, reason: "the file is empty") }
        head.removeLast(head.count - count)
        return head
    }

    /// XML text whose first element is `<svg`, after any XML declaration,
    /// comments and doctype.
    static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("<svg") { return true }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!--") || rest.hasPrefix("<!") {
                let end = rest.hasPrefix("<!--") ? "-->" : ">"
                guard let close = rest.range(of: end) else { return false }
                rest = rest[close.upperBound...]
                continue
            }
            return false
        }
    }

    private static func isGzip(_ head: [UInt8]) -> Bool { head.count >= 2 && head[0] == 0x1f && head[1] == 0x8b }

    /// A WebP file is a RIFF container that states its own length. The
    /// WebP loader decodes a cut file as far as it goes and pads it with
    /// black, without an error; the stated length tells a cut file apart.
    private static func checkWebPLength(_ head: [UInt8], path: String) throws(ImageError) {
        guard head.count >= 12, Array(head[0..<4]) == Array("RIFF".utf8), Array(head[8..<12]) == Array("WEBP".utf8)
        else { return }
        let stated = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let actual = Int(info.st_size)
        if actual < stated + 8 {
            throw .corrupt(
                path: path,
                reason: "the WebP file is cut short: its header says \(stated + 8) bytes, the file has \(actual)")
        }
    }

    static func translate(_ error: UnsafeMutablePointer<GError>?, path: String) -> ImageError {
        guard let error else { return .corrupt(path: path, reason: "the decoder gave no reason") }
        defer { g_error_free(error) }
        // One line: librsvg's XML errors span several.
        let message = (error.pointee.message.map { String(cString: $0) } ?? "unknown error")
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        if error.pointee.domain == g_file_error_quark() {
            return .unreadable(path: path, reason: message)
        }
        if error.pointee.domain == gdk_pixbuf_error_quark() {
            let code = UInt32(bitPattern: error.pointee.code)
            if code == GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue || code == GDK_PIXBUF_ERROR_UNSUPPORTED_OPERATION.rawValue
            {
                return .unsupported(path: path, reason: message)
            }
        }
        return .corrupt(path: path, reason: message)
    }
}

/// Playback of an animated GIF or WebP on a clock the caller keeps
/// (milliseconds since the animation started), so it can be driven by a
/// display link, stepped in tests, or aligned to the wall clock.
///
/// The frame shown at a moment, and when the next one is due, come from
/// gdk-pixbuf's animation iterator (loop counts included: an animation
/// that has finished stays on its last frame, `nextFrameDueMilliseconds`
/// nil).
package final class ImageAnimation {
    private let source: ImageSource
    private let animation: OpaquePointer
    private var iterator: OpaquePointer?
    /// Iterators count from this virtual moment: gdk-pixbuf's WebP iterator
    /// ignores times that are not later than the last one it saw, starting
    /// from zero.
    private static let epochMicroseconds = 1_000_000_000
    /// When the current frame started, and how long it lasts (nil: forever).
    package private(set) var frameStartMilliseconds = 0
    package private(set) var frameDelayMilliseconds: Int?
    /// Counts frame changes, for checks and statistics.
    package private(set) var frameChanges = 0

    init(source: ImageSource, animation: OpaquePointer) {
        self.source = source
        self.animation = animation
        restart()
    }

    deinit {
        if let iterator { g_object_unref(UnsafeMutableRawPointer(iterator)) }
    }

    /// When the next frame is due, in milliseconds since the start; nil
    /// once the animation has ended.
    package var nextFrameDueMilliseconds: Int? { frameDelayMilliseconds.map { frameStartMilliseconds + $0 } }

    private func restart() {
        if let iterator { g_object_unref(UnsafeMutableRawPointer(iterator)) }
        iterator = source.locked { screenplay_animation_iter_at(animation, Self.epochMicroseconds) }
        frameStartMilliseconds = 0
        readDelay(queriedAt: 0)
    }

    private func delayNow() -> Int {
        guard let iterator else { return -1 }
        return Int(source.locked { gdk_pixbuf_animation_iter_get_delay_time(iterator) })
    }

    private func step(to milliseconds: Int) {
        guard let iterator else { return }
        _ = source.locked {
            screenplay_animation_iter_advance_to(iterator, Self.epochMicroseconds + milliseconds * 1000)
        }
    }

    /// Reads how long the current frame lasts. Loaders differ in what the
    /// delay means: GIF's iterator gives the time left from the moment last
    /// asked, WebP's the frame's whole length. One more millisecond tells
    /// them apart (a count-down moves, a length does not).
    private func readDelay(queriedAt query: Int) {
        let first = delayNow()
        guard first >= 0 else { return frameDelayMilliseconds = nil }
        step(to: query + 1)
        let second = delayNow()
        let end = second < first ? query + first : frameStartMilliseconds + first
        // gdk-pixbuf holds GIF frames at least 20 ms (50 fps); so does this
        // for every format, rather than spin on a frame that claims none.
        frameDelayMilliseconds = max(end - frameStartMilliseconds, 20)
    }

    /// Moves to the frame shown `elapsed` milliseconds after the start.
    /// Returns whether the frame changed.
    @discardableResult
    package func advance(toMilliseconds elapsed: Int) -> Bool {
        var changed = false
        if elapsed < frameStartMilliseconds {
            restart()
            changed = true
        }
        while let due = nextFrameDueMilliseconds, due <= elapsed {
            // Far behind (a long pause): jump, rather than step every frame.
            let target = elapsed - due > 10_000 ? elapsed : due
            // One millisecond past the boundary: the WebP iterator counts a
            // frame's last millisecond as its own.
            step(to: target + 1)
            frameStartMilliseconds = target
            readDelay(queriedAt: target + 1)
            changed = true
        }
        if changed { frameChanges += 1 }
        return changed
    }

    /// The current frame for a target of `width` x `height` pixels (scaled
    /// down when larger, as `ImageSource.image(fitting:)`).
    package func image(fitting targetWidth: Int, height targetHeight: Int) throws(ImageError) -> DecodedImage {
        guard let iterator, let frame = source.locked({ gdk_pixbuf_animation_iter_get_pixbuf(iterator) }) else {
            throw .corrupt(path: source.path, reason: "the animation has no frame")
        }
        let size = source.size(fitting: targetWidth, height: targetHeight)
        return try source.locked { () throws(ImageError) -> DecodedImage in
            try ImageSource.convert(frame, path: source.path, width: size.width, height: size.height)
        }
    }
}
