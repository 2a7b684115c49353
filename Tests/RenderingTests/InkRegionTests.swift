import Rendering
import XCTest

/// Text drawn only where it has ink (Canvas.inkRects, QuadRenderer's
/// regions draw) gives the same pixels as the whole texture drawn as one quad.
final class InkRegionTests: OffscreenTestCase {
    func testInkRectsCoverEveryInkedPixelAndSkipEmptyCells() throws {
        let canvas = try Canvas(width: 300, height: 120)
        canvas.clear()
        canvas.drawText(
            "Score 42", x: 150, y: 10, font: "Sans 64px", color: Color(red: 1, green: 1, blue: 1, alpha: 1),
            alignment: .center, maxWidth: 300)
        let rects = canvas.inkRects(cell: 16)
        let pixels = canvas.rgbaPixels()
        var inked = 0
        for y in 0..<120 {
            for x in 0..<300 where pixels[(y * 300 + x) * 4 + 3] != 0 {
                inked += 1
                XCTAssertTrue(
                    rects.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height },
                    "ink at \(x),\(y) outside every rect")
            }
        }
        XCTAssertGreaterThan(inked, 500, "the text was drawn")
        let area = rects.reduce(0) { $0 + $1.width * $1.height }
        XCTAssertLessThan(area, 300 * 120 * 3 / 4, "empty cells are left out: \(rects.count) rects")
    }

    func testRegionsDrawTheSamePixelsAsTheWholeTexture() throws {
        let canvas = try helloCanvas()
        let texture = try canvas.makeTexture(context: context)
        let quads = try QuadRenderer(context: context)
        let whole = try render(quads) {
            try quads.draw(texture, in: PixelRect(x: 30, y: 20, width: 200, height: 80), on: $0)
        }
        let parts = try render(quads) { try quads.draw(texture, regions: canvas.inkRects(), x: 30, y: 20, on: $0) }
        XCTAssertEqual(whole.count, parts.count)
        let differing = zip(whole, parts).filter { abs(Int($0) - Int($1)) > 1 }.count
        XCTAssertEqual(differing, 0, "ink regions must give the whole texture's pixels")
        XCTAssertNotEqual(whole, try render(quads) { _ in }, "the text changed the target")
    }

    func testRectsOnATargetsGridCoverEveryInkedPixelOnceWithEdgesOnTheGrid() throws {
        let canvas = try Canvas(width: 203, height: 77)
        canvas.clear()
        canvas.drawText("Score 42", x: 3, y: 2, font: "Sans 48px", color: Color(red: 1, green: 1, blue: 1, alpha: 1))
        let mask = try XCTUnwrap(canvas.inkMask())
        let pixels = canvas.rgbaPixels()
        for (originX, originY) in [(0, 0), (323, 276), (-5, 7), (2, 1)] {
            let rects = mask.rects(cell: 4, originX: originX, originY: originY)
            var covered = [Int](repeating: 0, count: 203 * 77)
            for rect in rects {
                // Each edge is on the target's 4-pixel grid or at the picture's edge.
                XCTAssertTrue(rect.x == 0 || (rect.x + originX) % 4 == 0, "left edge \(rect) at origin \(originX)")
                XCTAssertTrue(rect.y == 0 || (rect.y + originY) % 4 == 0, "top edge \(rect) at origin \(originY)")
                let right = rect.x + rect.width, bottom = rect.y + rect.height
                XCTAssertTrue(right == 203 || (right + originX) % 4 == 0, "right edge \(rect)")
                XCTAssertTrue(bottom == 77 || (bottom + originY) % 4 == 0, "bottom edge \(rect)")
                for y in rect.y..<bottom { for x in rect.x..<right { covered[y * 203 + x] += 1 } }
            }
            XCTAssertLessThanOrEqual(covered.max() ?? 0, 1, "rects overlap: a pixel blended twice")
            var inked = 0
            for y in 0..<77 {
                for x in 0..<203 where pixels[(y * 203 + x) * 4 + 3] != 0 {
                    inked += 1
                    XCTAssertTrue(mask.isInked(x: x, y: y))
                    XCTAssertEqual(covered[y * 203 + x], 1, "ink at \(x),\(y) outside every rect")
                }
            }
            XCTAssertGreaterThan(inked, 500, "the text was drawn")
            XCTAssertLessThan(covered.reduce(0, +), 203 * 77 * 3 / 4, "empty cells are left out")
        }
    }

    func testOverBlendingAlphaGivesTheSamePixelsOnAnOpaqueTarget() throws {
        let canvas = try helloCanvas()
        let texture = try canvas.makeTexture(context: context)
        let quads = try QuadRenderer(context: context)
        let mask = try XCTUnwrap(canvas.inkMask())
        for x in [28, 31] {
            let rects = mask.rects(cell: 4, originX: x, originY: 21)
            let over = try render(quads) {
                try quads.draw(texture, regions: rects, x: Double(x), y: 21, on: $0, opaqueTarget: true)
            }
            let kept = try render(quads) {
                try quads.draw(texture, regions: rects, x: Double(x), y: 21, on: $0, opaqueTarget: false)
            }
            XCTAssertEqual(over, kept, "alpha blended over must change no pixel at x \(x)")
            XCTAssertTrue(stride(from: 3, to: over.count, by: 4).allSatisfy { over[$0] == 255 }, "alpha stays 1")
            let whole = try render(quads) {
                try quads.draw(texture, in: PixelRect(x: x, y: 21, width: 200, height: 80), on: $0)
            }
            XCTAssertEqual(
                zip(whole, over).filter { abs(Int($0) - Int($1)) > 1 }.count, 0, "the whole texture's pixels")
        }
    }

    /// "Hello 7" in orange on a transparent 200x80 canvas.
    private func helloCanvas() throws -> Canvas {
        let canvas = try Canvas(width: 200, height: 80)
        canvas.clear()
        canvas.drawText("Hello 7", x: 0, y: 0, font: "Sans 48px", color: Color(red: 1, green: 0.8, blue: 0.2, alpha: 1))
        return canvas
    }

    /// The pixels of a 256x128 target cleared to an opaque colour, then drawn on by `draw`.
    private func render(_ quads: QuadRenderer, _ draw: (OffscreenTarget) throws -> Void) throws -> [UInt8] {
        let target = try OffscreenTarget(context: context, width: 256, height: 128)
        defer { target.destroy() }
        try quads.clear(red: 0.1, green: 0.2, blue: 0.3, on: target)
        try draw(target)
        return try target.readPixels(x: 0, y: 0, width: 256, height: 128)
    }
}
