import EventLoop
import Foundation
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
        let offscreen = try OffscreenDrawing(width: 64, height: 64)
        defer { offscreen.close() }
        let (resources, target) = (offscreen.resources, offscreen.target)
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
        // The last picture is gone too: its texture goes on a turn of the
        // main event loop, with no upload to trigger a sweep.
        let freed = await Self.soon { resources.pictureTextureCount == 0 }
        XCTAssertTrue(freed, "a dropped picture kept its texture until the next upload")
    }

    /// A dropped shader's program is freed on the main thread right after,
    /// and a new shader is compiled and drawn afresh.
    @MainActor
    func testDroppedShadersFreeTheirPrograms() async throws {
        let offscreen = try OffscreenDrawing(width: 32, height: 32)
        defer { offscreen.close() }
        let (resources, target) = (offscreen.resources, offscreen.target)
        for round in 0..<20 {
            let level = Double(round % 2)
            let shader = FragmentShader(
                source: "void mainImage(out vec4 c, in vec2 p) { c = vec4(\(level), 0.0, 1.0, 1.0); }",
                name: "round \(round)")
            let context = DrawingContext(target: target, resources: resources)
            try context.draw(shader, time: 0, frame: 0)
            let pixel = try context.readPixels(x: 16, y: 16, width: 1, height: 1)
            XCTAssertEqual(pixel[0], round % 2 == 0 ? 0 : 255, "round \(round): another shader's program drew")
            XCTAssertEqual(resources.objectCount.shaderPrograms, 1)
        }
        let freed = await Self.soon { resources.objectCount.shaderPrograms == 0 }
        XCTAssertTrue(freed, "a dropped shader kept its program")
    }

    /// Lets the main thread turn (the release is posted to the main event
    /// loop, which a main-queue source drives here) until `condition`
    /// holds, for up to 2 s; no upload happens meanwhile, so only the
    /// release itself can free anything.
    @MainActor
    private static func soon(_ condition: @MainActor () -> Bool) async -> Bool {
        // What an Application's connection does first: bring up the loop
        // (and the main-queue source that drives it).
        _ = MainEventLoop.shared
        let deadline = Date().addingTimeInterval(2)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }
}
