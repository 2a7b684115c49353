import Rendering
import TestHarness
import XCTest

@testable import Screenplay

/// A picture's texture belongs to the picture: a dropped picture's texture
/// is freed without `releaseResources(of:)`, and a new picture that the
/// allocator places where a freed one was never shows the old texture
/// (textures were once keyed by ObjectIdentifier alone). Offscreen, Mesa's
/// surfaceless platform.
final class PictureLifetimeTests: ScreenplayTestCase {
    @MainActor
    func testDroppedPicturesFreeTheirTexturesAndNewOnesShowTheirOwnPixels() async throws {
        let graphics = try GraphicsContext.offscreen()
        let resources = GraphicsResources(context: graphics)
        let target = try OffscreenTarget(context: graphics, width: 64, height: 64)
        defer {
            resources.destroy()
            target.destroy()
            graphics.destroy()
        }
        var peak = 0
        for round in 0..<300 {
            // A new picture each round, the previous one dropped: what a
            // slideshow or a playlist of generated images does.
            let colour = [UInt8(round % 251), UInt8(round * 7 % 256), UInt8(255 - round % 256), 255]
            let picture = Picture(width: 8, height: 8, rgba: Array([[UInt8]](repeating: colour, count: 64).joined()))
            let context = DrawingContext(target: target, resources: resources)
            try context.clear(.black)
            try context.drawFitted(picture)
            let pixel = try context.readPixels(x: 32, y: 32, width: 1, height: 1)
            XCTAssertEqual(Array(pixel.prefix(3)), Array(colour.prefix(3)), "round \(round): another picture's texture")
            peak = max(peak, resources.pictureTextureCount)
            if pixel.prefix(3) != colour.prefix(3) { break }
        }
        XCTAssertLessThanOrEqual(peak, 2, "textures of dropped pictures were kept")
    }
}
