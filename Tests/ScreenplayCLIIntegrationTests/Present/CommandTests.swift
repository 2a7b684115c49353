import Foundation
import TestHarness
import TestSupport
import XCTest

/// `outputs`, `doctor`, `demo` and the documented exit codes, run as a user
/// would run them.
final class CommandTests: ScreenplayTestCase {
    func testOutputsJSONHasTheDocumentedFields() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1920, height: 1080, refreshHz: 30)])
        try rig.setTransform("HEADLESS-2", "90")
        let r = try CLI.run(["outputs", "--json"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertEqual(r.status, 0, r.stderr)
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.count, 2)
        let keys: Set = [
            "name", "description", "make", "model", "serial", "builtin", "external", "x", "y", "logical_width",
            "logical_height", "mode", "modes", "scale", "transform", "physical_width_mm", "physical_height_mm",
            "enabled", "adaptive_sync", "power",
        ]
        XCTAssertEqual(Set(array[0].keys), keys)
        XCTAssertEqual(array[0]["builtin"] as? Bool, true)
        XCTAssertEqual(array[1]["external"] as? Bool, true)
        // sway's `transform 90` turns clockwise; wl_output counts counter-clockwise,
        // so sway 1.7 announces 270. We print what the protocol says.
        XCTAssertEqual(array[1]["transform"] as? String, "270")
        let mode = try XCTUnwrap(array[1]["mode"] as? [String: Any])
        XCTAssertEqual(mode["refresh_mhz"] as? Int, 30000)
        XCTAssertEqual(mode["width"] as? Int, 1920)
        XCTAssertEqual(array[1]["logical_width"] as? Int, 1080, "rotated output is portrait in layout space")
        let text = try CLI.run(["outputs"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(text.stdout.contains("HEADLESS-2"))
        // sway 1.7's heads list no modes for headless outputs: the current one is shown alone.
        XCTAssertTrue(text.stdout.contains("Current mode: 1920x1080 @ 30.000 Hz"), text.stdout)
    }

    func testDoctorExplainsEachScreen() throws {
        let rig = try startSway([.init(width: 800, height: 600), .init(width: 800, height: 600)])
        let r = try CLI.run(["doctor", "--json"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertEqual(r.status, 0, r.stdout)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(object["findings"] as? [[String: String]])
        func text(_ topic: String) -> String { findings.first { $0["topic"] == topic }?["text"] ?? "" }
        XCTAssertTrue(text("screen HEADLESS-1").contains("built-in"), text("screen HEADLESS-1"))
        XCTAssertTrue(text("screen HEADLESS-1").contains("no scene here"))
        XCTAssertTrue(text("screen HEADLESS-2").contains("a scene connects here"))
        XCTAssertTrue(text("present").contains("HEADLESS-2"))
        XCTAssertTrue(text("wp_fractional_scale_manager_v1").contains("missing"), "sway 1.7 has no fractional scale")
        XCTAssertTrue(text("EGL/GLES").contains("GLES"))
        // Web pages: how frames would come, and that Debian 12's WPE gets no security updates.
        XCTAssertTrue(text("web pages").contains("WPE WebKit: frames"), text("web pages"))
        XCTAssertTrue(text("web pages").contains("no security updates"), text("web pages"))

        // One screen, nothing built-in: it is the main screen and nothing would show. Say why.
        let lone = try startSway([.init(width: 800, height: 600)])
        let r2 = try CLI.run(["doctor"], environment: env(lone))
        XCTAssertEqual(r2.status, 1)
        XCTAssertTrue(r2.stdout.contains("PROBLEM present: no screen would get an external scene"), r2.stdout)
        XCTAssertTrue(r2.stdout.contains("--builtin"))
    }

    func testErrorsHaveTheDocumentedExitCodes() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let e = env(rig, builtin: "HEADLESS-1")
        let dir = NSTemporaryDirectory() + "screenplay-errors-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(
            to: URL(fileURLWithPath: dir + "/noise.png"))
        try "void mainImage(out vec4 c, in vec2 p) {\n  c = vec4(1.0);\n  this is not glsl;\n}\n".write(
            toFile: dir + "/bad.frag", atomically: true, encoding: .utf8)
        var noCompositor = e
        noCompositor["WAYLAND_DISPLAY"] = dir + "/no-such-socket"
        let cases: [(args: [String], env: [String: String], status: Int32, says: String)] = [
            (["frobnicate"], e, 64, "frobnicate"),
            (["present", "--bogus", "test-card"], e, 64, "--bogus"),
            (["present", "color", "12345g"], e, 64, "12345g"),
            (["present", "--output", "NOPE-*", "test-card"], e, 64, "HEADLESS-2"),
            (["present", dir + "/missing.png"], e, 66, "missing.png"),
            (["present", dir + "/missing.frag"], e, 66, "missing.frag"),
            (["present", dir + "/noise.png"], e, 65, "noise.png"),
            (["present", dir + "/bad.frag"], e, 65, "3"),
            (["outputs"], noCompositor, 69, "no-such-socket"),
            (["present", "test-card"], noCompositor, 69, "WAYLAND_DISPLAY"),
        ]
        for c in cases {
            let r = try CLI.run(c.args, environment: c.env, timeout: 10)
            XCTAssertFalse(r.timedOut, "\(c.args) hung")
            XCTAssertEqual(r.status, c.status, "\(c.args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(c.says), "\(c.args) should name \(c.says): \(r.stderr)")
            XCTAssertFalse(r.stderr.isEmpty)
        }
        XCTAssertEqual(try CLI.run(["--version"], environment: e).status, 0)
        for sub in ["outputs", "present", "doctor", "demo"] {
            let r = try CLI.run([sub, "--help"], environment: e)
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.stdout.contains(sub), r.stdout)
        }
    }

    func testSIGINTTearsDownCleanly() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let p = try CLI.start(["present", "test-card", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        p.interrupt()
        XCTAssertEqual(p.wait(timeout: 5), 0, p.stderr)
        XCTAssertNotNil(p.statsEvents.first { $0.event == "disconnect" })
        // The scene is gone from the output after teardown.
        XCTAssertTrue(
            waitUntil(timeout: 3) { (try? rig.capture(output: "HEADLESS-2").fraction(of: RGB(hex: 0x3f3f3f))) == 1.0 })
    }

    func testDemoWritesCapturesOfBothOutputs() throws {
        let out = NSTemporaryDirectory() + "screenplay-demo-test-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: out) }
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = nil
        let r = try CLI.run(["demo", "--out", out], environment: environment, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        // The audience slide on the external output, the console on the built-in one.
        let external = try RigImage(contentsOf: out + "/HEADLESS-2.png")
        let slideBlue = RGB(r: 0x1f, g: 0x4e, b: 0x9c)
        XCTAssertEqual(external.pixel(x: 5, y: 5), slideBlue, "slide 1's background fills the projector")
        XCTAssertGreaterThan(external.fraction(of: slideBlue, tolerance: 3), 0.8)
        let builtin = try RigImage(contentsOf: out + "/HEADLESS-1.png")
        XCTAssertLessThan(builtin.fraction(of: RGB(hex: 0x3f3f3f)), 0.01, "the console fills the built-in output")
        XCTAssertGreaterThan(builtin.fraction(of: slideBlue, tolerance: 3), 0.1, "the console shows the current slide")
        XCTAssertLessThan(
            builtin.fraction(of: slideBlue, tolerance: 3), 0.6, "…but not as the full-screen audience view")
        XCTAssertTrue(r.stdout.contains("HEADLESS-2.png"), r.stdout)
    }
}
