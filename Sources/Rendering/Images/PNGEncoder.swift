import CCairo

/// Encodes straight RGBA pixels as a PNG in memory through cairo (the
/// library that already draws text and PDF pages): a screenshot goes back
/// over the control socket as bytes, so a sandboxed service writes no file
/// on the caller's behalf.
package enum PNGEncoder {
    /// `rgba`: rows top to bottom, 4 bytes per pixel, straight alpha.
    /// Opaque pixels give an RGB PNG; any alpha gives RGBA.
    package static func encode(rgba: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw RenderingError.invalidSize(
                what: "PNG", detail: "\(rgba.count) bytes are not \(width)x\(height) RGBA pixels")
        }
        let opaque = stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == 255 }
        let format = opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
        guard let surface = cairo_image_surface_create(format, Int32(width), Int32(height)) else {
            throw RenderingError.cairo(call: "cairo_image_surface_create(\(width)x\(height))", status: "no memory")
        }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderingError.cairo(
                call: "cairo_image_surface_create(\(width)x\(height))",
                status: String(cString: cairo_status_to_string(status)))
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        // cairo keeps native-endian 32-bit words, alpha premultiplied.
        for row in 0..<height {
            for column in 0..<width {
                let o = (row * width + column) * 4
                let alpha = UInt32(rgba[o + 3])
                func premultiply(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
                let word =
                    opaque
                    ? (0xFF00_0000 | UInt32(rgba[o]) << 16 | UInt32(rgba[o + 1]) << 8 | UInt32(rgba[o + 2]))
                    : (alpha << 24 | premultiply(rgba[o]) << 16 | premultiply(rgba[o + 1]) << 8
                        | premultiply(rgba[o + 2]))
                (data + row * stride + column * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = word }
            }
        }
        cairo_surface_mark_dirty(surface)
        let sink = PNGSink()
        let written = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(
                surface,
                { closure, bytes, length in
                    guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                    Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(
                        contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard written == CAIRO_STATUS_SUCCESS else {
            throw RenderingError.cairo(
                call: "cairo_surface_write_to_png_stream", status: String(cString: cairo_status_to_string(written)))
        }
        return sink.bytes
    }
}

/// Where cairo's PNG writer puts its bytes.
private final class PNGSink {
    var bytes: [UInt8] = []
}
