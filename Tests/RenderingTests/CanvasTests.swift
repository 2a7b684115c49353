import Rendering
import XCTest

final class CanvasTests: OffscreenTestCase {
    /// Bounding box of pixels brighter than the black background.
    private func inkBounds(_ pixels: [UInt8], width: Int, height: Int) -> (
        count: Int, minX: Int, minY: Int, maxX: Int, maxY: Int
    ) {
        var result = (count: 0, minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        for y in 0..<height {
            for x in 0..<width where pixels[(y * width + x) * 4] > 64 {
                result.count += 1
                result.minX = min(result.minX, x)
                result.maxX = max(result.maxX, x)
                result.minY = min(result.minY, y)
                result.maxY = max(result.maxY, y)
            }
        }
        return result
    }

    /// Pango markup is laid out as markup (the tags take no room), and
    /// markup that does not parse is drawn as the plain text it is.
    func testMarkupIsLaidOutAndBadMarkupIsPlainText() throws {
        let canvas = try Canvas(width: 1, height: 1)
        let font = "DejaVu Sans 30"
        let plain = canvas.textSize("Hello", font: font).width
        let bold = canvas.textSize("<b>Hello</b>", font: font, markup: true).width
        let tagsAsText = canvas.textSize("<b>Hello</b>", font: font).width
        XCTAssertGreaterThan(bold, plain, "bold is wider")
        XCTAssertLessThan(bold, plain * 13 / 10, "the tags take no room")
        XCTAssertGreaterThan(tagsAsText, plain * 2, "without markup the tags are text")
        XCTAssertEqual(
            canvas.textSize("<b>Hello", font: font, markup: true).width, canvas.textSize("<b>Hello", font: font).width)
        XCTAssertEqual(
            canvas.textSize("Hello", font: font).width, plain, "a plain text after markup has no attributes left")
    }

    /// Freehand lines: round joins (no square corner outside a turn), a
    /// lone point a dot, a translucent line as light where it crosses
    /// itself, and an eraser's line clearing what it covers.
    func testStrokeLineJoinsRoundDotsAndErases() throws {
        let canvas = try Canvas(width: 100, height: 100)
        canvas.clear()
        let red = Color(red: 1, green: 0, blue: 0)
        canvas.strokeLine([(20, 20), (80, 20), (80, 80)], width: 10, color: red)
        canvas.strokeLine([(50, 60)], width: 10, color: red)
        func alpha(_ x: Int, _ y: Int) -> UInt8 { canvas.rgbaPixels()[(y * 100 + x) * 4 + 3] }
        func rgba(_ x: Int, _ y: Int) -> [UInt8] {
            Array(canvas.rgbaPixels()[(y * 100 + x) * 4..<(y * 100 + x) * 4 + 4])
        }
        XCTAssertEqual(rgba(50, 20), [255, 0, 0, 255], "along the line")
        XCTAssertEqual(alpha(80, 50), 255, "after the turn")
        XCTAssertGreaterThan(alpha(83, 17), 200, "inside the round join")
        XCTAssertLessThan(alpha(84, 15), 40, "a miter's square corner would cover this")
        XCTAssertEqual(alpha(50, 60), 255, "a lone point is a dot")
        XCTAssertEqual(alpha(50, 66), 0, "the dot's radius is half the width")
        XCTAssertEqual(alpha(50, 40), 0, "nothing between")

        let marker = try Canvas(width: 100, height: 100)
        marker.clear()
        // Crosses itself at (40, 40).
        marker.strokeLine(
            [(10, 40), (60, 40), (60, 60), (40, 60), (40, 20)], width: 8,
            color: Color(red: 1, green: 1, blue: 0, alpha: 0.4))
        let pixels = marker.rgbaPixels()
        let once = pixels[(40 * 100 + 20) * 4 + 3], crossing = pixels[(40 * 100 + 40) * 4 + 3]
        XCTAssertEqual(Int(once), 102, accuracy: 1, "40 %")
        XCTAssertEqual(crossing, once, "the crossing is not darker")

        canvas.strokeLine([(50, 10), (50, 30)], width: 6, color: red, erase: true)
        XCTAssertEqual(alpha(50, 20), 0, "erased")
        XCTAssertEqual(alpha(30, 20), 255, "beside the eraser")
    }

    func testTextDrawsInsideItsMeasuredBox() throws {
        let canvas = try Canvas(width: 400, height: 120)
        canvas.fill(.black)
        let font = "DejaVu Sans Bold 40"
        let measured = canvas.textSize("Hello", font: font)
        let drawn = canvas.drawText("Hello", x: 20, y: 30, font: font, color: .white)
        XCTAssertEqual(measured, drawn)
        // 40 px bold text: a line is taller than the size, "Hello" about 2.5 ems wide.
        XCTAssertTrue((40...60).contains(drawn.height), "\(drawn)")
        XCTAssertTrue((80...160).contains(drawn.width), "\(drawn)")

        let ink = inkBounds(canvas.rgbaPixels(), width: 400, height: 120)
        XCTAssertGreaterThan(ink.count, 300)
        XCTAssertGreaterThanOrEqual(ink.minX, 20)
        XCTAssertGreaterThanOrEqual(ink.minY, 30)
        XCTAssertLessThanOrEqual(ink.maxX, 20 + drawn.width)
        XCTAssertLessThanOrEqual(ink.maxY, 30 + drawn.height)
        // "H" starts within a few pixels of the anchor.
        XCTAssertLessThanOrEqual(ink.minX, 26)
    }

    func testCentredAndRightAlignedTextAnchorAtX() throws {
        let canvas = try Canvas(width: 400, height: 60)
        canvas.fill(.black)
        let size = canvas.drawText("Mid", x: 200, y: 5, font: "DejaVu Sans 30", color: .white, alignment: .center)
        var ink = inkBounds(canvas.rgbaPixels(), width: 400, height: 60)
        XCTAssertEqual(Double(ink.minX + ink.maxX) / 2, 200, accuracy: 4)

        canvas.fill(.black)
        canvas.drawText("Mid", x: 390, y: 5, font: "DejaVu Sans 30", color: .white, alignment: .right)
        ink = inkBounds(canvas.rgbaPixels(), width: 400, height: 60)
        XCTAssertLessThanOrEqual(ink.maxX, 390)
        XCTAssertGreaterThanOrEqual(ink.maxX, 385)
        XCTAssertGreaterThanOrEqual(ink.minX, 390 - size.width)
    }

    func testMaxWidthWrapsLines() throws {
        let canvas = try Canvas(width: 300, height: 300)
        let oneLine = canvas.textSize("one two three four", font: "DejaVu Sans 20")
        let wrapped = canvas.textSize("one two three four", font: "DejaVu Sans 20", maxWidth: 80)
        XCTAssertLessThanOrEqual(wrapped.width, 80)
        XCTAssertGreaterThanOrEqual(wrapped.height, oneLine.height * 2)
    }

    func testTextAndTextureUploadKeepColoursAndPositions() throws {
        let canvas = try Canvas(width: 40, height: 20)
        canvas.fill(Color(red: 1, green: 0, blue: 0))
        canvas.drawText("MM", x: 20, y: 0, font: "DejaVu Sans Bold 9px", color: Color(red: 0, green: 1, blue: 0))

        let target = try OffscreenTarget(context: context, width: 40, height: 20)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0, green: 0, blue: 0, on: target)
        let texture = try canvas.makeTexture(context: context)
        try quads.draw(texture, in: PixelRect(x: 0, y: 0, width: 40, height: 20), on: target)
        let pixels = try target.readPixels(x: 0, y: 0, width: 40, height: 20)
        // Every pixel as cairo drew it (within rounding): no row flipped, no channel swapped.
        let drawn = canvas.rgbaPixels()
        let largestDifference = zip(pixels, drawn).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(largestDifference, 1, "the texture's pixels differ from the canvas's")
        XCTAssertEqual(pixel(pixels, width: 40, x: 5, y: 18), [255, 0, 0, 255], "the fill, away from the text")
        var green: [(x: Int, y: Int)] = []
        for y in 0..<20 {
            for x in 0..<40
            where pixel(pixels, width: 40, x: x, y: y)[1] > 128 && pixel(pixels, width: 40, x: x, y: y)[0] < 128 {
                green.append((x, y))
            }
        }
        XCTAssertFalse(green.isEmpty, "the text is drawn in green")
        XCTAssertGreaterThanOrEqual(green.map { $0.x }.min() ?? 0, 20, "the text starts at its anchor, not mirrored")
        XCTAssertLessThan(green.map { $0.y }.max() ?? 20, 15, "the text stays in the top rows, not flipped")

        // Updating re-uploads into the same texture.
        canvas.fill(Color(red: 0, green: 0, blue: 1))
        try canvas.update(texture)
        try quads.draw(texture, in: PixelRect(x: 0, y: 0, width: 20, height: 10), on: target)
        XCTAssertEqual(try target.readPixels(x: 15, y: 2, width: 1, height: 1), [0, 0, 255, 255])
    }

    func testInvalidCanvasSizeThrows() {
        XCTAssertThrowsError(try Canvas(width: 0, height: 10))
        XCTAssertThrowsError(try Canvas(width: 40000, height: 10))
    }
}
