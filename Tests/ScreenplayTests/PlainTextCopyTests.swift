import Rendering
import TestHarness
import XCTest

@testable import Screenplay

/// Text drawn again over the plain colour it was drawn on is copied whole
/// from a layer made once (`PlainFill`), and the copy is the same pixels
/// as the text blended glyph by glyph. Offscreen (Mesa's surfaceless
/// platform, an ES 3 context): a framebuffer object, stored the way up a
/// layer is; the window's own buffer (stored the other way up) is shown
/// on a compositor by `PresentTextCopyTests`.
final class PlainTextCopyTests: ScreenplayTestCase {
    private enum Bench {
        static let (width, height) = (320, 240)
    }

    /// One frame's pixels.
    @MainActor
    private func pixels(
        _ bench: OffscreenDrawing, clip: PixelRect? = nil, _ draw: (DrawingContext) throws -> Void
    ) throws -> [UInt8] {
        try bench.pixels(try bench.frame(clip: clip, draw))
    }

    private static let background = RGBColor(hex: 0x204060)

    /// The largest difference of any channel of any pixel.
    private func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    @MainActor
    func testTextDrawnAgainOverItsClearIsCopiedAsTheSamePixels() async throws {
        let bench = try OffscreenDrawing()
        defer { bench.close() }
        let scene = { (c: DrawingContext) in
            try c.clear(Self.background)
            try c.drawText(lines: [("Score 42", 48)], color: .white)
            try c.drawText("12:00:01", x: 13, y: 7, maxWidth: 200, pixelHeight: 20, color: RGBColor(hex: 0xffcc00))
        }
        let blended = try pixels(bench, scene)
        XCTAssertEqual(bench.resources.textCopiesOverPlain, 0, "a block's first draw over a colour is blended")
        let lit = stride(from: 0, to: blended.count, by: 4).filter { blended[$0] > 200 }.count
        XCTAssertGreaterThan(lit, 200, "the text is there")
        for frame in 2...4 {
            let copied = try pixels(bench, scene)
            XCTAssertEqual(bench.resources.textCopiesOverPlain, 2 * (frame - 1), "frame \(frame): both blocks copied")
            XCTAssertLessThanOrEqual(largestDifference(blended, copied), 1, "frame \(frame): the same pixels")
        }
    }

    @MainActor
    func testTextRedrawnNowAndThenIsNeverCopied() async throws {
        let bench = try OffscreenDrawing()
        defer { bench.close() }
        let scene = { (c: DrawingContext) in
            try c.clear(Self.background)
            try c.drawText("12:00:01", x: 13, y: 7, maxWidth: 200, pixelHeight: 20, color: .white)
        }
        for _ in 0..<3 {
            _ = try pixels(bench, scene)
            // Longer than an animation's frame (a clock's second, a slide shown again).
            usleep(150_000)
        }
        _ = try pixels(bench, scene)
        XCTAssertEqual(bench.resources.textCopiesOverPlain, 0, "no layer for text that is not animated")
        _ = try pixels(bench, scene)
        XCTAssertEqual(bench.resources.textCopiesOverPlain, 1, "redrawn at once: copied")
    }

    @MainActor
    func testPartOfABlockInsideTheClipIsCopiedAndNothingOutside() async throws {
        let bench = try OffscreenDrawing()
        defer { bench.close() }
        let scene = { (c: DrawingContext) in
            try c.clear(Self.background)
            try c.drawText(lines: [("Score 42", 48)], color: .white)
        }
        let whole = try pixels(bench, scene)
        _ = try pixels(bench, scene)
        // Red everywhere, then a frame that repaints only the left half.
        _ = try bench.frame { try $0.clear(RGBColor(hex: 0xff0000)) }
        let half = PixelRect(x: 0, y: 0, width: Bench.width / 2, height: Bench.height)
        let copies = bench.resources.textCopiesOverPlain
        let clipped = try pixels(bench, clip: half, scene)
        XCTAssertEqual(bench.resources.textCopiesOverPlain, copies + 1, "the left half was copied")
        for y in 0..<Bench.height {
            for x in 0..<Bench.width {
                let i = 4 * (y * Bench.width + x)
                let expected = x < Bench.width / 2 ? Array(whole[i..<i + 4]) : [255, 0, 0, 255]
                let got = Array(clipped[i..<i + 4])
                guard zip(expected, got).allSatisfy({ abs(Int($0) - Int($1)) <= 1 }) else {
                    return XCTFail("pixel (\(x), \(y)): \(got), expected \(expected)")
                }
            }
        }
    }

    @MainActor
    func testTextOverAnythingButTheClearIsBlended() async throws {
        let bench = try OffscreenDrawing()
        defer { bench.close() }
        // A fill under the text, and a second block over the first: neither is the plain colour.
        let scene = { (c: DrawingContext) in
            try c.clear(Self.background)
            try c.fill(x: 0, y: 100, width: 320, height: 60, color: RGBColor(hex: 0x008000))
            try c.drawText(lines: [("Score 42", 48)], color: .white)
        }
        let first = try pixels(bench, scene)
        let again = try pixels(bench, scene)
        XCTAssertEqual(bench.resources.textCopiesOverPlain, 0, "text over a fill is never copied")
        XCTAssertEqual(largestDifference(first, again), 0)
        let overlapping = { (c: DrawingContext) in
            try c.clear(Self.background)
            try c.drawText("AAAA", x: 10, y: 10, maxWidth: 200, pixelHeight: 40, color: .white)
            try c.drawText("BBBB", x: 30, y: 20, maxWidth: 200, pixelHeight: 40, color: RGBColor(hex: 0xff0000))
        }
        let blended = try pixels(bench, overlapping)
        let copied = try pixels(bench, overlapping)
        XCTAssertEqual(bench.resources.textCopiesOverPlain, 1, "the first block copied, the one over it blended")
        _ = try pixels(bench, overlapping)
        XCTAssertEqual(bench.resources.textCopiesOverPlain, 2, "never the one over it")
        XCTAssertLessThanOrEqual(largestDifference(blended, copied), 1, "both blocks as blended")
    }
}
