import CPoppler
import Foundation
import TestHarness
import TestSupport
import XCTest

/// A video placed on a slide (a PDF link to the clip, written with cairo's
/// link tag) plays inside its rectangle on the audience screen when its page
/// shows; the console shows a still of it with a play marker. Pixels by grim.
final class PresenterVideoTests: ScreenplayTestCase {
    var media = ""

    override func setUpWithError() throws {
        media = try TestMedia.directory()
        let dir = media
        addTeardownBlock { TestMedia.remove(dir) }
    }

    /// Two grey 640x360 pages; the second has a link to `clip` over its
    /// middle (x 160-480, y 90-270), as LaTeX's \href{file://...} makes.
    func writeDeck(linkingTo clip: String) throws -> String {
        let path = media + "/talk.pdf"
        let surface = cairo_pdf_surface_create(path, 640, 360)
        let cr = cairo_create(surface)
        for page in 0..<2 {
            cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
            cairo_paint(cr)
            if page == 1 {
                cairo_tag_begin(cr, CAIRO_TAG_LINK, "rect=[160 90 320 180] uri='file://\(clip)'")
                cairo_tag_end(cr, CAIRO_TAG_LINK)
            }
            cairo_show_page(cr)
        }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        XCTAssertEqual(status, CAIRO_STATUS_SUCCESS)
        return path
    }

    /// As `PresenterTests.type`: the rig holds a keyboard on the seat (`keyboard: true`).
    func type(_ args: [String], _ env: [String: String]) throws {
        let r = try runProcess("wtype", ["-s", "120"] + args, environment: env, timeout: 5)
        XCTAssertEqual(r.status, 0, "wtype \(args): \(r.stderr)")
    }

    static func classify(_ c: RGB) -> Character? {
        switch (c.r > 200, c.g > 200, c.b > 200, c.r < 60, c.g < 60, c.b < 60) {
        case (true, _, _, _, true, true): "R"
        case (_, true, _, true, _, true): "G"
        case (_, _, true, true, true, _): "B"
        default: nil
        }
    }

    func testLinkedVideoPlaysInItsRectangleAndConsoleShowsAStill() throws {
        let clip = try TestMedia.colourSequence(in: media, name: "clip")
        let pdf = try writeDeck(linkingTo: clip)
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 640, height: 360)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "audience" }, p.stderr)
        let grey = RGB(hex: 0x808080)
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                (try? rig.capture(output: "HEADLESS-2").fraction(of: grey, tolerance: 3)) ?? 0 > 0.99
            }, p.stderr)
        try type(["-k", "Right"], e)
        XCTAssertNotNil(p.waitForEvent { $0.event == "slide_video" && $0.output == "HEADLESS-2" }, p.stderr)

        // The clip's colours in order in the middle of the rectangle; the
        // page around it stays the page.
        var seen = ""
        _ = waitUntil(timeout: 12, poll: 0.05) {
            guard let shot = try? rig.capture(output: "HEADLESS-2") else { return false }
            if let letter = Self.classify(shot.pixel(x: 320, y: 180)), seen.last != letter { seen.append(letter) }
            XCTAssertEqual(shot.pixel(x: 150, y: 80), grey, "outside the rectangle")
            XCTAssertEqual(shot.pixel(x: 490, y: 280), grey, "outside the rectangle")
            return seen.contains("RGB") && seen.hasSuffix("R")
        }
        XCTAssertTrue(seen.contains("RGB"), "the clip's colours in its rectangle: \(seen)\n\(p.stderr)")
        let shot = try rig.capture(output: "HEADLESS-2")
        for (x, y) in [(165, 95), (475, 95), (165, 265), (475, 265)] {
            XCTAssertNotNil(
                Self.classify(shot.pixel(x: x, y: y)),
                "the video fills its rectangle at (\(x), \(y)): \(shot.pixel(x: x, y: y))")
        }

        // The console: the current slide with the clip's first picture (red)
        // where the video sits, not playing, and a marker in its middle.
        let console = try XCTUnwrap(
            p.statsEvents.last { $0.event == "console" && $0.raw["page"] as? String == "2" }, p.stderr)
        let rect = try XCTUnwrap(console.raw["current_rect"] as? [Int])
        let (x, y, w, h) = (rect[0], rect[1], rect[2], rect[3])
        // The 16:9 page fills the 16:9 view or is letterboxed in it; the
        // video's rectangle is the middle half of the page either way.
        let fit =
            (w * 9 > h * 16)
            ? (x + (w - h * 16 / 9) / 2, y, h * 16 / 9, h) : (x, y + (h - w * 9 / 16) / 2, w, w * 9 / 16)
        let inside = (fit.0 + fit.2 * 28 / 100, fit.1 + fit.3 * 28 / 100)
        for _ in 0..<2 {
            XCTAssertTrue(
                waitUntil(timeout: 5) {
                    (try? rig.capture(output: "HEADLESS-1")).map { Self.classify($0.pixel(x: inside.0, y: inside.1)) }
                        == "R"
                },
                "the console's still at \(inside): \(String(describing: try? rig.capture(output: "HEADLESS-1").pixel(x: inside.0, y: inside.1)))"
            )
            Thread.sleep(forTimeInterval: 1.5)  // still red a clip-second later: a still, not playing
        }
        let centre = try rig.capture(output: "HEADLESS-1").pixel(x: fit.0 + fit.2 / 2, y: fit.1 + fit.3 / 2)
        XCTAssertNil(Self.classify(centre), "the play marker covers the middle of the still: \(centre)")

        // Back to page 1: the video stops and the page is plain grey again.
        try type(["-k", "Left"], e)
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                (try? rig.capture(output: "HEADLESS-2").fraction(of: grey, tolerance: 3)) ?? 0 > 0.99
            }, p.stderr)
        assertCleanStop(p)
    }
}
