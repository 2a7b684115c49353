import Foundation
import TestHarness
import TestSupport
import XCTest

/// One playlist shown on several panels (every output matches it): what the
/// panels share is decoded and uploaded once, while each panel still shows
/// the item itself.
final class PlayMirrorTests: ScreenplayTestCase {
    var media = ""

    override func setUpWithError() throws {
        media = try TestMedia.directory()
        let dir = media
        addTeardownBlock { TestMedia.remove(dir) }
    }

    /// Two panels of different sizes show the same image: both show its
    /// colour, and the process holds one picture texture for it, not one
    /// per panel (the `graphics` stats line, every ten seconds).
    func testOneImageOnTwoPanelsIsOneTexture() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 480, height: 270)])
        let (width, height) = (64, 36)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            (pixels[i], pixels[i + 1], pixels[i + 2]) = (0x20, 0xc0, 0x60)
        }
        // 16:9 on both panels' full width: the centre is the picture's.
        try RigImage(width: width, height: height, pixels: pixels).writePNG(to: media + "/a.png")
        let playlist = media + "/signage.json"
        try #"{"playlists": {"show": [{"file": "a.png"}]}, "default": "show"}"#
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", playlist, "--stats", "-", "--all"], environment: env(rig))
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            XCTAssertNotNil(
                p.waitForEvent(timeout: 20) { $0.event == "item" && $0.output == output },
                "\(output) shows no item: \(p.stderr)")
        }
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            let shot = try rig.capture(output: output)
            XCTAssertEqual(
                shot.pixel(x: shot.width / 2, y: shot.height / 2), RGB(hex: 0x20c060), "\(output) shows the image")
        }
        let graphics = p.waitForEvent(timeout: 25) { $0.event == "graphics" }
        XCTAssertEqual(graphics?.int("picture_textures"), 1, "one texture serves both panels: \(p.stderr)")
        assertCleanStop(p)
    }
}
