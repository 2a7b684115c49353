import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// GNOME's mutter 43, headless: no layer shell, so the fullscreen fallback;
/// `wl_surface.enter` and real `wp_presentation` feedback. Mutter has no
/// screenshot protocol, so these tests check placement, pacing and idle cost
/// from the protocol, not pixels (MutterTalkTests, below, reads them from
/// mutter nested in Xvfb).
final class MutterTests: ScreenplayTestCase {
    private func startMutter(_ monitors: [OutputMode]) throws -> MutterRig {
        let rig = try MutterRig.start(monitors: monitors)
        addTeardownBlock { rig.stop() }
        return rig
    }

    /// The scene is a fullscreen window on the asked monitor
    /// (no misplacement report), timed by presentation feedback at that
    /// monitor's refresh, one buffer for each of mutter's frame callbacks,
    /// and exits cleanly.
    func testFallbackLandsOnTheAskedMonitorAndPacesToItsRefresh() throws {
        let rig = try startMutter([
            OutputMode(width: 1280, height: 720), OutputMode(width: 1024, height: 768, refreshHz: 30),
        ])
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "Meta-0"
        environment["WAYLAND_DEBUG"] = "client"
        let frag = try temporaryShader(
            "mutter",
            "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.5 + 0.5 * sin(iTime), p.x / iResolution.x, 0.0, 1.0); }"
        )
        let p = try CLI.start(["present", frag, "--stats", "-"], environment: environment)
        let connect = p.waitForEvent { $0.event == "connect" }
        XCTAssertEqual(connect?.output, "Meta-1", p.screenplayLines)
        XCTAssertEqual(connect?.int("width"), 1024)
        XCTAssertEqual(connect?.int("height"), 768)
        XCTAssertEqual(connect?.int("refresh_mhz"), 30000)
        XCTAssertTrue(waitUntil(timeout: 10) { p.frames(for: "Meta-1").count >= 5 }, p.screenplayLines)
        for w in p.frames(for: "Meta-1").dropFirst(2) {
            XCTAssertEqual(w.raw["source"] as? String, "presentation", "mutter gives wp_presentation feedback")
            XCTAssertEqual(Double(w.int("refresh_ns")) / 1e6, 33.33, accuracy: 0.5)
        }
        XCTAssertEqual(
            p.stderr.components(separatedBy: "no zwlr_layer_shell_v1").count - 1, 1, "warned once: \(p.screenplayLines)"
        )
        XCTAssertFalse(p.stderr.contains("the compositor put"), "mutter honours the output hint: \(p.screenplayLines)")
        XCTAssertFalse(p.stderr.contains("the compositor made"), p.screenplayLines)
        assertCleanStop(p)
        // mutter composites with llvmpipe: under load it sends fewer
        // callbacks than its refresh, and that rate is mutter's.
        assertAnswersFrameCallbacks(p, output: "Meta-1", role: .xdgSurface, hz: 30, "mutter's 30 Hz monitor")
        XCTAssertNotNil(
            p.statsEvents.first { $0.event == "disconnect" && $0.output == "Meta-1" }, "disconnect reported")
    }

