import Foundation
import TestHarness
import TestSupport
import XCTest

/// `screenplay present` against headless sway, checked by pixels (grim) and
/// by the `--stats` stream.
final class PresentTests: ScreenplayTestCase {
    let orange = RGB(r: 0xff, g: 0x80, b: 0x00)

    /// Content on both external outputs edge to edge; the
    /// built-in output's pixels do not change.
    func testColorSpansExternalOutputsAndLeavesBuiltInAlone() throws {
        let rig = try startSway([
            .init(width: 1280, height: 720), .init(width: 1280, height: 720), .init(width: 1024, height: 768),
        ])
        let before = try rig.capture(output: "HEADLESS-1")
        let p = try CLI.start(
            ["present", "color", "ff8000", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }, p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-3" }, p.stderr)
        for (name, size) in [("HEADLESS-2", (1280, 720)), ("HEADLESS-3", (1024, 768))] {
            XCTAssertTrue(
                waitUntil(timeout: 5) { (try? rig.capture(output: name).fraction(of: orange, tolerance: 2)) == 1.0 },
                "\(name) is not filled edge to edge")
            let image = try rig.capture(output: name)
            XCTAssertEqual(image.width, size.0)
            XCTAssertEqual(image.height, size.1)
        }
        XCTAssertFalse(p.statsEvents.contains { $0.event == "connect" && $0.output == "HEADLESS-1" })
        XCTAssertEqual(try rig.capture(output: "HEADLESS-1"), before, "the built-in output changed")
        assertCleanStop(p)
        XCTAssertEqual(p.statsEvents.filter { $0.event == "disconnect" }.count, 2)
    }

    /// --output restricts the screens, --all includes built-in
    /// ones, --builtin marks them (here instead of SCREENPLAY_BUILTIN).
    func testOutputAllAndBuiltinOptions() throws {
        let rig = try startSway([
            .init(width: 640, height: 480), .init(width: 640, height: 480), .init(width: 640, height: 480),
        ])
        let grey = RGB(hex: 0x3f3f3f)
        func filled(_ name: String) -> Bool {
            (try? rig.capture(output: name).fraction(of: orange, tolerance: 2)) == 1.0
        }
        func untouched(_ name: String) -> Bool { (try? rig.capture(output: name).fraction(of: grey)) == 1.0 }

        // --output by glob over the description ("Headless output N" in sway) and by name.
        let only3 = try CLI.start(
            ["present", "--builtin", "HEADLESS-1", "--output", "HEADLESS-3", "color", "ff8000"], environment: env(rig))
        XCTAssertTrue(waitUntil(timeout: 5) { filled("HEADLESS-3") }, only3.stderr)
        XCTAssertTrue(untouched("HEADLESS-2"), "--output HEADLESS-3 must leave HEADLESS-2 alone")
        XCTAssertTrue(untouched("HEADLESS-1"))
        assertCleanStop(only3)

        // --builtin by glob: HEADLESS-1 and -2 are built-in, only -3 is external.
        let globbed = try CLI.start(
            ["present", "--builtin", "HEADLESS-[12]", "color", "ff8000"], environment: env(rig))
        XCTAssertTrue(waitUntil(timeout: 5) { filled("HEADLESS-3") }, globbed.stderr)
        XCTAssertTrue(untouched("HEADLESS-1") && untouched("HEADLESS-2"))
        assertCleanStop(globbed)

        // --all: every screen, built-in included.
        let all = try CLI.start(
            ["present", "--builtin", "HEADLESS-1", "--all", "color", "ff8000"], environment: env(rig))
        XCTAssertTrue(
            waitUntil(timeout: 5) { filled("HEADLESS-1") && filled("HEADLESS-2") && filled("HEADLESS-3") }, all.stderr)
        assertCleanStop(all)
    }

    /// Test-card corners as the viewer sees them, on a normal and a
    /// rotated output.
    func testTestCardCornersOnNormalAndRotatedOutputs() throws {
        let rig = try startSway([
            .init(width: 1280, height: 720), .init(width: 1280, height: 720), .init(width: 1280, height: 720),
        ])
        try rig.setTransform("HEADLESS-3", "90")
        let p = try CLI.start(["present", "test-card", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-3" }, p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }, p.stderr)
        for name in ["HEADLESS-2", "HEADLESS-3"] {
            var image = try rig.capture(output: name)
            _ = waitUntil(timeout: 5) {
                image = (try? rig.capture(output: name)) ?? image
                return image.pixel(x: 10, y: 10) == RGB(hex: 0xff0000)
            }
            let w = image.width, h = image.height
            XCTAssertEqual(image.pixel(x: 10, y: 10), RGB(hex: 0xff0000), "\(name) top-left")
            XCTAssertEqual(image.pixel(x: w - 10, y: 10), RGB(hex: 0x00ff00), "\(name) top-right")
            XCTAssertEqual(image.pixel(x: 10, y: h - 10), RGB(hex: 0x0000ff), "\(name) bottom-left")
            XCTAssertEqual(image.pixel(x: w - 10, y: h - 10), RGB(hex: 0xffffff), "\(name) bottom-right")
            XCTAssertEqual(image.pixel(x: w / 2, y: 0), RGB(hex: 0xffff00), "\(name) 1-px border")
            XCTAssertEqual(image.pixel(x: w / 2, y: 1), RGB(hex: 0x202020), "\(name) inside the border")
            XCTAssertEqual(image.pixel(x: 66, y: 66), RGB(hex: 0x202020), "\(name) corner blocks are 64 px")
            if name == "HEADLESS-3" { XCTAssertEqual([w, h], [720, 1280], "rotated output is portrait") }
        }
        assertCleanStop(p)
    }

    /// An image is fitted, aspect kept, letterboxed in black.
    func testImageIsFittedAndLetterboxed() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        let path = NSTemporaryDirectory() + "screenplay-fit-\(getpid()).png"
        var pixels = [UInt8](repeating: 0, count: 200 * 100 * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = 0x20; pixels[i + 1] = 0xc0; pixels[i + 2] = 0x40
        }
        try RigImage(width: 200, height: 100, pixels: pixels).writePNG(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let p = try CLI.start(["present", path, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        let green = RGB(r: 0x20, g: 0xc0, b: 0x40)
        var image = try rig.capture(output: "HEADLESS-2")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                image = (try? rig.capture(output: "HEADLESS-2")) ?? image
                return image.pixel(x: 640, y: 360) == green
            })
        // 200x100 into 1280x720 -> 1280x640 centred: 40-px bars above and below.
        XCTAssertEqual(image.fraction(of: RGB(hex: 0), in: PixelRect(x: 0, y: 0, width: 1280, height: 39)), 1.0)
        XCTAssertEqual(image.fraction(of: RGB(hex: 0), in: PixelRect(x: 0, y: 681, width: 1280, height: 39)), 1.0)
        XCTAssertGreaterThan(
            image.fraction(of: green, tolerance: 3, in: PixelRect(x: 0, y: 41, width: 1280, height: 638)), 0.99)
        assertCleanStop(p)
    }

    /// An output added while running gets content.
    func testOutputAddedWhileRunningGetsContent() throws {
        let rig = try startSway([.init(width: 1280, height: 720)])
        let p = try CLI.start(
            ["present", "color", "ff8000", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        // With only the built-in screen, present says why nothing shows yet.
        XCTAssertTrue(waitUntil(timeout: 5) { p.stderr.contains("no external screen yet") }, p.stderr)
        let added = try rig.addOutput()
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == added }, p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: added).fraction(of: orange, tolerance: 2)) == 1.0 })
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }

