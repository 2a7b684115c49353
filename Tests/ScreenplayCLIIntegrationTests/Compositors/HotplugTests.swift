import Foundation
import TestHarness
import TestSupport
import XCTest

/// Real output removal (nested sway): the scene on a removed output is torn
/// down without a compositor error, the others keep presenting, and a new
/// output gets content.
final class HotplugTests: ScreenplayTestCase {
    func testRemovedOutputIsTornDownAndOthersKeepPresenting() throws {
        let rig = try NestedSwayRig.start(outputs: 3)
        addTeardownBlock { rig.stop() }
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "WL-1"
        let p = try CLI.start(["present", "color", "00c0ff", "--stats", "-"], environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "WL-2" }, p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "WL-3" }, p.stderr)
        // Nested outputs report refresh 0: the link falls back to 60 Hz timing.
        XCTAssertEqual(p.statsEvents.first { $0.event == "connect" }?.int("refresh_mhz"), 0)

        try rig.removeOutput("WL-2")
        XCTAssertNotNil(p.waitForEvent { $0.event == "disconnect" && $0.output == "WL-2" }, p.stderr)
        XCTAssertTrue(p.isRunning, "present must survive the removal: \(p.stderr)")
        XCTAssertFalse(p.stderr.contains("protocol error"), p.stderr)
        let cyan = RGB(r: 0, g: 0xc0, b: 0xff)
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: "WL-3").fraction(of: cyan, tolerance: 2)) == 1.0 })

        let added = try rig.addOutput()
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == added }, p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: added).fraction(of: cyan, tolerance: 2)) == 1.0 })
        assertCleanStop(p)
    }
}

/// A hidden output whose frame callbacks stop blocks nothing:
/// the other scene keeps presenting, signals are still handled, and the
/// hidden one resumes when shown again.
final class HiddenOutputTests: ScreenplayTestCase {
    func testHiddenOutputBlocksNeitherOtherScenesNorTheEventLoop() throws {
        let rig = try NestedSwayRig.start(outputs: 3)
        addTeardownBlock { rig.stop() }
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "WL-1"
        let frag = try temporaryShader(
            "hidden", "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.5 + 0.5 * sin(iTime), 0.2, 0.4, 1.0); }")
        let p = try CLI.start(["present", frag, "--stats", "-"], environment: environment)
        XCTAssertNotNil(
            p.waitForEvent { $0.event == "frames" && $0.output == "WL-2" && $0.int("presented") > 0 }, p.stderr)

        // WL-3's own rate before the hide: what "keeps presenting" is
        // measured against (nested outputs run at the parent's pace).
        XCTAssertTrue(waitUntil(timeout: 8) { p.frames(for: "WL-3").count >= 3 }, p.stderr)
        let before = p.frames(for: "WL-3").suffix(2).map { $0.int("presented") }
        let baseline = Double(before.reduce(0, +)) / Double(max(before.count, 1))

        // Hide WL-2's window in the parent: the nested output stops repainting.
        _ = try rig.parentSwaymsg("[title=\"^wlroots - WL-2$\"]", "move", "to", "workspace", "9")
        let hiddenSince = p.frames(for: "WL-2").count
        XCTAssertTrue(
            waitUntil(timeout: 8) {
                let recent = p.frames(for: "WL-2").dropFirst(hiddenSince + 1)
                return recent.count >= 2 && recent.suffix(2).allSatisfy { $0.int("presented") == 0 }
            }, "WL-2's frames should stop while hidden: \(p.frames(for: "WL-2").map { $0.int("presented") })")
        let stalled = p.waitForEvent(timeout: 5) { $0.event == "stalled" && $0.output == "WL-2" }
        XCTAssertNotNil(stalled, "a stats line says WL-2 stopped showing frames")
        XCTAssertGreaterThanOrEqual(stalled?.int("silent_ms") ?? 0, 250)
        let visibleNow = p.frames(for: "WL-3").count
        XCTAssertTrue(waitUntil(timeout: 5) { p.frames(for: "WL-3").count >= visibleNow + 2 })
        XCTAssertTrue(
            p.frames(for: "WL-3").suffix(2).allSatisfy { Double($0.int("presented")) >= max(1, baseline / 2) },
            "WL-3 keeps presenting (at least half its \(baseline) frames/s before the hide): \(p.frames(for: "WL-3").map { $0.int("presented") })"
        )

        // Shown again, it resumes.
        _ = try rig.parentSwaymsg("[title=\"^wlroots - WL-2$\"]", "move", "to", "workspace", "1")
        let shownAt = p.frames(for: "WL-2").count
        XCTAssertTrue(
            waitUntil(timeout: 8) { p.frames(for: "WL-2").dropFirst(shownAt).contains { $0.int("presented") > 0 } },
            "WL-2 resumes when shown")
        XCTAssertNotNil(p.waitForEvent(timeout: 5) { $0.event == "resumed" && $0.output == "WL-2" }, "and says so")
        XCTAssertFalse(p.statsEvents.contains { $0.event == "stalled" && $0.output != "WL-2" }, "only WL-2 stalled")
        assertCleanStop(p)
    }

    /// Content drawn at 2 fps on purpose is silent for 500 ms between
    /// frames: that is not a stall.
    func testLowFrameRateIsNoStall() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let frag = try temporaryShader(
            "slow", "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.5 + 0.5 * sin(iTime), 0.2, 0.4, 1.0); }")
        let p = try CLI.start(
            ["present", frag, "--fps", "2", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 8) { p.frames(for: "HEADLESS-2").count >= 4 }, p.stderr)
        XCTAssertTrue(p.frames(for: "HEADLESS-2").dropFirst().allSatisfy { $0.int("presented") >= 1 })
        XCTAssertFalse(p.statsEvents.contains { $0.event == "stalled" }, "\(p.statsEvents.map { $0.raw })")
        assertCleanStop(p)
    }
}
