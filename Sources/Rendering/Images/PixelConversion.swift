import CCairo
import CPixbuf
import Foundation

/// Turns the decoders' pixel layouts (gdk-pixbuf's RGB/RGBA rows with a
/// stride, cairo's premultiplied native-endian ARGB32) into `DecodedImage`'s
/// straight RGBA, which is what textures are made from.
enum PixelConversion {
    /// A pixbuf's pixels as straight RGBA, scaled to `width` x `height`
    /// first when those differ from its own.
    static func rgba(_ pixbuf: OpaquePointer, path: String, width: Int? = nil, height: Int? = nil) throws(ImageError)
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
            return try rgba(scaled, path: path)
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

    /// A flushed cairo image surface's pixels, un-premultiplied.
    static func rgba(
        cairoSurface surface: OpaquePointer, width: Int, height: Int, path: String
    ) throws(ImageError) -> DecodedImage {
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
}
