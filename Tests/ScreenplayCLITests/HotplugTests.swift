import Foundation
import TestSupport
import XCTest

/// Real output removal (nested sway): the scene on a removed output is torn
/// down without a compositor error, the others keep presenting, and a new
/// output gets content.
final class HotplugTests: XCTestCase {
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
        XCTAssertTrue(waitUntil(timeout: 5) { (try? rig.capture(output: "WL-3").fraction(of: cyan, tolerance: 2)) == 1.0 })

        let added = try rig.addOutput()
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == added }, p.stderr)
        XCTAssertTrue(waitUntil(timeout: 5) { (try? rig.capture(output: added).fraction(of: cyan, tolerance: 2)) == 1.0 })
        assertCleanStop(p)
    }
}
