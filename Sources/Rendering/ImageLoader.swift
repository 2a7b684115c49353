import CPixbuf
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

/// Decodes image files (PNG, JPEG, GIF, BMP, TIFF, WebP/SVG if their
/// gdk-pixbuf loaders are installed) with gdk-pixbuf.
package enum ImageLoader {
    /// Loads an image file, applying its EXIF orientation.
    ///
    /// The size in the file's header is checked against `maxPixels` before
    /// anything is decoded, so a small file claiming huge dimensions costs
    /// nothing.
    /// - Parameter maxDimension: when set, images with a larger side are
    ///   decoded scaled down (aspect preserved) so that side fits, e.g. to stay
    ///   within `GraphicsContext.maxTextureSize`.
    package static func load(path: String, maxPixels: Int = 8192 * 8192, maxDimension: Int? = nil) throws
        -> DecodedImage
    {
        try checkReadable(path)

        var headerWidth: Int32 = 0
        var headerHeight: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &headerWidth, &headerHeight) != nil else {
            throw ImageError.corrupt(path: path, reason: "not a recognised image format, or the header is damaged")
        }
        guard headerWidth > 0, headerHeight > 0 else {
            throw ImageError.corrupt(path: path, reason: "the header gives no image size")
        }
        let pixels = Int(headerWidth) * Int(headerHeight)
        guard pixels <= maxPixels else {
            throw ImageError.tooLarge(
                path: path, width: Int(headerWidth), height: Int(headerHeight), maxPixels: maxPixels)
        }

        var error: UnsafeMutablePointer<GError>?
        let loaded: OpaquePointer?
        if let maxDimension, maxDimension > 0, max(headerWidth, headerHeight) > maxDimension {
            let side = Int32(clamping: maxDimension)
            loaded = gdk_pixbuf_new_from_file_at_scale(path, side, side, 1, &error)
        } else {
            loaded = gdk_pixbuf_new_from_file(path, &error)
        }
        guard let loaded else { throw translate(error, path: path) }
        if let error { g_error_free(error) }
        defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }

        // Camera JPEGs store the sensor's orientation in EXIF.
        guard let oriented = gdk_pixbuf_apply_embedded_orientation(loaded) else {
            throw ImageError.corrupt(path: path, reason: "could not apply the EXIF orientation")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(oriented)) }
        return try convert(oriented, path: path, maxPixels: maxPixels)
    }

    private static func checkReadable(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImageError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw ImageError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ImageError.unreadable(path: path, reason: "it is a directory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0 {
            throw ImageError.corrupt(path: path, reason: "the file is empty")
        }
    }

    private static func translate(_ error: UnsafeMutablePointer<GError>?, path: String) -> ImageError {
        guard let error else { return .corrupt(path: path, reason: "gdk-pixbuf gave no reason") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if error.pointee.domain == g_file_error_quark() {
            return .unreadable(path: path, reason: message)
        }
        if error.pointee.domain == gdk_pixbuf_error_quark() {
            let code = UInt32(bitPattern: error.pointee.code)
            if code == GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue || code == GDK_PIXBUF_ERROR_UNSUPPORTED_OPERATION.rawValue {
                return .unsupported(path: path, reason: message)
            }
        }
        return .corrupt(path: path, reason: message)
    }

    private static func convert(_ pixbuf: OpaquePointer, path: String, maxPixels: Int) throws -> DecodedImage {
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard width > 0, height > 0, width * height <= maxPixels else {
            // The decoder disagreed with the header.
            throw ImageError.corrupt(path: path, reason: "decoded size \(width)x\(height) is invalid")
        }
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
            let source = gdk_pixbuf_read_pixels(pixbuf)
        else {
            throw ImageError.unsupported(path: path, reason: "pixel layout other than 8-bit RGB/RGBA")
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
}
