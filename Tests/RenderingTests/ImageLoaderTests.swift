import CCairo
import CPixbuf
import Foundation
import Rendering
import TestHarness
import XCTest

final class ImageLoaderTests: ScreenplayTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rendering-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A 6x4 PNG written by cairo: left half opaque red, right half 50% blue.
    private func writePNG(_ name: String, width: Int32 = 6, height: Int32 = 4) -> String {
        let file = path(name)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)
        let cr = cairo_create(surface)
        cairo_set_source_rgba(cr, 1, 0, 0, 1)
        cairo_rectangle(cr, 0, 0, Double(width) / 2, Double(height))
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 0, 0, 1, 0.5)
        cairo_rectangle(cr, Double(width) / 2, 0, Double(width) / 2, Double(height))
        cairo_fill(cr)
        XCTAssertEqual(cairo_surface_write_to_png(surface, file), CAIRO_STATUS_SUCCESS)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        return file
    }

    /// A JPEG written by gdk-pixbuf: top half green, bottom half white.
    private func writeJPEG(_ name: String, width: Int32 = 32, height: Int32 = 16) throws -> String {
        let file = path(name)
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = try XCTUnwrap(gdk_pixbuf_get_pixels(pixbuf))
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                let value: [UInt8] = y < Int(height) / 2 ? [0, 255, 0] : [255, 255, 255]
                for c in 0..<3 { pixels[y * stride + x * 3 + c] = value[c] }
            }
        }
        var error: UnsafeMutablePointer<GError>?
        let saved = file.withCString { f in
            "quality".withCString { key in
                "95".withCString { value in
                    var keys: [UnsafeMutablePointer<CChar>?] = [UnsafeMutablePointer(mutating: key), nil]
                    var values: [UnsafeMutablePointer<CChar>?] = [UnsafeMutablePointer(mutating: value), nil]
                    return gdk_pixbuf_savev(pixbuf, f, "jpeg", &keys, &values, &error)
                }
            }
        }
        XCTAssertEqual(saved, 1, error.map { String(cString: $0.pointee.message) } ?? "")
        return file
    }

    func testPNGDecodesToStraightRGBA() throws {
        let image = try ImageSource.load(path: writePNG("a.png")).image()
        XCTAssertEqual(image.width, 6)
        XCTAssertEqual(image.height, 4)
        XCTAssertEqual(Array(image.rgba[0..<4]), [255, 0, 0, 255])
        let right = Array(image.rgba[(5 * 4)..<(5 * 4 + 4)])
        XCTAssertEqual(right[0], 0)
        XCTAssertEqual(right[1], 0)
        XCTAssertEqual(Int(right[2]), 255, accuracy: 1)  // straight, not premultiplied
        XCTAssertEqual(Int(right[3]), 128, accuracy: 1)
    }

    func testJPEGDecodesToOpaqueRGBA() throws {
        let image = try ImageSource.load(path: writeJPEG("b.jpg")).image()
        XCTAssertEqual(image.width, 32)
        XCTAssertEqual(image.height, 16)
        XCTAssertEqual(image.rgba.count, 32 * 16 * 4)
        let top = Array(image.rgba[((2 * 32 + 5) * 4)..<((2 * 32 + 5) * 4 + 4)])
        let bottom = Array(image.rgba[((13 * 32 + 5) * 4)..<((13 * 32 + 5) * 4 + 4)])
        XCTAssertLessThan(Int(top[0]), 20)
        XCTAssertGreaterThan(Int(top[1]), 235)
        XCTAssertLessThan(Int(top[2]), 20)
        XCTAssertEqual(top[3], 255)
        XCTAssertGreaterThan(Int(bottom.prefix(3).min()!), 235)
    }

    func testFittingScalesDownWhileDecoding() throws {
        let image = try ImageSource.load(path: writeJPEG("c.jpg", width: 64, height: 32)).image(fitting: 16, height: 16)
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(image.height, 8)
    }

    func testTruncatedPNGIsCorrupt() throws {
        // Noise so the compressed data is large enough to cut in half.
        let source = path("noise.png")
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 64, 64)
        let data = cairo_image_surface_get_data(surface)!
        var seed: UInt32 = 12345
        for i in 0..<Int(cairo_image_surface_get_stride(surface) * 64) {
            seed = seed &* 1_103_515_245 &+ 12345
            data[i] = UInt8(truncatingIfNeeded: seed >> 16)
        }
        cairo_surface_mark_dirty(surface)
        XCTAssertEqual(cairo_surface_write_to_png(surface, source), CAIRO_STATUS_SUCCESS)
        cairo_surface_destroy(surface)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        XCTAssertGreaterThan(bytes.count, 8000)
        let truncated = path("truncated.png")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))

        XCTAssertNoThrow(try ImageSource.load(path: source).image())
        XCTAssertThrowsError(try ImageSource.load(path: truncated).image()) { error in
            guard case .corrupt(let p, let reason)? = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, truncated)
            XCTAssertFalse(reason.isEmpty)
            XCTAssertFalse((error as! ImageError).isUnreadable)
        }
    }

    func testRandomBytesAreCorrupt() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let file = path("noise.bin")
        try noise.write(to: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try ImageSource.load(path: file).image()) { error in
            guard case .corrupt? = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains(file))
        }
    }

    func testEmptyFileIsCorrupt() throws {
        let file = path("empty.png")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertThrowsError(try ImageSource.load(path: file).image()) { error in
            guard case .corrupt? = error as? ImageError else { return XCTFail("\(error)") }
        }
    }

    func testMissingFileAndDirectoryAreUnreadable() {
        let missing = path("nope.png")
        XCTAssertThrowsError(try ImageSource.load(path: missing).image()) { error in
            XCTAssertEqual(error as? ImageError, .unreadable(path: missing, reason: "No such file or directory"))
            XCTAssertTrue((error as? ImageError)?.isUnreadable ?? false)
            XCTAssertEqual("\(error)", "cannot read image '\(missing)': No such file or directory")
        }
        XCTAssertThrowsError(try ImageSource.load(path: directory.path).image()) { error in
            XCTAssertTrue((error as? ImageError)?.isUnreadable ?? false, "\(error)")
        }
    }

    func testHugeHeaderIsRefusedBeforeDecoding() throws {
        // A valid PNG signature and IHDR claiming 50000x50000, then almost no pixel data.
        var ihdr = Data("IHDR".utf8)
        ihdr += bigEndian(50000) + bigEndian(50000)
        ihdr += Data([8, 6, 0, 0, 0])  // 8-bit RGBA, deflate, no filter, no interlace
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png += bigEndian(13) + ihdr + bigEndian(crc32(ihdr))
        // libpng reports the header only once it reaches the first IDAT chunk.
        let idat = Data("IDAT".utf8) + Data([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        png += bigEndian(UInt32(idat.count - 4)) + idat + bigEndian(crc32(idat))
        let file = path("huge.png")
        try png.write(to: URL(fileURLWithPath: file))

        let start = Date()
        XCTAssertThrowsError(try ImageSource.load(path: file).image()) { error in
            XCTAssertEqual(
                error as? ImageError, .tooLarge(path: file, width: 50000, height: 50000, maxPixels: 8192 * 8192))
            XCTAssertTrue("\(error)".contains("50000x50000"), "\(error)")
            XCTAssertTrue("\(error)".contains("\(8192 * 8192)"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)

        // A lower limit applies to ordinary images too.
        XCTAssertThrowsError(try ImageSource.load(path: writePNG("small.png"), maxPixels: 10).image()) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(path: path("small.png"), width: 6, height: 4, maxPixels: 10))
        }
    }

    private func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    private func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
