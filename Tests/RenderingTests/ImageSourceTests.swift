import CCairo
import Foundation
import Rendering
import TestHarness
import TestSupport
import XCTest

/// Image formats recognised by content, EXIF orientation, SVG rendered at
/// the size asked for, oversized images scaled to the target, animations
/// stepped on a clock the test keeps, and damaged files refused.
final class ImageSourceTests: ScreenplayTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "image-source-tests-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    private func rgb(_ image: DecodedImage, _ x: Int, _ y: Int) -> RGB {
        let i = (y * image.width + x) * 4
        return RGB(r: image.rgba[i], g: image.rgba[i + 1], b: image.rgba[i + 2])
    }

    private func assertColor(
        _ image: DecodedImage, _ x: Int, _ y: Int, _ expected: RGB, tolerance: Int = 24, _ message: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let actual = rgb(image, x, y)
        XCTAssertLessThanOrEqual(
            actual.distance(to: expected), tolerance, "(\(x),\(y)) is \(actual), expected \(expected) \(message)",
            file: file, line: line)
    }

    /// A PNG drawn by cairo: the left half `left`, the right half `right`.
    private func writePNG(_ file: String, width: Int32, height: Int32, left: RGB, right: RGB) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height)
        let cr = cairo_create(surface)
        for (color, x) in [(left, 0.0), (right, Double(width) / 2)] {
            cairo_set_source_rgb(cr, Double(color.r) / 255, Double(color.g) / 255, Double(color.b) / 255)
            cairo_rectangle(cr, x, 0, Double(width) / 2, Double(height))
            cairo_fill(cr)
        }
        XCTAssertEqual(cairo_surface_write_to_png(surface, file), CAIRO_STATUS_SUCCESS)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    let red = RGB(hex: 0xff0000), green = RGB(hex: 0x00ff00), blue = RGB(hex: 0x0000ff), white = RGB(hex: 0xffffff)
    let black = RGB(hex: 0x000000)

    func testFormatIsRecognisedByContentNotByName() throws {
        let png = path("really-a-png.jpg")
        writePNG(png, width: 8, height: 4, left: red, right: blue)
        let loaded = try ImageSource.load(path: png)
        XCTAssertEqual(loaded.format, "png")
        XCTAssertEqual(loaded.kind, .raster)
        let image = try loaded.image()
        XCTAssertEqual([image.width, image.height], [8, 4])
        assertColor(image, 1, 1, red, tolerance: 0)
        assertColor(image, 6, 1, blue, tolerance: 0)

        let svg = path("drawing.txt")
        try TestImages.svg(
            width: "40", height: "20", viewBox: nil, body: "<rect width=\"40\" height=\"20\" fill=\"#00ff00\"/>"
        )
        .write(toFile: svg, atomically: true, encoding: .utf8)
        let vector = try ImageSource.load(path: svg)
        XCTAssertEqual(vector.format, "svg")
        XCTAssertEqual(vector.kind, .vector)
        XCTAssertEqual([vector.width, vector.height], [40, 20])

        let gif = path("animation.png")
        try TestImages.animation([red, blue], frameSeconds: 0.5, to: gif)
        let animated = try ImageSource.load(path: gif)
        XCTAssertEqual(animated.format, "gif")
        XCTAssertTrue(animated.isAnimated)

        let webp = path("photo.jpeg")
        try TestImages.webp(top: green, bottom: blue, to: webp)
        let still = try ImageSource.load(path: webp)
        XCTAssertEqual(still.format, "webp")
        XCTAssertEqual(still.kind, .raster)
        let decoded = try still.image()
        assertColor(decoded, 10, 5, green, tolerance: 4)
        assertColor(decoded, 10, 40, blue, tolerance: 4)
    }

    func testEXIFOrientationTurnsTheJPEGUpright() throws {
        // Stored 64x32, green on top; orientation 6 means "turn 90° clockwise
        // to view": the viewer sees 32x64 with the green half on the right.
        let file = path("camera.jpg")
        try TestImages.jpeg(top: green, bottom: white, orientation: 6, to: file)
        let image = try ImageSource.load(path: file).image()
        XCTAssertEqual([image.width, image.height], [32, 64])
        assertColor(image, 28, 32, green)
        assertColor(image, 4, 32, white)

        // 3: upside down, so green is at the bottom.
        let flipped = path("flipped.jpg")
        try TestImages.jpeg(top: green, bottom: white, orientation: 3, to: flipped)
        let turned = try ImageSource.load(path: flipped).image()
        XCTAssertEqual([turned.width, turned.height], [64, 32])
        assertColor(turned, 32, 28, green)
        assertColor(turned, 32, 4, white)

        // Without the tag it stays as stored.
        let plain = path("plain.jpg")
        try TestImages.jpeg(top: green, bottom: white, to: plain)
        let asStored = try ImageSource.load(path: plain).image()
        assertColor(asStored, 32, 4, green)
    }

    func testSVGIsRenderedAtTheSizeAskedForAndStaysSharp() throws {
        // 100x50 user units, white, with a black line 0.25 units tall at y = 25.
        let file = path("line.svg")
        try TestImages.svg(
            width: "100", height: "50", viewBox: "0 0 100 50",
            body: """
                <rect width="100" height="50" fill="#ffffff"/>
                <rect x="0" y="25" width="100" height="0.25" fill="#000000"/>
                """
        ).write(toFile: file, atomically: true, encoding: .utf8)
        let source = try ImageSource.load(path: file)
        XCTAssertEqual([source.width, source.height], [100, 50])
        for (target, expected, lineRows) in [
            ((400, 400), (400, 200), 100..<101),  // x4: a 1-pixel line at row 100
            ((1600, 2000), (1600, 800), 400..<404),  // x16: exactly 4 rows
            ((1000, 100), (200, 100), 50..<50),  // x2: half a pixel, grey, not a line
        ] {
            let image = try source.image(fitting: target.0, height: target.1)
            XCTAssertEqual([image.width, image.height], [expected.0, expected.1], "fitting \(target)")
            let column = (0..<image.height).map { rgb(image, image.width / 2, $0) }
            let dark = column.indices.filter { column[$0] == black }
            XCTAssertEqual(dark, Array(lineRows), "fitting \(target): black rows")
            if !lineRows.isEmpty {
                // Sharp: every other pixel of the column is pure white.
                XCTAssertEqual(column.filter { $0 != black && $0 != white }.count, 0, "fitting \(target): blurred rows")
            }
        }

        // Only a viewBox: its size is the natural size, and it scales the same way.
        let viewBoxOnly = path("viewbox.svg")
        try TestImages.svg(
            width: nil, height: nil, viewBox: "0 0 30 10", body: "<rect width=\"30\" height=\"10\" fill=\"#0000ff\"/>"
        )
        .write(toFile: viewBoxOnly, atomically: true, encoding: .utf8)
        let boxed = try ImageSource.load(path: viewBoxOnly)
        XCTAssertEqual([boxed.width, boxed.height], [30, 10])
        let wide = try boxed.image(fitting: 300, height: 300)
        XCTAssertEqual([wide.width, wide.height], [300, 100])
        assertColor(wide, 150, 50, blue, tolerance: 0)
    }

    func testAnImageLargerThanTheTargetIsScaledDownToIt() throws {
        // A 20000x1000 panorama: wider than any GPU's texture limit here.
        let file = path("panorama.png")
        writePNG(file, width: 20000, height: 1000, left: red, right: blue)
        let source = try ImageSource.load(path: file)
        XCTAssertEqual([source.width, source.height], [20000, 1000])
        let fitted = try source.image(fitting: 1920, height: 1080)
        XCTAssertEqual([fitted.width, fitted.height], [1920, 96])
        assertColor(fitted, 100, 48, red, tolerance: 0)
        assertColor(fitted, 1820, 48, blue, tolerance: 0)

        // Smaller than the target: its own pixels, the GPU scales them up.
        let small = path("small.png")
        writePNG(small, width: 10, height: 10, left: red, right: blue)
        let own = try ImageSource.load(path: small).image(fitting: 1920, height: 1080)
        XCTAssertEqual([own.width, own.height], [10, 10])

        // Pictures made by the app get the same treatment before upload.
        let scaled = try source.image().scaledDown(toFit: 4096)
        XCTAssertEqual([scaled.width, scaled.height], [4096, 205])
        assertColor(scaled, 10, 100, red, tolerance: 0)
    }

    func testAnimatedGIFStepsThroughItsFramesOnTheCallersClock() throws {
        let file = path("traffic.gif")
        try TestImages.animation([red, green, blue], frameSeconds: 0.5, to: file)
        let source = try ImageSource.load(path: file)
        XCTAssertEqual(source.kind, .animation)
        let animation = try XCTUnwrap(source.makeAnimation())
        // GIF palettes turn 255 into 252.
        func color() throws -> RGB {
            let seen = rgb(try animation.image(fitting: 640, height: 480), 32, 24)
            return [red, green, blue].first { $0.distance(to: seen) <= 8 } ?? seen
        }
        XCTAssertEqual(try color(), red)
        XCTAssertEqual(animation.frameDelayMilliseconds, 500)
        XCTAssertEqual(animation.nextFrameDueMilliseconds, 500)
        XCTAssertFalse(animation.advance(toMilliseconds: 499))
        XCTAssertEqual(try color(), red)
        XCTAssertTrue(animation.advance(toMilliseconds: 500))
        XCTAssertEqual(try color(), green)
        XCTAssertEqual(animation.nextFrameDueMilliseconds, 1000)
        XCTAssertTrue(animation.advance(toMilliseconds: 1200))
        XCTAssertEqual(try color(), blue)
        XCTAssertTrue(animation.advance(toMilliseconds: 1500), "it loops")
        XCTAssertEqual(try color(), red)
        XCTAssertTrue(animation.advance(toMilliseconds: 100), "an earlier time restarts it")
        XCTAssertEqual(try color(), red)
        XCTAssertEqual(animation.nextFrameDueMilliseconds, 500)

        // Played once: after the last frame nothing more is due, so nothing
        // more is drawn.
        let once = path("once.gif")
        try TestImages.animation([red, green], frameSeconds: 0.5, once: true, to: once)
        let finite = try XCTUnwrap(ImageSource.load(path: once).makeAnimation())
        XCTAssertTrue(finite.advance(toMilliseconds: 600))
        XCTAssertEqual(finite.nextFrameDueMilliseconds, 1000, "the last frame still has its delay")
        finite.advance(toMilliseconds: 1000)
        XCTAssertNil(finite.nextFrameDueMilliseconds, "then the last frame of a GIF played once stays")
        XCTAssertFalse(finite.advance(toMilliseconds: 5000))
        XCTAssertLessThanOrEqual(rgb(try finite.image(fitting: 64, height: 48), 5, 5).distance(to: green), 8)

        // One frame: a still image, nothing to play.
        let still = path("still.gif")
        try TestImages.animation([green], frameSeconds: 1, to: still)
        let single = try ImageSource.load(path: still)
        XCTAssertEqual(single.kind, .raster)
        XCTAssertNil(single.makeAnimation())
    }

    func testAnimatedWebPPlaysToo() throws {
        let file = path("pulse.webp")
        try TestImages.animation([red, blue], frameSeconds: 0.3, webp: true, to: file)
        let source = try ImageSource.load(path: file)
        XCTAssertEqual(source.format, "webp")
        let animation = try XCTUnwrap(source.makeAnimation())
        XCTAssertEqual(animation.frameDelayMilliseconds, 300)
        XCTAssertEqual(rgb(try animation.image(fitting: 64, height: 48), 5, 5), red)
        XCTAssertFalse(animation.advance(toMilliseconds: 299))
        XCTAssertTrue(animation.advance(toMilliseconds: 300))
        XCTAssertEqual(rgb(try animation.image(fitting: 64, height: 48), 5, 5), blue)
        XCTAssertTrue(animation.advance(toMilliseconds: 600), "it loops")
        XCTAssertEqual(rgb(try animation.image(fitting: 64, height: 48), 5, 5), red)
    }

    func testTruncatedGIFSVGAndWebPAreDamaged() throws {
        let gif = path("whole.gif")
        try TestImages.animation([red, green, blue], frameSeconds: 0.5, width: 200, height: 100, to: gif)
        let webp = path("whole.webp")
        try TestImages.webp(top: red, bottom: blue, width: 300, height: 200, to: webp)
        let svg = path("whole.svg")
        try TestImages.svg(
            width: "10", height: "10", viewBox: nil, body: "<rect width=\"10\" height=\"10\" fill=\"red\"/>"
        )
        .write(toFile: svg, atomically: true, encoding: .utf8)
        for whole in [gif, webp, svg] {
            XCTAssertNoThrow(try ImageSource.load(path: whole), whole)
            let cut = whole.replacingOccurrences(of: "whole", with: "cut")
            try TestImages.truncate(whole, to: cut)
            XCTAssertThrowsError(try ImageSource.load(path: cut), cut) { error in
                guard case .corrupt(let p, let reason)? = error as? ImageError else {
                    return XCTFail("\(cut): \(error)")
                }
                XCTAssertEqual(p, cut)
                XCTAssertFalse(reason.isEmpty)
                XCTAssertFalse("\(error)".contains("\n"), "one line: \(error)")
            }
        }
        // Text that is not an image at all.
        let text = path("notes.svg")
        try "just words".write(toFile: text, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ImageSource.load(path: text)) { error in
            guard case .corrupt? = error as? ImageError else { return XCTFail("\(error)") }
        }
    }
}
