import Rendering
import TestHarness
import XCTest

/// Shared helpers for tests that render with Mesa's surfaceless platform.
class OffscreenTestCase: ScreenplayTestCase {
    var context: GraphicsContext!

    override func setUpWithError() throws {
        context = try GraphicsContext.offscreen()
    }

    override func tearDown() {
        context?.destroy()
        context = nil
    }

    func pixel(_ pixels: [UInt8], width: Int, x: Int, y: Int) -> [UInt8] {
        let i = (y * width + x) * 4
        return Array(pixels[i..<(i + 4)])
    }

    func assertClose(
        _ actual: [UInt8], _ expected: [UInt8], tolerance: Int, _ message: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(actual.count, expected.count, message, file: file, line: line)
        for (a, e) in zip(actual, expected) where abs(Int(a) - Int(e)) > tolerance {
            XCTFail("\(actual) differs from \(expected) by more than \(tolerance) \(message)", file: file, line: line)
            return
        }
    }
}

final class GraphicsContextTests: OffscreenTestCase {
    func testContextReportsUsableLimits() {
        XCTAssertGreaterThanOrEqual(context.glesMajorVersion, 2)
        XCTAssertGreaterThanOrEqual(context.maxTextureSize, 2048)
        XCTAssertFalse(context.renderer.isEmpty)
        XCTAssertTrue(context.version.hasPrefix("OpenGL ES"), context.version)
    }

    func testDestroyIsIdempotentAndLaterUseThrows() throws {
        let target = try OffscreenTarget(context: context, width: 4, height: 4)
        context.destroy()
        context.destroy()
        XCTAssertTrue(context.isDestroyed)
        XCTAssertThrowsError(try target.makeCurrent()) { error in
            XCTAssertEqual(error as? RenderingError, .destroyed(what: "GraphicsContext"))
        }
        target.destroy()
    }

    func testTwoLiveContextsShareTheDisplaySafely() throws {
        // Mesa returns the same EGLDisplay for both; destroying one must not
        // terminate the display under the other.
        let second = try GraphicsContext.offscreen()
        second.destroy()
        let target = try OffscreenTarget(context: context, width: 8, height: 8)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 1, green: 0, blue: 0, on: target)
        XCTAssertEqual(try target.readPixels(x: 0, y: 0, width: 1, height: 1), [255, 0, 0, 255])
    }
}

