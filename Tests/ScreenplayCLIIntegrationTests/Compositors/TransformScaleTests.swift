import Foundation
import TestHarness
import TestSupport
import XCTest

/// Upright content on every transform; exact pixels at
/// integer scales (no blur of a 1-px line).
final class TransformScaleTests: ScreenplayTestCase {
    private func capture(_ rig: SwayRig, _ output: String) -> RigImage? {
        var image: RigImage?
        _ = waitUntil(timeout: 5) {
            image = try? rig.capture(output: output)
            // The whole card: a frame drawn for the old scale, still shown
            // cropped by the new one, has the red corner but not the green.
            guard let image else { return false }
            return image.pixel(x: 3, y: 3) == RGB(hex: 0xff0000)
                && image.pixel(x: image.width / 2, y: 1) == RGB(hex: 0x202020)
                && image.pixel(x: image.width - 4, y: 3) == RGB(hex: 0x00ff00)
        }
        return image
    }

    func testTestCardIsUprightOnAllEightTransforms() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 800, height: 600)])
        let p = try CLI.start(["present", "test-card", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        for transform in ["normal", "90", "180", "270", "flipped", "flipped-90", "flipped-180", "flipped-270"] {
            try rig.setTransform("HEADLESS-2", transform)
            let rotated = transform.hasSuffix("90") || transform.hasSuffix("270")
            _ = waitUntil(timeout: 5) { (try? rig.capture(output: "HEADLESS-2"))?.width == (rotated ? 600 : 800) }
            guard let image = capture(rig, "HEADLESS-2") else { XCTFail("no capture for \(transform)"); continue }
            XCTAssertEqual([image.width, image.height], rotated ? [600, 800] : [800, 600], transform)
            assertTestCard(image, "transform \(transform)")
        }
        assertCleanStop(p)
    }

    func testIntegerScalesGiveExactPixels() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 1920, height: 1080)])
        let p = try CLI.start(["present", "test-card", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        if let image = capture(rig, "HEADLESS-2") {
            assertTestCard(image, "scale 1")
        } else {
            XCTFail("no capture at scale 1")
        }
        for scale in [2, 3] {
            try rig.setScale("HEADLESS-2", Double(scale))
            let configure = p.waitForEvent { $0.event == "configure" && $0.int("scale") == scale }
            XCTAssertEqual(configure?.int("width"), 1920, "scale \(scale): the buffer is the output's pixel size")
            XCTAssertEqual(configure?.int("height"), 1080)
            guard let image = capture(rig, "HEADLESS-2") else { XCTFail("no capture at scale \(scale)"); continue }
            XCTAssertEqual([image.width, image.height], [1920, 1080])
            assertTestCard(image, "scale \(scale)")
        }
        assertCleanStop(p)
    }
}
