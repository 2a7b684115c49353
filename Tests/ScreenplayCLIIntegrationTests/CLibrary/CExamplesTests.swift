import Foundation
import TestHarness
import TestSupport
import XCTest

/// The C and Python examples, built from what scripts/install.sh installed
/// (pkg-config), on a nested sway whose TV can really be unplugged: WL-1
/// plays the laptop (marked built-in), WL-2 the TV. Each checks the TV's
/// pixels, a key that changes them, the TV unplugged and a new one plugged
/// in reaching the callbacks, and SIGTERM ending in exit 0.
final class CExamplesTests: ScreenplayTestCase {
    static let backglass = RGB(hex: 0x2a0a4a)
    static let amber = RGB(hex: 0xff8c00)
    static let home = RGB(hex: 0x1e5aa8)
    static let background = RGB(hex: 0x101820)

    func startRig() throws -> (NestedSwayRig, [String: String]) {
        let rig = try NestedSwayRig.start(outputs: 2)
        addTeardownBlock { rig.stop() }
        try rig.focusOutput("WL-1")
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "WL-1"
        return (rig, environment)
    }

    /// The share of the backglass's purple and of lit amber dots on `output`.
    func backglass(_ rig: NestedSwayRig, _ output: String) -> (purple: Double, amber: Double) {
        guard let image = try? rig.capture(output: output) else { return (0, 0) }
        return (image.fraction(of: Self.backglass, tolerance: 3), image.fraction(of: Self.amber, tolerance: 3))
    }

    /// Builds the pinball example against the scratch install, as its header comment says.
    func buildPinball(_ install: ScratchInstall) throws -> String {
        let examples = install.prefix + "/share/doc/screenplay/examples/c-pinball"
        try install.buildC(examples + "/pinball.c", output: examples + "/pinball", packages: "screenplay sdl2 glesv2")
        return examples + "/pinball"
    }

    func testPinballShowsTheBackglassAndScoreOnTheTVAndFollowsItsHotPlug() throws {
        let install = try ScratchInstall(self)
        let pinball = try buildPinball(install)
        let (rig, rigEnvironment) = try startRig()
        var environment = rigEnvironment
        environment["LD_LIBRARY_PATH"] = install.prefix + "/lib"
        environment["SDL_VIDEODRIVER"] = nil
        let p = try RunningProcess(pinball, [], environment: environment)
        addTeardownBlock { p.kill() }
        XCTAssertTrue(waitUntil(timeout: 15) { p.stderr.contains("backglass on WL-2") }, p.stderr)
        XCTAssertTrue(p.stderr.contains("screen WL-2 there"), p.stderr)

        // The picture and the score "0" in amber dots.
        var before = (purple: 0.0, amber: 0.0)
        XCTAssertTrue(
            waitUntil(timeout: 5, poll: 0.1) {
                before = self.backglass(rig, "WL-2")
                return before.purple > 0.2 && before.amber > 0.001
            }, "TV: backglass \(before); \(p.stderr)")

        // A flipper key on the playfield: 1000 points, four digits of dots.
        try typeKeys(["-k", "Right"], environment)
        XCTAssertNotNil(p.waitForLine(containing: "score 1000", timeout: 5), p.stdout + p.stderr)
        var after = before
        XCTAssertTrue(
            waitUntil(timeout: 5, poll: 0.1) {
                after = self.backglass(rig, "WL-2")
                return after.amber > before.amber * 2.5 && after.purple > 0.2
            }, "TV after the key: \(after), before \(before); \(p.stderr)")

        // The TV unplugged: the scene and the screen go; the game goes on.
        try rig.removeOutput("WL-2")
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("screen WL-2 disconnected") }, p.stderr)
        XCTAssertTrue(p.stderr.contains("backglass off"), p.stderr)
        XCTAssertTrue(p.isRunning, p.stderr)

        // Another TV: connected, classified external, the same score on it.
        let tv = try rig.addOutput()
        XCTAssertTrue(waitUntil(timeout: 15) { p.stderr.contains("screen \(tv) connected (external)") }, p.stderr)
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("backglass on \(tv)") }, p.stderr)
        var replugged = (purple: 0.0, amber: 0.0)
        XCTAssertTrue(
            waitUntil(timeout: 5, poll: 0.1) {
                replugged = self.backglass(rig, tv)
                return replugged.purple > 0.2 && abs(replugged.amber - after.amber) < after.amber * 0.2
            }, "new TV \(tv): \(replugged), expected amber near \(after.amber); \(p.stderr)")

        // SIGTERM reaches SDL's loop as SDL_QUIT: destroy, exit 0.
        assertCleanStop(p)
        XCTAssertTrue(p.stderr.contains("stopped"), p.stderr)
        XCTAssertFalse(p.stderr.contains("error"), p.stderr)
    }

    func testPythonScoreboardShowsTheLeaderOnTheTVAndFollowsItsHotPlug() throws {
        let install = try ScratchInstall(self)
        let script = install.prefix + "/share/doc/screenplay/examples/python-scoreboard/scoreboard.py"
        let (rig, rigEnvironment) = try startRig()
        var environment = rigEnvironment
        // The script finds the library through pkg-config's libdir, as after an install to /usr/local.
        environment["PKG_CONFIG_PATH"] = install.prefix + "/lib/pkgconfig"
        let p = try RunningProcess("/usr/bin/python3", [script], environment: environment)
        addTeardownBlock { p.kill() }
        XCTAssertTrue(waitUntil(timeout: 15) { p.stderr.contains("showing the score on WL-2") }, p.stderr)

        func half(_ output: String, _ color: RGB, left: Bool) -> Double {
            guard let image = try? rig.capture(output: output) else { return 0 }
            let w = image.width / 2
            return image.fraction(
                of: color, tolerance: 3, in: PixelRect(x: left ? 0 : w, y: 0, width: w, height: image.height))
        }
        XCTAssertTrue(
            waitUntil(timeout: 5, poll: 0.1) {
                half("WL-2", Self.background, left: true) > 0.6 && half("WL-2", Self.background, left: false) > 0.6
            }, "a tie: both halves background; \(p.stderr)")

        // The keypad window on the laptop has the focus: h scores for home.
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.swaymsg("-t", "get_tree"))?.contains("Scoreboard keypad") == true },
            "the keypad window opened")
        try typeKeys(["h"], environment)
        XCTAssertNotNil(p.waitForLine(containing: "score 1 0", timeout: 5), p.stdout + p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5, poll: 0.1) { half("WL-2", Self.home, left: true) > 0.6 },
            "home leads: the left half in home's colour; \(p.stderr)")

        try rig.removeOutput("WL-2")
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("screen WL-2 disconnected") }, p.stderr)
        XCTAssertTrue(p.stderr.contains("a TV went away"), p.stderr)
        let tv = try rig.addOutput()
        XCTAssertTrue(waitUntil(timeout: 15) { p.stderr.contains("showing the score on \(tv)") }, p.stderr)
        XCTAssertTrue(p.stderr.contains("screen \(tv) connected"), p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5, poll: 0.1) { half(tv, Self.home, left: true) > 0.6 },
            "the new TV shows the same score; \(p.stderr)")

        assertCleanStop(p)
        XCTAssertTrue(p.stderr.contains("SIGTERM: stopping"), p.stderr)
        XCTAssertTrue(p.stderr.contains("stopped"), p.stderr)
    }
}