    /// On GNOME, static content is presented once, then no
    /// frames at all.
    func testStaticContentPresentsOnceThenIdles() throws {
        let rig = try startMutter([OutputMode(width: 1280, height: 720)])
        let p = try CLI.start(
            ["present", "--all", "color", "ff8000", "--stats", "-"], environment: rig.clientEnvironment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        XCTAssertTrue(waitUntil(timeout: 10) { p.frames(for: "Meta-0").count >= 4 }, p.stderr)
        let windows = p.frames(for: "Meta-0")
        XCTAssertEqual(
            windows.map { $0.int("presented") }.reduce(0, +), 1, "one frame in all: \(windows.map { $0.raw })")
        XCTAssertEqual(windows.first?.raw["source"] as? String, "presentation")
        for w in windows.dropFirst() { XCTAssertEqual(w.int("presented"), 0, "idle after the first frame") }
        assertCleanStop(p)
    }

    /// `screenplay doctor` on GNOME explains the fallback.
    func testDoctorExplainsTheFallback() throws {
        let rig = try startMutter([OutputMode(width: 1280, height: 720)])
        let r = try CLI.run(["doctor"], environment: rig.clientEnvironment)
        let line = r.stdout.components(separatedBy: "\n").first { $0.contains("zwlr_layer_shell_v1") }
        XCTAssertNotNil(line, r.stdout)
        XCTAssertTrue(line?.contains("fall back to fullscreen windows") == true, r.stdout)
        XCTAssertTrue(line?.contains("may take keyboard focus") == true, r.stdout)
        XCTAssertTrue(r.stdout.contains("wp_presentation"), "mutter's presentation-time is listed: \(r.stdout)")
    }

    /// A PDF talk on GNOME, as a speaker runs it: the audience view is a
    /// full-screen window on the external monitor at its size, the console
    /// full screen on the laptop's, and the log says what happens instead
    /// of calling the audience view impossible. (Headless mutter has no
    /// screenshot protocol and no virtual keyboard: MutterTalkTests reads
    /// pixels and types keys on mutter nested in Xvfb.)
    func testPDFTalkPutsTheAudienceOnTheExternalMonitorAndTheConsoleOnTheLaptop() throws {
        let rig = try startMutter([OutputMode(width: 1280, height: 720), OutputMode(width: 1024, height: 768)])
        let p = try startPDFTalk(rig.clientEnvironment, laptop: "Meta-0", external: "Meta-1", size: [1024, 768])
        XCTAssertTrue(p.stderr.contains("the audience view is a full-screen window on each external screen"), p.stderr)
        XCTAssertFalse(p.stderr.contains("cannot be shown"), p.stderr)
        XCTAssertFalse(
            p.stderr.contains("the compositor put"), "the audience window is where it was asked: \(p.stderr)")
        assertCleanStop(p)
    }
}

/// A PDF talk on mutter with pixels and keys: mutter nested in an Xvfb
/// server (`mutter --nested`), two 1024x768 monitors named as a laptop's
/// GNOME names them (eDP-1, HDMI-A-1), read back with `xwd` and typed on
/// with `xdotool`.
final class MutterTalkTests: ScreenplayTestCase {
    /// As a speaker runs it (`screenplay present deck.pdf`, nothing marked
    /// built-in by hand): the audience page full screen on HDMI-A-1 (pixels of
    /// what reached it), the console full screen on eDP-1, a key typed on
    /// the keyboard turns the page on the audience monitor whichever window
    /// mutter focused, and nothing calls the audience view impossible.
    func testPDFTalkOnMutterShowsTheAudienceFullScreenAndKeysTurnThePages() throws {
        let rig = try MutterRig.startNested()
        addTeardownBlock { rig.stop() }
        let p = try startPDFTalk(
            rig.clientEnvironment, laptop: "eDP-1", external: "HDMI-A-1", size: [1024, 768], markBuiltIn: false)
        XCTAssertTrue(p.stderr.contains("the audience view is a full-screen window on each external screen"), p.stderr)
        XCTAssertFalse(p.stderr.contains("cannot be shown"), p.stderr)
        XCTAssertFalse(p.stderr.contains("the compositor put"), p.stderr)
        // HDMI-A-1 is the right half of the stage. The 16:9 page spans its width
        // (rows 96 to 671, bars above and below): near both edges, at row 200, is
        // page background, away from the pointer Xvfb starts at the stage's centre.
        func audience() -> [RGB?] {
            let shot = try? rig.capture()
            return [shot?.pixel(x: 1024 + 20, y: 200), shot?.pixel(x: 2048 - 20, y: 200)]
        }
        func shows(_ page: Int) -> Bool {
            audience() == [RGB(hex: SampleDeck.backgrounds[page])] + [RGB(hex: SampleDeck.backgrounds[page])]
        }
        XCTAssertTrue(waitUntil(timeout: 15) { shows(0) }, "page 1 does not fill HDMI-A-1: \(audience()) \(p.stderr)")
        try rig.typeKey("Right")
        XCTAssertNotNil(
            p.waitForEvent {
                $0.event == "drawn" && $0.output == "HDMI-A-1" && $0.raw["content"] as? String == "page 2"
            },
            p.stderr)
        XCTAssertTrue(waitUntil(timeout: 15) { shows(1) }, "page 2 is not on HDMI-A-1: \(audience())")
        assertCleanStop(p)
    }
}
