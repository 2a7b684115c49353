import Foundation
import TestHarness
import TestSupport
import XCTest

/// Weston 10 headless: no layer shell (the fallback path GNOME users get),
/// and real wp_presentation feedback.
final class WestonTests: ScreenplayTestCase {
    private func startWeston(width: Int = 1024, height: Int = 768) throws -> WestonRig {
        let rig = try WestonRig.start(width: width, height: height)
        addTeardownBlock { rig.stop() }
        return rig
    }

    /// Fullscreen fallback fills the output, warns once,
    /// tears down cleanly.
    func testFallbackFillsTheOutputAndWarns() throws {
        let rig = try startWeston()
        for (content, check) in [(["color", "ff8000"], "color"), (["test-card"], "card")] {
            let p = try CLI.start(
                ["present", "--all"] + content + ["--stats", "-"], environment: rig.clientEnvironment)
            let connect = p.waitForEvent { $0.event == "connect" }
            XCTAssertEqual(connect?.int("width"), 1024, p.stderr)
            XCTAssertEqual(connect?.int("height"), 768)
            XCTAssertTrue(waitUntil(timeout: 5) { p.stderr.contains("no zwlr_layer_shell_v1") }, p.stderr)
            XCTAssertEqual(p.stderr.components(separatedBy: "no zwlr_layer_shell_v1").count - 1, 1, "warned once")
            var image = try rig.capture()
            let done = waitUntil(timeout: 8) {
                image = (try? rig.capture()) ?? image
                return check == "color"
                    ? image.fraction(of: RGB(r: 0xff, g: 0x80, b: 0), tolerance: 2) == 1.0
                    : image.pixel(x: 5, y: 5) == RGB(hex: 0xff0000)
            }
            XCTAssertTrue(done, "\(content) did not fill weston's output")
            if check == "card" {
                XCTAssertEqual(image.pixel(x: image.width - 5, y: 5), RGB(hex: 0x00ff00))
                XCTAssertEqual(image.pixel(x: 5, y: image.height - 5), RGB(hex: 0x0000ff))
                XCTAssertEqual(image.pixel(x: image.width - 5, y: image.height - 5), RGB(hex: 0xffffff))
            }
            assertCleanStop(p)
        }
    }

    /// With real presentation feedback: 30 fps on a 60 Hz
    /// output, counted from wp_presentation.
    func testThirtyFramesPerSecondCountedFromPresentationFeedback() throws {
        let rig = try startWeston(width: 640, height: 480)
        let frag = try temporaryShader(
            "weston",
            "void mainImage(out vec4 c, in vec2 p) { c = vec4(p.x / iResolution.x, 0.5 + 0.5 * sin(iTime), 0.0, 1.0); }"
        )
        let p = try CLI.start(
            ["present", "--all", frag, "--fps", "30", "--stats", "-"], environment: rig.clientEnvironment)
        XCTAssertTrue(waitUntil(timeout: 10) { p.frames(for: "headless").count >= 5 }, p.stderr)
        let windows = p.frames(for: "headless").dropFirst(2)
        for w in windows {
            XCTAssertEqual(w.raw["source"] as? String, "presentation")
            XCTAssertEqual(Double(w.int("refresh_ns")) / 1e6, 16.67, accuracy: 0.2)
        }
        assertPaced(p, output: "headless", hz: 30, "--fps 30 on weston's 60 Hz")
        assertCleanStop(p)
    }
}
