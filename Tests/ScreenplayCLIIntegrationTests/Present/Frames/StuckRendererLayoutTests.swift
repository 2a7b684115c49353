import Foundation
import TestHarness
import TestSupport
import XCTest

/// A region's item that never finishes its draw is remembered by its own
/// file, as a panel's is: after the restart that region skips it and the
/// rest of the layout plays.
extension StuckRendererTests {
    func testPlayRemembersTheRegionItemThatHungAndSkipsItAfterTheRestart() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let dir = NSTemporaryDirectory() + "screenplay-stuck-layout-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try Self.hangSource.write(toFile: dir + "/hang.frag", atomically: true, encoding: .utf8)
        let playlist = dir + "/signage.json"
        try """
        {"layouts": {"m": {"regions": [
            {"name": "fx", "x": 0, "y": 0, "width": "50%", "height": "100%",
             "items": [{"file": "hang.frag", "duration": 1}, {"color": "ff0000", "duration": 1}]},
            {"name": "still", "x": "50%", "y": 0, "width": "50%", "height": "100%", "items": [{"color": "00ff00"}]}]}},
         "default": "m"}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["XDG_STATE_HOME"] = dir + "/state"

        let first = try CLI.start(["play", "--stall-grace", "2", "--stats", "-", playlist], environment: environment)
        addTeardownBlock { first.kill() }
        XCTAssertEqual(first.wait(timeout: 20), 70, first.stderr)
        XCTAssertTrue(first.stderr.contains("hang.frag) has not returned"), first.stderr)

        let second = try CLI.start(["play", "--stall-grace", "2", "--stats", "-", playlist], environment: environment)
        addTeardownBlock { second.kill() }
        XCTAssertTrue(
            waitUntil(timeout: 10) { second.stderr.contains("hang.frag: skipped: it hung the renderer on HEADLESS-2") },
            second.stderr)
        Thread.sleep(forTimeInterval: 4)  // two turns of the region: the hang's slot keeps the red item
        XCTAssertTrue(second.isRunning, second.stderr)
        let shown = second.statsEvents.filter { $0.event == "item" && $0.output == "HEADLESS-2" }
        let sources = { (region: String) in
            Set(shown.filter { $0.raw["region"] as? String == region }.compactMap { $0.raw["source"] as? String })
        }
        XCTAssertEqual(sources("fx"), ["#FF0000"], second.stdout)
        XCTAssertEqual(sources("still"), ["#00FF00"], second.stdout)
        assertCleanStop(second)
    }
}