    /// 1920x1080@60 -> 1280x720@30 gives a 1280x720 buffer and
    /// a display-link duration of about 33 ms.
    func testModeChangeResizesAndReKeys() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1920, height: 1080, refreshHz: 60)])
        let frag = try writeShader()
        let p = try CLI.start(["present", frag, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        let connect = p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }
        XCTAssertEqual(connect?.int("width"), 1920, p.stderr)
        XCTAssertEqual(connect?.int("refresh_mhz"), 60000)
        try rig.setMode("HEADLESS-2", .init(width: 1280, height: 720, refreshHz: 30))
        let configure = p.waitForEvent { $0.event == "configure" && $0.output == "HEADLESS-2" }
        XCTAssertEqual(configure?.int("width"), 1280, p.stderr)
        XCTAssertEqual(configure?.int("height"), 720)
        let rekey = p.waitForEvent { $0.event == "screen" && $0.output == "HEADLESS-2" }
        let ns = rekey?.int("refresh_ns") ?? 0
        XCTAssertEqual(Double(ns) / 1e6, 33.3, accuracy: 0.5, "display-link duration after the mode change")
        // Frames keep coming at the new rate.
        let late = p.waitForEvent(timeout: 10) {
            $0.event == "frames" && $0.int("refresh_ns") > 30_000_000 && $0.int("presented") > 0
        }
        XCTAssertNotNil(late)
        XCTAssertTrue(waitUntil(timeout: 5) { (try? rig.capture(output: "HEADLESS-2"))?.width == 1280 })
        assertCleanStop(p)
    }

    /// `preferredFramesPerSecond` = 30 on a 60 Hz output.
    func testThirtyFramesPerSecondOnSixtyHertz() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480, refreshHz: 60)])
        let p = try CLI.start(
            ["present", try writeShader(), "--fps", "30", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        XCTAssertTrue(waitUntil(timeout: 8) { p.frames(for: "HEADLESS-2").count >= 5 })
        assertPaced(p, output: "HEADLESS-2", hz: 30, "--fps 30 on 60 Hz")
        assertCleanStop(p)
    }

    /// A window moved from a 60 Hz to a 30 Hz output re-keys.
    func testPreviewWindowMovedToThirtyHertzOutputReKeys() throws {
        let rig = try startSway([
            .init(width: 1280, height: 720, refreshHz: 60), .init(width: 1280, height: 720, refreshHz: 30),
        ])
        try rig.focusOutput("HEADLESS-1")
        let p = try CLI.start(["present", try writeShader(), "--preview", "--stats", "-"], environment: env(rig))
        let connect = p.waitForEvent { $0.event == "connect" }
        XCTAssertNotNil(connect, p.stderr)
        XCTAssertNotNil(
            p.waitForEvent { $0.event == "frames" && $0.output == "HEADLESS-1" && $0.int("presented") > 0 }, p.stderr)
        try rig.moveFocusedWindow(to: "HEADLESS-2")
        let rekey = p.waitForEvent { $0.event == "screen" && $0.output == "HEADLESS-2" }
        XCTAssertNotNil(rekey, p.stderr)
        XCTAssertEqual(Double(rekey?.int("refresh_ns") ?? 0) / 1e6, 33.3, accuracy: 0.5)
        let frames = p.waitForEvent { $0.event == "frames" && $0.output == "HEADLESS-2" && $0.int("presented") > 0 }
        XCTAssertEqual(Double(frames?.int("refresh_ns") ?? 0) / 1e6, 33.3, accuracy: 0.5)
        assertCleanStop(p)
    }

    /// Static content is drawn once and then
    /// costs no CPU: no frame callbacks, no timers beyond the stats line.
    func testStaticContentCostsNoCPUWhenIdle() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 1280, height: 720)])
        let p = try CLI.start(["present", "color", "336699"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: "HEADLESS-2").pixel(x: 5, y: 5)) == RGB(hex: 0x336699) })
        Thread.sleep(forTimeInterval: 0.5)
        let before = ProcessUsage.cpuTicks(p.pid)
        Thread.sleep(forTimeInterval: 3)
        let used = ProcessUsage.cpuTicks(p.pid) - before
        XCTAssertLessThanOrEqual(used, 2, "an idle static scene used \(used) CPU ticks in 3 s")
        assertCleanStop(p)
    }

    private func writeShader() throws -> String {
        try temporaryShader(
            "screenplay-test",
            """
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                vec2 uv = fragCoord / iResolution.xy;
                fragColor = vec4(uv.x, uv.y, 0.5 + 0.5 * sin(iTime), 1.0);
            }
            """)
    }
}
