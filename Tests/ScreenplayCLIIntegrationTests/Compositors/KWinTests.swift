import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// KDE's KWin 5.27, headless: layer shell from a compositor that is not
/// wlroots, and the only one here with wp_fractional_scale_v1.
final class KWinTests: ScreenplayTestCase {
    /// On a 1.5-scaled output the scene is a layer surface
    /// whose buffer is the output's exact pixel size (960x540), shown
    /// through a viewport at the logical 640x360, with buffer scale 1; it
    /// is paced by KWin's frame callbacks, one buffer for each.
    func testLayerSurfaceAtFractionalScale() throws {
        // Small outputs: KWin composites with llvmpipe too, and two 1080p
        // outputs at 60 Hz do not keep up on a loaded two-core machine.
        let rig = try KWinRig.start(outputs: 2, width: 640, height: 360, scale: 1.5)
        addTeardownBlock { rig.stop() }
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "Virtual-0"
        environment["WAYLAND_DEBUG"] = "client"
        let frag = try temporaryShader(
            "kwin",
            "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.5 + 0.5 * sin(iTime), p.x / iResolution.x, 0.0, 1.0); }"
        )
        let p = try CLI.start(["present", frag, "--stats", "-"], environment: environment)
        let connect = p.waitForEvent { $0.event == "connect" }
        XCTAssertEqual(connect?.output, "Virtual-1", "\(rig.log)")
        XCTAssertEqual(connect.map { [$0.int("width"), $0.int("height")] }, [960, 540], "the output's pixels")
        XCTAssertEqual(connect.map { [$0.int("logical_width"), $0.int("logical_height")] }, [640, 360])
        XCTAssertEqual(connect?.raw["content_scale"] as? Double, 1.5)
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.frames(for: "Virtual-1").count >= 4 }, p.stderr.suffix(3000).description)
        assertCleanStop(p)
        // Paced by KWin's frame callbacks: one buffer for each callback, none
        // unasked, never faster than 60 Hz. How many callbacks KWin sends is
        // KWin's: it composites with llvmpipe, and beside another test on
        // two cores it gave 51 and 43 a second (CI), so the rate is held to
        // the callbacks, not to 60.
        assertAnswersFrameCallbacks(p, output: "Virtual-1", role: .layer, hz: 60, "KWin's 60 Hz output")

        // The protocol, from libwayland's own trace of the client.
        let trace = p.stderr
        XCTAssertFalse(trace.contains("no zwlr_layer_shell_v1"), "KWin has layer shell: no fallback")
        XCTAssertTrue(trace.contains("zwlr_layer_shell_v1@"), "a layer surface")
        XCTAssertTrue(trace.contains(".preferred_scale(180)"), "KWin offers 1.5 as 180/120")
        XCTAssertTrue(trace.contains(".set_destination(640, 360)"), "viewport at the logical size")
        XCTAssertTrue(
            trace.contains("create_buffer(new id wl_buffer@") && trace.contains(", 960, 540, 3840, "),
            "a 960x540 buffer")
        let bufferScales = trace.components(separatedBy: "\n").filter { $0.contains(".set_buffer_scale(") }
        XCTAssertEqual(
            bufferScales.last.map { $0.hasSuffix(".set_buffer_scale(1)") }, true,
            "buffer scale 1 with a viewport: \(bufferScales)")
    }

    /// A PDF talk on KDE: the audience view on the external output at its
    /// pixel size, the console full screen on the laptop's (KWin confirms
    /// it in its configure), run as a speaker runs it. (KWin's screenshot
    /// D-Bus API did not answer here and it has no virtual keyboard: pixels
    /// and keys are tested on sway.)
    func testPDFTalkPutsTheAudienceOnTheExternalOutputAndTheConsoleOnTheLaptop() throws {
        let rig = try KWinRig.start(outputs: 2, width: 640, height: 360)
        addTeardownBlock { rig.stop() }
        let p = try startPDFTalk(rig.clientEnvironment, laptop: "Virtual-0", external: "Virtual-1", size: [640, 360])
        XCTAssertNotNil(
            p.waitForEvent {
                $0.event == "drawn" && $0.output == "Virtual-1" && $0.raw["content"] as? String == "page 1"
            },
            p.stderr)
        assertCleanStop(p)
    }

    /// The same talk with pixels: KWin nested in a headless sway (its
    /// wayland backend, each output a window of the parent), so sway's grim
    /// reads what KWin shows on the audience output.
    func testPDFTalkOnNestedKWinShowsTheAudienceFullScreen() throws {
        let parent = try startSway([.init(width: 1400, height: 600)])
        let kwin = try KWinRig.startNested(inWaylandDisplay: parent.waylandDisplay)
        addTeardownBlock { kwin.stop() }
        // sway tiles KWin's two output windows side by side: 700x600 each.
        let p = try startPDFTalk(kwin.clientEnvironment, laptop: "WL-0", external: "WL-1", size: [700, 600])
        XCTAssertFalse(p.stderr.contains("cannot be shown"), p.stderr)
        // WL-1's window is the right half of sway's output: page 1 spans its width (bars above and below).
        var shot: RigImage?
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                shot = try? parent.capture(output: "HEADLESS-1")
                return shot?.pixel(x: 702, y: 300) == RGB(hex: SampleDeck.backgrounds[0])
                    && shot?.pixel(x: 1397, y: 300) == RGB(hex: SampleDeck.backgrounds[0])
            }, "page 1 does not fill the audience output: \(p.stderr)")
        assertCleanStop(p)
    }

    /// Keys on KWin, launched as a desktop's launcher starts an app: with an
    /// `xdg_activation_v1` token in `XDG_ACTIVATION_TOKEN`, which the
    /// presenter's console hands to KWin (KWin's log says it activated the
    /// console on the token's behalf), a key typed on the parent's keyboard
    /// turns the audience page (sway's grim reads it). The key goes through
    /// a keyboard with the standard keymap: KWin's wayland backend reads the
    /// parent's key codes with its own keymap, and wtype's per-call keymap put
    /// Right where KWin reads Escape.
    func testAKeyTurnsThePageOnNestedKWinWithTheLaunchersToken() throws {
        let parent = try startSway([.init(width: 1400, height: 600)], keyboard: true)
        let kwin = try KWinRig.startNested(inWaylandDisplay: parent.waylandDisplay)
        addTeardownBlock { kwin.stop() }
        var environment = kwin.clientEnvironment
        environment["XDG_ACTIVATION_TOKEN"] = try kwin.activationToken(appID: "screenplay")
        let p = try startPDFTalk(environment, laptop: "WL-0", external: "WL-1", size: [700, 600])
        func audience() -> RGB? { try? parent.capture(output: "HEADLESS-1").pixel(x: 720, y: 300) }
        XCTAssertTrue(
            waitUntil(timeout: 15) { audience() == RGB(hex: SampleDeck.backgrounds[0]) },
            "page 1 is not on the audience output: \(String(describing: audience())) \(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                kwin.log.split(separator: "\n").contains {
                    $0.contains("activating KWin::XdgToplevelWindow") && $0.contains("caption=\"Presenter")
                }
            },
            "KWin did not activate the console with the token: \(kwin.log.suffix(2000))")
        try parent.typeWithStandardKeymap("Right")
        XCTAssertNotNil(
            p.waitForEvent {
                $0.event == "drawn" && $0.output == "WL-1" && $0.raw["content"] as? String == "page 2"
            },
            "the key did not reach the presenter: \(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 15) { audience() == RGB(hex: SampleDeck.backgrounds[1]) },
            "page 2 is not on the audience output: \(String(describing: audience()))")
        assertCleanStop(p)
    }
}
