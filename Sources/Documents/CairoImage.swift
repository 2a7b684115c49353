import CCairo

/// A cairo ARGB32 image surface with its context, freed on deinit.
final class CairoImage {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let cairo: OpaquePointer

    init(width: Int, height: Int) throws(DocumentError) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            cairo = OpaquePointer(bitPattern: 1)!
            throw DocumentError(
                kind: .renderFailed, description: "cannot make a \(width)x\(height) image (out of memory?)")
        }
        cairo = cairo_create(surface)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Straight RGBA rows, top first, from cairo's premultiplied native-endian ARGB words.
    func rgba() -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { rgba in
            for row in 0..<height {
                let line = data + row * stride
                for column in 0..<width {
                    let word = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self)
                    let alpha = word >> 24
                    let o = (row * width + column) * 4
                    if alpha == 255 {
                        rgba[o] = UInt8(truncatingIfNeeded: word >> 16)
                        rgba[o + 1] = UInt8(truncatingIfNeeded: word >> 8)
                        rgba[o + 2] = UInt8(truncatingIfNeeded: word)
                    } else if alpha > 0 {
                        func straight(_ v: UInt32) -> UInt8 { UInt8(min(255, ((v & 0xff) * 255 + alpha / 2) / alpha)) }
                        rgba[o] = straight(word >> 16)
                        rgba[o + 1] = straight(word >> 8)
                        rgba[o + 2] = straight(word)
                    }
                    rgba[o + 3] = UInt8(alpha)
                }
            }
        }
        return out
    }
}
