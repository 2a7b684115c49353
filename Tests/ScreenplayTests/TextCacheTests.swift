import Rendering
import TestHarness
import XCTest

@testable import Screenplay

/// drawText keeps laid-out text as textures: text that does not change is
/// laid out once however often it is drawn, and a change costs one layout.
/// Rendered offscreen with Mesa's surfaceless platform (no compositor).
final class TextCacheTests: ScreenplayTestCase {
    /// An offscreen 320x240 target, each frame cleared to black first.
    @MainActor
    private final class Bench {
        let drawing: OffscreenDrawing
        var resources: GraphicsResources { drawing.resources }

        init() throws { drawing = try OffscreenDrawing() }

        func close() { drawing.close() }

        func frame(_ draw: (DrawingContext) throws -> Void) throws -> DrawingContext {
            try drawing.frame {
                try $0.clear(.black)
                try draw($0)
            }
        }

        /// Pixels brighter than the black background: proof the text was drawn.
        func litPixels(_ context: DrawingContext) throws -> Int {
            let pixels = try drawing.pixels(context)
            return stride(from: 0, to: pixels.count, by: 4).filter { pixels[$0] > 128 }.count
        }
    }

    @MainActor
    func testUnchangedLinesAreLaidOutOnceAndAChangeCostsOneLayout() async throws {
        let bench = try Bench()
        defer { bench.close() }
        for _ in 0..<30 {
            let context = try bench.frame { try $0.drawText(lines: [("Score 42", 48)], color: .white) }
            let lit = try bench.litPixels(context)
            XCTAssertGreaterThan(lit, 100, "the text is drawn every frame, cached or not")
        }
        XCTAssertEqual(bench.resources.textLayouts, 1, "thirty frames of the same text: one layout")
        for _ in 0..<30 { _ = try bench.frame { try $0.drawText(lines: [("Score 43", 48)], color: .white) } }
        XCTAssertEqual(bench.resources.textLayouts, 2, "the score changed once: one more layout")
        _ = try bench.frame { try $0.drawText(lines: [("Score 43", 48)], color: RGBColor(hex: 0xff0000)) }
        XCTAssertEqual(bench.resources.textLayouts, 3, "another colour is other pixels: laid out again")
    }

    @MainActor
    func testBoxedTextIsCachedPerTextAndBox() async throws {
        let bench = try Bench()
        defer { bench.close() }
        for _ in 0..<10 {
            _ = try bench.frame { c in
                try c.drawText("12:00:01", x: 10, y: 10, maxWidth: 200, pixelHeight: 24, color: .white)
                try c.drawText("Notes for this page", x: 10, y: 60, maxWidth: 200, pixelHeight: 16, color: .white)
            }
        }
        XCTAssertEqual(bench.resources.textLayouts, 2, "two labels drawn ten times: two layouts")
        _ = try bench.frame { c in
            try c.drawText("12:00:02", x: 10, y: 10, maxWidth: 200, pixelHeight: 24, color: .white)
            try c.drawText("Notes for this page", x: 10, y: 60, maxWidth: 200, pixelHeight: 16, color: .white)
        }
        XCTAssertEqual(bench.resources.textLayouts, 3, "only the clock changed")
        _ = try bench.frame {
            try $0.drawText("Notes for this page", x: 10, y: 60, maxWidth: 100, pixelHeight: 16, color: .white)
        }
        XCTAssertEqual(bench.resources.textLayouts, 4, "a narrower box wraps differently: laid out again")
    }

    /// textSize answers what drawText then draws, so a caller can centre
    /// a block before drawing it; without a width the text stays on one line.
    @MainActor
    func testTextSizeIsTheSizeDrawTextDraws() async throws {
        let bench = try Bench()
        defer { bench.close() }
        let text = "Opening hours: nine to five, every day but Sunday"
        var drawn = 0
        _ = try bench.frame { c in
            let size = try c.textSize(text, maxWidth: 200, pixelHeight: 20)
            drawn = try c.drawText(text, x: 0, y: 0, maxWidth: 200, pixelHeight: 20, color: .white)
            XCTAssertEqual(size.height, drawn, "the height drawText draws")
            XCTAssertLessThanOrEqual(size.width, 200)
            let line = try c.textSize(text, maxWidth: nil, pixelHeight: 20)
            XCTAssertGreaterThan(line.width, 200, "one line, unwrapped")
            XCTAssertLessThan(line.height, size.height, "one line is lower than the wrapped block")
            XCTAssertTrue(try c.textSize("", maxWidth: nil, pixelHeight: 20) == (0, 0))
        }
        XCTAssertGreaterThan(drawn, 40, "wrapped onto several lines")
    }

    @MainActor
    func testTheCacheIsBoundedAndDropsTheLeastRecentlyDrawn() async throws {
        let bench = try Bench()
        defer { bench.close() }
        let capacity = bench.resources.textCapacity
        for i in 0..<(capacity + 10) {
            _ = try bench.frame {
                try $0.drawText("label \(i)", x: 0, y: 0, maxWidth: 200, pixelHeight: 16, color: .white)
            }
        }
        XCTAssertEqual(bench.resources.textLayouts, capacity + 10)
        // The newest are still there, the oldest were evicted.
        _ = try bench.frame {
            try $0.drawText("label \(capacity + 9)", x: 0, y: 0, maxWidth: 200, pixelHeight: 16, color: .white)
        }
        XCTAssertEqual(bench.resources.textLayouts, capacity + 10)
        _ = try bench.frame { try $0.drawText("label 0", x: 0, y: 0, maxWidth: 200, pixelHeight: 16, color: .white) }
        XCTAssertEqual(bench.resources.textLayouts, capacity + 11)
    }

    /// A clock changes every second and evicts its old values: each new
    /// value is written into an evicted texture of its size, not a new one,
    /// and shows its own pixels, not the old ones.
    @MainActor
    func testTextOfOneSizeThatKeepsChangingReusesEvictedTextures() async throws {
        let bench = try Bench()
        defer { bench.close() }
        let capacity = bench.resources.textCapacity
        // Dark greys: the same block size, other pixels, none lit.
        for i in 0..<(capacity + 40) {
            let context = try bench.frame {
                try $0.drawText(lines: [("12:00", 48)], color: RGBColor(hex: 0x010101 * UInt32(i % 100)))
            }
            XCTAssertEqual(try bench.litPixels(context), 0, "dark grey text lights nothing")
        }
        XCTAssertEqual(bench.resources.textLayouts, capacity + 40)
        XCTAssertEqual(bench.resources.textTexturesReused, 40, "every block past the cache's size took an old texture")
        let white = try bench.frame { try $0.drawText(lines: [("12:00", 48)], color: .white) }
        XCTAssertEqual(bench.resources.textTexturesReused, 41)
        XCTAssertGreaterThan(try bench.litPixels(white), 100, "the reused texture shows the new pixels")
        // Another size takes a new texture and leaves the spares alone.
        _ = try bench.frame { try $0.drawText(lines: [("12:00:00", 48)], color: .white) }
        XCTAssertEqual(bench.resources.textTexturesReused, 41)
    }
}
