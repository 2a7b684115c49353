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
        let canvas = try Canvas(width: 200, height: 80)
        canvas.clear()
        canvas.drawText("Hello 7", x: 0, y: 0, font: "Sans 48px", color: Color(red: 1, green: 0.8, blue: 0.2, alpha: 1))
        let texture = try canvas.makeTexture(context: context)
        let quads = try QuadRenderer(context: context)
        func render(_ draw: (OffscreenTarget) throws -> Void) throws -> [UInt8] {
            let target = try OffscreenTarget(context: context, width: 256, height: 128)
            defer { target.destroy() }
            try quads.clear(red: 0.1, green: 0.2, blue: 0.3, on: target)
            try draw(target)
            return try target.readPixels(x: 0, y: 0, width: 256, height: 128)
        }
        let whole = try render { try quads.draw(texture, in: PixelRect(x: 30, y: 20, width: 200, height: 80), on: $0) }
        let parts = try render { try quads.draw(texture, regions: canvas.inkRects(), x: 30, y: 20, on: $0) }
        XCTAssertEqual(whole.count, parts.count)
        let differing = zip(whole, parts).filter { abs(Int($0) - Int($1)) > 1 }.count
        XCTAssertEqual(differing, 0, "ink regions must give the whole texture's pixels")
        XCTAssertNotEqual(whole, try render { _ in }, "the text changed the target")
    }
}
