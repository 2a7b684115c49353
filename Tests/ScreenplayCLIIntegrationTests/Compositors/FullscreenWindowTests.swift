import Foundation
import TestHarness
import TestSupport
import XCTest

/// `--fullscreen-window` on sway: the fallback GNOME gets, on a compositor
/// that has layer shell, sends `enter` and lets a test move the window.
final class FullscreenWindowTests: ScreenplayTestCase {
    /// The fullscreen window fills the asked output and leaves
    /// the built-in one alone; when the compositor moves it to another
    /// output, its `enter` events tell and Screenplay says so, naming both.
    func testWindowOnTheAskedOutputAndAMoveIsReported() throws {
        let rig = try startSway([.init(width: 800, height: 600), .init(width: 800, height: 600)])
        let p = try CLI.start(
            ["present", "--fullscreen-window", "color", "33aa55", "--stats", "-"],
            environment: env(rig, builtin: "HEADLESS-1"))
        let connect = p.waitForEvent { $0.event == "connect" }
        XCTAssertEqual(connect?.output, "HEADLESS-2", p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) { p.stderr.contains("layer shell is turned off (fullscreen window asked for)") },
            p.stderr)
        let filled = waitUntil(timeout: 8) {
            (try? rig.capture(output: "HEADLESS-2"))?.fraction(of: RGB(hex: 0x33aa55), tolerance: 2) == 1.0
        }
        XCTAssertTrue(filled, "the fullscreen window must fill HEADLESS-2")
        XCTAssertEqual((try? rig.capture(output: "HEADLESS-1"))?.fraction(of: RGB(hex: 0x33aa55), tolerance: 2), 0)
        XCTAssertFalse(p.stderr.contains("the compositor put"), "on the asked output: nothing to report")

        try rig.swaymsg("[app_id=screenplay-scene]", "move", "container", "to", "output", "HEADLESS-1")
        let reported = waitUntil(timeout: 5) {
            p.stderr.contains(
                "screen HEADLESS-2: the compositor put the fullscreen fallback window on HEADLESS-1 instead")
        }
        XCTAssertTrue(reported, p.stderr)
        assertCleanStop(p)
    }

    func testFullscreenWindowRefusesLayerAndPreview() throws {
        for extra in [["--layer", "top"], ["--preview"]] {
            let r = try CLI.run(["present", "--fullscreen-window"] + extra + ["test-card"], environment: [:])
            XCTAssertEqual(r.status, 64, "\(extra): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--fullscreen-window"), r.stderr)
        }
    }
}
