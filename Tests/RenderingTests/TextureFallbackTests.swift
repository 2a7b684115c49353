import XCTest

@testable import Rendering

final class TextureFallbackTests: OffscreenTestCase {
    /// Drivers without GL_EXT_texture_format_BGRA8888 get cairo's pixels swizzled on the CPU.
    func testCanvasUploadWithoutTheBGRAExtension() throws {
        context.hasBGRAUpload = false
        let canvas = try Canvas(width: 4, height: 2)
        canvas.fill(Color(red: 1, green: 0.4, blue: 0.2))
        let target = try OffscreenTarget(context: context, width: 4, height: 2)
        let quads = try QuadRenderer(context: context)
        // Drawing leaves the target's alpha alone, so it must start opaque.
        try quads.clear(red: 0, green: 0, blue: 0, on: target)
        try quads.draw(
            try canvas.makeTexture(context: context), in: PixelRect(x: 0, y: 0, width: 4, height: 2), on: target)
        let pixels = try target.readPixels(x: 0, y: 0, width: 4, height: 2)
        // Three different channels: a swap of any two shows.
        XCTAssertEqual(pixel(pixels, width: 4, x: 0, y: 1), [255, 102, 51, 255])
        XCTAssertEqual(pixel(pixels, width: 4, x: 3, y: 0), [255, 102, 51, 255])
    }
}