final class QuadRendererTests: OffscreenTestCase {
    func testClearColourReadsBackExactly() throws {
        let target = try OffscreenTarget(context: context, width: 32, height: 16)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0.2, green: 0.4, blue: 0.6, on: target)
        let pixels = try target.readPixels(x: 0, y: 0, width: 32, height: 16)
        XCTAssertEqual(pixels.count, 32 * 16 * 4)
        for p in stride(from: 0, to: pixels.count, by: 4) {
            guard Array(pixels[p..<(p + 4)]) == [51, 102, 153, 255] else {
                XCTFail("pixel \(p / 4) is \(Array(pixels[p..<(p + 4)]))")
                return
            }
        }
    }

    func testTexturedQuadLandsWhereExpected() throws {
        let target = try OffscreenTarget(context: context, width: 64, height: 48)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0, green: 0, blue: 0, on: target)
        // Every texel distinct, so any flip or offset shows.
        let (tw, th) = (8, 4)
        var rgba: [UInt8] = []
        for y in 0..<th {
            for x in 0..<tw { rgba += [UInt8(20 + x * 30), UInt8(40 + y * 60), 200, 255] }
        }
        let texture = try Texture(context: context, width: tw, height: th, rgba: rgba)
        try quads.draw(texture, in: PixelRect(x: 10, y: 5, width: tw, height: th), on: target)

        let pixels = try target.readPixels(x: 0, y: 0, width: 64, height: 48)
        for y in 0..<th {
            for x in 0..<tw {
                XCTAssertEqual(
                    pixel(pixels, width: 64, x: 10 + x, y: 5 + y), [UInt8(20 + x * 30), UInt8(40 + y * 60), 200, 255],
                    "texel \(x),\(y)")
            }
        }
        XCTAssertEqual(pixel(pixels, width: 64, x: 9, y: 5), [0, 0, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 64, x: 18, y: 5), [0, 0, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 64, x: 10, y: 4), [0, 0, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 64, x: 10, y: 9), [0, 0, 0, 255])
    }

    /// Pixels wider than the GPU's texture limit still upload, scaled down
    /// to the limit, and draw their content (not black, not an error).
    func testOversizedPixelsAreScaledToTheTextureLimit() throws {
        let limit = context.maxTextureSize
        let (width, height) = (limit + limit / 4, 8)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                (rgba[i], rgba[i + 1], rgba[i + 2]) = x < width / 2 ? (255, 0, 0) : (0, 0, 255)
            }
        }
        XCTAssertThrowsError(
            try Texture(context: context, width: width, height: height, rgba: rgba), "over the limit as is")
        let texture = try Texture.fitted(context: context, width: width, height: height, rgba: rgba)
        XCTAssertEqual(texture.width, limit)
        XCTAssertEqual(texture.height, 6)  // 8 * limit / (1.25 * limit), rounded
        let target = try OffscreenTarget(context: context, width: 40, height: 10)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0, green: 0, blue: 0, on: target)
        try quads.draw(texture, in: PixelRect(x: 0, y: 0, width: 40, height: 10), on: target)
        let pixels = try target.readPixels(x: 0, y: 0, width: 40, height: 10)
        XCTAssertEqual(pixel(pixels, width: 40, x: 5, y: 5), [255, 0, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 40, x: 35, y: 5), [0, 0, 255, 255])
    }

    func testScaledTextureKeepsCornersAndOrientation() throws {
        let target = try OffscreenTarget(context: context, width: 40, height: 40)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0, green: 0, blue: 0, on: target)
        // Top-left red, top-right green, bottom-left blue, bottom-right white.
        let texture = try Texture(
            context: context, width: 2, height: 2,
            rgba: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
        let rect = aspectFit(contentWidth: 2, contentHeight: 2, intoWidth: 40, intoHeight: 20)
        XCTAssertEqual(rect, PixelRect(x: 10, y: 0, width: 20, height: 20))
        try quads.draw(texture, in: rect, on: target)
        let pixels = try target.readPixels(x: 0, y: 0, width: 40, height: 40)
        XCTAssertEqual(pixel(pixels, width: 40, x: 10, y: 0), [255, 0, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 40, x: 29, y: 0), [0, 255, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 40, x: 10, y: 19), [0, 0, 255, 255])
        XCTAssertEqual(pixel(pixels, width: 40, x: 29, y: 19), [255, 255, 255, 255])
        XCTAssertEqual(pixel(pixels, width: 40, x: 9, y: 10), [0, 0, 0, 255], "pillarbox bar")
        XCTAssertEqual(pixel(pixels, width: 40, x: 20, y: 20), [0, 0, 0, 255], "below the image")
    }

    func testTranslucentFillBlendsAndKeepsAlphaOpaque() throws {
        let target = try OffscreenTarget(context: context, width: 10, height: 10)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0, green: 0, blue: 1, on: target)
        try quads.fill(
            PixelRect(x: 2, y: 2, width: 4, height: 4), color: Color(red: 1, green: 0, blue: 0, alpha: 0.5),
            on: target)
        assertClose(try target.readPixels(x: 3, y: 3, width: 1, height: 1), [128, 0, 128, 255], tolerance: 1)
        XCTAssertEqual(try target.readPixels(x: 7, y: 7, width: 1, height: 1), [0, 0, 255, 255])
    }

    /// A disc lands around its centre (top-left coordinates, not GL's
    /// bottom-left) and nowhere else; the outside fill leaves the disc as it
    /// was and tints the rest of its rectangle only.
    func testDiscAndItsOutsideLandWhereAsked() throws {
        let target = try OffscreenTarget(context: context, width: 60, height: 40)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 1, green: 1, blue: 1, on: target)
        try quads.fill(
            PixelRect(x: 0, y: 0, width: 30, height: 20), color: Color(red: 1, green: 0, blue: 0, alpha: 0.5),
            circleX: 15, circleY: 10, radius: 4, on: target)
        var pixels = try target.readPixels(x: 0, y: 0, width: 60, height: 40)
        assertClose(pixel(pixels, width: 60, x: 15, y: 10), [255, 128, 128, 255], tolerance: 1, "the centre")
        assertClose(pixel(pixels, width: 60, x: 17, y: 8), [255, 128, 128, 255], tolerance: 1, "inside")
        XCTAssertEqual(pixel(pixels, width: 60, x: 15, y: 16), [255, 255, 255, 255], "below the disc")
        XCTAssertEqual(pixel(pixels, width: 60, x: 21, y: 10), [255, 255, 255, 255], "right of the disc")
        XCTAssertEqual(pixel(pixels, width: 60, x: 18, y: 13), [255, 255, 255, 255], "past the edge diagonally")

        try quads.clear(red: 1, green: 1, blue: 1, on: target)
        try quads.fill(
            PixelRect(x: 10, y: 0, width: 40, height: 40), color: Color(red: 0, green: 0, blue: 0, alpha: 0.5),
            circleX: 40, circleY: 30, radius: 6, outside: true, on: target)
        pixels = try target.readPixels(x: 0, y: 0, width: 60, height: 40)
        XCTAssertEqual(pixel(pixels, width: 60, x: 40, y: 30), [255, 255, 255, 255], "the spot stays bright")
        XCTAssertEqual(pixel(pixels, width: 60, x: 43, y: 27), [255, 255, 255, 255], "inside the spot")
        assertClose(pixel(pixels, width: 60, x: 12, y: 2), [128, 128, 128, 255], tolerance: 1, "a far corner darkens")
        assertClose(pixel(pixels, width: 60, x: 40, y: 22), [128, 128, 128, 255], tolerance: 1, "just above the spot")
        XCTAssertEqual(pixel(pixels, width: 60, x: 5, y: 5), [255, 255, 255, 255], "outside the rectangle")
        XCTAssertEqual(pixel(pixels, width: 60, x: 55, y: 35), [255, 255, 255, 255], "outside the rectangle")
    }

    func testTranslucentTextureIsPremultipliedOnUpload() throws {
        let target = try OffscreenTarget(context: context, width: 4, height: 4)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0, green: 0, blue: 0, on: target)
        // Straight alpha: white at 50% over black must give mid grey, not white.
        let texture = try Texture(context: context, width: 1, height: 1, rgba: [255, 255, 255, 128])
        try quads.draw(texture, in: PixelRect(x: 0, y: 0, width: 4, height: 4), on: target)
        assertClose(try target.readPixels(x: 1, y: 1, width: 1, height: 1), [128, 128, 128, 255], tolerance: 1)
    }

    func testTextureLargerThanTheLimitIsRefusedWithTheNumbers() throws {
        let side = context.maxTextureSize + 1
        XCTAssertThrowsError(
            try Texture(context: context, width: side, height: 1, rgba: [UInt8](repeating: 0, count: side * 4))
        ) { error in
            XCTAssertEqual(
                error as? RenderingError,
                .tooLarge(what: "texture", width: side, height: 1, maxSize: context.maxTextureSize))
            XCTAssertTrue("\(error)".contains("\(side)x1"), "\(error)")
        }
    }

    func testWrongByteCountIsRefused() {
        XCTAssertThrowsError(try Texture(context: context, width: 2, height: 2, rgba: [0, 0, 0, 0]))
    }

    func testReadPixelsOutsideTheTargetThrows() throws {
        let target = try OffscreenTarget(context: context, width: 4, height: 4)
        XCTAssertThrowsError(try target.readPixels(x: 2, y: 2, width: 4, height: 1))
    }
}
