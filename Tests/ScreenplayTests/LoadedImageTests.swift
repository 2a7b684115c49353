import Foundation
import Screenplay
import TestHarness
import TestSupport
import XCTest

/// The public image API a player builds on: load by content, pictures for
/// a pixel size, an animation player that says when its next frame is due
/// and fills one picture, typed errors that tell 65 from 66.
final class LoadedImageTests: ScreenplayTestCase {
    private let dir = NSTemporaryDirectory() + "loaded-image-\(UUID().uuidString.prefix(8))"

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let d = dir
        addTeardownBlock { try? FileManager.default.removeItem(atPath: d) }
    }

    @MainActor
    func testSVGPicturesFollowTheTargetSize() async throws {
        let path = dir + "/badge"
        try TestImages.svg(
            width: "20", height: "10", viewBox: nil, body: "<rect width=\"20\" height=\"10\" fill=\"#ff0000\"/>"
        )
        .write(toFile: path, atomically: true, encoding: .utf8)
        let image = try LoadedImage.load(path: path)
        XCTAssertEqual(image.format, "svg")
        XCTAssertTrue(image.isVector)
        XCTAssertFalse(image.isAnimated)
        XCTAssertEqual(image.pictureSize(fitting: 1920, height: 1080).width, 1920)
        let small = try image.picture(fitting: 100, height: 100)
        XCTAssertEqual([small.width, small.height], [100, 50])
        let again = try image.picture(fitting: 400, height: 100, reusing: small)
        XCTAssertTrue(again === small, "the same picture, refilled")
        XCTAssertEqual([again.width, again.height], [200, 100])
        let pixels = try image.pixels(fitting: 8, height: 8)
        XCTAssertEqual([pixels.width, pixels.height], [8, 4])
        XCTAssertEqual(Array(pixels.rgba.prefix(4)), [255, 0, 0, 255])
    }

    @MainActor
    func testAnimationPlayerSaysWhenTheNextFrameIsDue() async throws {
        let path = dir + "/blink.gif"
        try TestImages.animation([RGB(hex: 0xff0000), RGB(hex: 0x0000ff)], frameSeconds: 0.25, to: path)
        let image = try LoadedImage.load(path: path)
        XCTAssertTrue(image.isAnimated)
        let player = try XCTUnwrap(image.makeAnimation())
        XCTAssertEqual(player.frameDelay, 0.25)
        XCTAssertEqual(player.nextFrameDue, 0.25)
        let first = try player.picture(fitting: 640, height: 480)
        XCTAssertFalse(player.advance(to: 0.2))
        XCTAssertTrue(player.advance(to: 0.25))
        XCTAssertEqual(player.nextFrameDue, 0.5)
        let second = try player.picture(fitting: 640, height: 480)
        XCTAssertTrue(first === second, "one picture, its pixels replaced")
        XCTAssertEqual(player.frameChanges, 1)

        let still = dir + "/still.gif"
        try TestImages.animation([RGB(hex: 0x00ff00)], frameSeconds: 1, to: still)
        XCTAssertNil(try LoadedImage.load(path: still).makeAnimation())
    }

    func testErrorsTellMissingFromDamaged() throws {
        XCTAssertThrowsError(try LoadedImage.load(path: dir + "/none.webp")) { error in
            XCTAssertTrue((error as? PictureError)?.isUnreadable ?? false, "\(error)")
        }
        let junk = dir + "/junk.webp"
        try Data("RIFF\u{10}\0\0\0WEBPVP8 ".utf8).write(to: URL(fileURLWithPath: junk))
        XCTAssertThrowsError(try LoadedImage.load(path: junk)) { error in
            let pictureError = error as? PictureError
            XCTAssertEqual(pictureError?.isUnreadable, false, "\(error)")
            XCTAssertTrue(pictureError?.description.contains("junk.webp") ?? false, "\(error)")
        }
    }
}
