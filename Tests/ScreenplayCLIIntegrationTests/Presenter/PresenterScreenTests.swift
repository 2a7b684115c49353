import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// The presenter's screens come and go: swapped by a key, unplugged and
/// plugged back, or missing from the start.
extension PresenterTests {
    /// `s` swaps the screens: the audience slide goes to the
    /// screen the console was on, the console to the other one.
    func testSwapMovesConsoleAndAudience() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", deck.pdf, "--stats", "-"], environment: e)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "audience" }, p.stderr)
        let cap = { (name: String) in try rig.capture(output: name) }
        XCTAssertTrue(waitForColor(background(1), on: "HEADLESS-2", capture: cap), p.stderr)
        try type(["s"], e)
        XCTAssertNotNil(p.waitForEvent { $0.event == "swap" && $0.raw["console"] as? String == "HEADLESS-2" }, p.stderr)
        XCTAssertTrue(
            waitForColor(background(1), on: "HEADLESS-1", capture: cap, minimum: 0.95),
            "the audience slide moves to HEADLESS-1\n\(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                (try? rig.capture(output: "HEADLESS-2").fraction(of: self.background(1), tolerance: 3)) ?? 1 < 0.6
            },
            "the console, not the full slide, is on HEADLESS-2 now")
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["output"] as? String == "HEADLESS-2" },
            "\(String(describing: lastConsole(p)?.raw))")
        try endTalk(p, e)
    }

    /// Unplugging the only external output leaves the console
    /// with the banner and the timer running; a new output gets the current page.
    func testUnplugShowsBannerAndReplugShowsCurrentPage() throws {
        let rig = try NestedSwayRig.start(outputs: 2, outputSize: .init(width: 1280, height: 720))
        addTeardownBlock { rig.stop() }
        try rig.attachKeyboard()
        try rig.focusOutput("WL-1")
        var e = rig.clientEnvironment
        e["SCREENPLAY_BUILTIN"] = "WL-1"
        let p = try CLI.start(["present", deck.pdf, "--stats", "-"], environment: e)
        let cap = { (name: String) in try rig.capture(output: name) }
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "WL-2" }, p.stderr)
        XCTAssertTrue(waitForColor(background(1), on: "WL-2", capture: cap), p.stderr)
        try type(["-k", "Right"], e)
        XCTAssertTrue(waitForColor(background(2), on: "WL-2", capture: cap))
        XCTAssertTrue(waitForConsole(p) { $0.raw["banner"] as? String == "false" })

        try rig.removeOutput("WL-2")
        XCTAssertTrue(waitForConsole(p) { $0.raw["banner"] as? String == "true" }, "banner after unplug\n\(p.stderr)")
        XCTAssertTrue(p.isRunning)
        try type(["-k", "Right"], e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["page"] as? String == "3" && $0.raw["timer_running"] as? String == "true" },
            "keys and timer keep working without an audience")

        let added = try rig.addOutput()
        let start = Date()
        XCTAssertTrue(
            waitForColor(background(3), on: added, capture: cap, timeout: 5),
            "the new output shows the current page\n\(p.stderr)")
        // How long, for the log: the promise is that it shows (above); the
        // time includes the nested sway's new output and grim's captures.
        print(
            String(
                format: "presenter: the plugged output showed the current page after %.2f s",
                Date().timeIntervalSince(start)))
        XCTAssertTrue(waitForConsole(p) { $0.raw["banner"] as? String == "false" })
        XCTAssertFalse(
            p.statsEvents.contains {
                $0.event == "connect" && $0.raw["role"] as? String == "audience" && $0.output == "WL-1"
            })
        assertCleanStop(p)
    }

    /// Started with no external screen the console runs and
    /// waits; --rehearse shows the audience view in a window instead.
    func testNoExternalScreenWaitsAndRehearseUsesAWindow() throws {
        let rig = try startSway([.init(width: 1280, height: 720)])
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", deck.pdf, "--stats", "-"], environment: e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["banner"] as? String == "true" }, p.stderr)
        XCTAssertTrue(p.stderr.contains("waits for one"), p.stderr)
        assertCleanStop(p)

        let r = try CLI.start(["present", deck.pdf, "--rehearse", "--stats", "-"], environment: e)
        let audience = r.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "audience" }
        XCTAssertNotNil(audience, r.stderr)
        XCTAssertTrue(waitForConsole(r) { $0.raw["banner"] as? String == "false" }, "no banner when rehearsing")
        XCTAssertNotNil(r.waitForEvent { $0.event == "drawn" && $0.raw["content"] as? String == "page 1" }, r.stderr)
        assertCleanStop(r)
    }
}
