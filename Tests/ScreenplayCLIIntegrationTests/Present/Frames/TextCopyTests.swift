import Foundation
import TestHarness
import TestSupport
import XCTest

/// Text over the colour a scene was cleared to, redrawn every refresh, is
/// copied whole from a layer made once rather than blended glyph by glyph
/// (`PlainFill`); those frames change everywhere, so after the first they
/// are presented by Mesa's EGL swap, into the window's own buffer, which
/// Mesa stores the other way up from a layer. What reaches the output
/// (grim) must be the pixels of the same text drawn once and blended.
final class TextCopyTests: ScreenplayTestCase {
    func testTextRedrawnEveryRefreshReachesTheOutputAsTheTextDrawnOnce() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        var environment = env(rig)
        // The benchmark's text scene: `present color` with a line of text
        // a fifth of the height, drawn once (static) or at every refresh.
        environment["SCREENPLAY_BENCH_TEXT"] = "Score 42"
        let background = RGB(hex: 0x204060)
        func capture() -> RigImage? { try? rig.capture(output: "HEADLESS-1") }
        func showsText(_ image: RigImage) -> Bool {
            let share = image.fraction(of: background, tolerance: 2)
            return share > 0.5 && share < 0.99
        }

        let still = try CLI.start(["present", "--all", "color", "204060"], environment: environment)
        var drawnOnce: RigImage?
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                drawnOnce = capture().flatMap { showsText($0) ? $0 : nil }
                return drawnOnce != nil
            }, still.stderr)
        assertCleanStop(still)
        let reference = try XCTUnwrap(drawnOnce)

        environment["SCREENPLAY_BENCH_CONTINUOUS"] = "1"
        environment["WAYLAND_DEBUG"] = "client"
        let animated = try CLI.start(["present", "--all", "color", "204060"], environment: environment)
        XCTAssertTrue(waitUntil(timeout: 10) { capture().map(showsText) == true }, animated.stderr)
        // Past the first frames (blended, then the layer made): copies only.
        Thread.sleep(forTimeInterval: 1)
        for attempt in 1...3 {
            let image = try XCTUnwrap(capture())
            let largest = zip(image.pixels, reference.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
            XCTAssertLessThanOrEqual(largest, 1, "capture \(attempt): the copied text differs from the drawn text")
            usleep(200_000)
        }
        assertCleanStop(animated)
        // Mesa's swap damages the whole surface (wl_surface.damage): the
        // frames went to the window's own buffer.
        let swapped = animated.stderr.split(separator: "\n").filter {
            $0.contains(" -> wl_surface@") && $0.contains(".damage(0, 0, 2147483647, 2147483647)")
        }
        XCTAssertGreaterThanOrEqual(swapped.count, 30, "frames presented by the EGL swap")
    }
}
