import Foundation
import TestHarness
import TestSupport
import XCTest

/// cage 0.1.4 headless, the kiosk compositor of signage boxes: no layer shell
/// (the fullscreen fallback), no `wl_surface.enter`, no `wp_presentation`.
final class CageTests: ScreenplayTestCase {
    private func startCage(outputs: Int = 1, quarterTurns: Int = 0) throws -> CageRig {
        let rig = try CageRig.start(outputs: outputs, quarterTurns: quarterTurns)
        addTeardownBlock { rig.stop() }
        return rig
    }

    private func fallbackWarnings(_ p: RunningProcess) -> Int {
        p.stderr.components(separatedBy: "no zwlr_layer_shell_v1").count - 1
    }

    /// Animated content fills cage's output, is paced by its frame
    /// callbacks (one buffer for each, never above its 60 Hz), and is gone
    /// after a clean exit.
    func testShaderFillsTheOutputAtItsRefresh() throws {
        let rig = try startCage()
        let frag = try temporaryShader(
            "cage",
            "void mainImage(out vec4 c, in vec2 p) { c = vec4(p.x / iResolution.x, p.y / iResolution.y, 0.5, 1.0); }")
        var environment = rig.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let p = try CLI.start(["present", "--all", frag, "--stats", "-"], environment: environment)
        let connect = p.waitForEvent { $0.event == "connect" }
        XCTAssertEqual(connect?.int("width"), 1280, p.screenplayLines)
        XCTAssertEqual(connect?.int("height"), 720)
        XCTAssertTrue(waitUntil(timeout: 5) { self.fallbackWarnings(p) == 1 }, p.screenplayLines)

        var image: RigImage?
        let drawn = waitUntil(timeout: 8) {
            image = try? rig.capture()
            guard let i = image else { return false }
            // GL's origin is the bottom left; grim's is the top left.
            return i.pixel(x: 2, y: i.height - 3).distance(to: RGB(r: 0, g: 0, b: 128)) <= 4
                && i.pixel(x: i.width - 3, y: 2).distance(to: RGB(r: 255, g: 255, b: 128)) <= 4
        }
        XCTAssertTrue(drawn, "gradient not on cage's output; top-left \(String(describing: image?.pixel(x: 2, y: 2)))")
        XCTAssertEqual(image.map { [$0.width, $0.height] }, [1280, 720])
        if let i = image {
            XCTAssertTrue(i.pixel(x: 2, y: 2).distance(to: RGB(r: 0, g: 255, b: 128)) <= 4, "top-left")
            XCTAssertTrue(
                i.pixel(x: i.width - 3, y: i.height - 3).distance(to: RGB(r: 255, g: 0, b: 128)) <= 4, "bottom-right")
        }

        XCTAssertTrue(waitUntil(timeout: 10) { p.frames(for: "HEADLESS-1").count >= 4 }, p.screenplayLines)
        for w in p.frames(for: "HEADLESS-1").dropFirst(2) {
            XCTAssertEqual(w.raw["source"] as? String, "frame-callbacks", "cage has no wp_presentation")
        }
        assertCleanStop(p)
        // How many callbacks cage sends is cage's: it composites with
        // llvmpipe, and beside another test on CI it sent 42 a second.
        assertAnswersFrameCallbacks(p, output: "HEADLESS-1", role: .xdgSurface, hz: 60, "cage's 60 Hz output")
        XCTAssertEqual(fallbackWarnings(p), 1, "warned once")
        let gone = waitUntil(timeout: 5) {
            (try? rig.capture()).map { $0.fraction(of: RGB(hex: 0), tolerance: 0) == 1.0 } ?? false
        }
        XCTAssertTrue(gone, "the window must be gone from cage's output after exit")
    }

    /// Static content on a cage output rotated by 90°
    /// (`cage -r`): the color fills it and the test card is upright.
    func testStaticContentIsUprightOnARotatedOutput() throws {
        let rig = try startCage(quarterTurns: 1)
        let color = try CLI.start(
            ["present", "--all", "color", "ff8000", "--stats", "-"], environment: rig.clientEnvironment)
        let connect = color.waitForEvent { $0.event == "connect" }
        XCTAssertEqual(connect?.int("width"), 720, "a rotated 1280x720 output is 720 wide; \(color.stderr)")
        XCTAssertEqual(connect?.int("height"), 1280)
        var image: RigImage?
        let filled = waitUntil(timeout: 8) {
            image = try? rig.capture()
            return image?.fraction(of: RGB(r: 0xff, g: 0x80, b: 0), tolerance: 2) == 1.0
        }
        XCTAssertTrue(
            filled,
            "color did not fill the rotated output: \(String(describing: image?.fraction(of: RGB(r: 0xff, g: 0x80, b: 0), tolerance: 2)))"
        )
        assertCleanStop(color)

        let card = try CLI.start(["present", "--all", "test-card", "--stats", "-"], environment: rig.clientEnvironment)
        XCTAssertNotNil(card.waitForEvent { $0.event == "connect" }, card.stderr)
        _ = waitUntil(timeout: 8) {
            image = try? rig.capture()
            return image?.pixel(x: 3, y: 3) == RGB(hex: 0xff0000)
        }
        if let image {
            XCTAssertEqual([image.width, image.height], [720, 1280])
            assertTestCard(image, "cage -r")
        } else {
            XCTFail("no capture of the test card")
        }
        assertCleanStop(card)
    }

    /// cage stretches every window over all its outputs and sends
    /// no `enter`; the configure size tells, and Screenplay says so. The content
    /// still reaches the external output.
    func testWindowSpreadOverTwoOutputsIsReported() throws {
        let rig = try startCage(outputs: 2)
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "HEADLESS-1"
        let p = try CLI.start(["present", "color", "3366ff", "--stats", "-"], environment: environment)
        let connect = p.waitForEvent { $0.event == "connect" }
        XCTAssertEqual(connect?.output, "HEADLESS-2", p.stderr)
        let reported = waitUntil(timeout: 5) {
            p.stderr.contains(
                "screen HEADLESS-2: the compositor made the fullscreen fallback window 2560x720, not the screen's 1280x720, so it spills onto other screens (HEADLESS-1)"
            )
        }
        XCTAssertTrue(reported, p.stderr)
        XCTAssertTrue(p.stderr.contains("cage: run with `-m last`"), "the report names the fix: \(p.stderr)")
        let shown = waitUntil(timeout: 8) {
            (try? rig.capture(output: "HEADLESS-2"))?.fraction(of: RGB(hex: 0x3366ff), tolerance: 2) == 1.0
        }
        XCTAssertTrue(shown, "the color must still reach HEADLESS-2")
        assertCleanStop(p)
    }
}
