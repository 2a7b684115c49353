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
            return (try? PixelConversion.rgba(scaled, path: "")) ?? self
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
