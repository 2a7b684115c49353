import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// A PDF talk on weston, which has no layer shell: Debian's weston 10
/// headless backend makes one output, so the talk's two run as weston's
/// wayland backend nested in a headless sway (each output a window there).
final class WestonTalkTests: ScreenplayTestCase {
    /// As a speaker runs it: the audience view full screen on the external
    /// output at its size (weston's own screenshot, pixels), the console full
    /// screen on the laptop's, a key typed on the keyboard (through the
    /// parent, whichever weston window has focus) turns the page on the
    /// audience output, and nothing calls the audience view impossible.
    func testPDFTalkOnWestonShowsTheAudienceFullScreenAndKeysTurnThePages() throws {
        let parent = try startSway([.init(width: 1400, height: 600)], keyboard: true)
        let weston = try WestonRig.startNested(inWaylandDisplay: parent.waylandDisplay)
        addTeardownBlock { weston.stop() }
        let p = try startPDFTalk(weston.clientEnvironment, laptop: "wayland0", external: "wayland1", size: [640, 480])
        XCTAssertTrue(p.stderr.contains("the audience view is a full-screen window on each external screen"), p.stderr)
        XCTAssertFalse(p.stderr.contains("cannot be shown"), p.stderr)
        // wayland1 is at x 640 in weston's desktop; its left edge, halfway down, is page background.
        func audience() -> RGB? { try? weston.capture().pixel(x: 660, y: 240) }
        XCTAssertTrue(
            waitUntil(timeout: 15) { audience() == RGB(hex: SampleDeck.backgrounds[0]) },
            "page 1 is not on the audience output: \(String(describing: audience())) \(p.stderr)")
        let typed = try runProcess(
            "wtype", ["-s", "150", "-k", "Right"], environment: parent.clientEnvironment, timeout: 5)
        XCTAssertEqual(typed.status, 0, typed.stderr)
        XCTAssertNotNil(
            p.waitForEvent {
                $0.event == "drawn" && $0.output == "wayland1" && $0.raw["content"] as? String == "page 2"
            },
            p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 15) { audience() == RGB(hex: SampleDeck.backgrounds[1]) },
            "page 2 is not on the audience output: \(String(describing: audience()))")
        assertCleanStop(p)
    }
}
