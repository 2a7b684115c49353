import Rendering
import TestHarness
import XCTest

final class AspectFitTests: ScreenplayTestCase {
    func testWiderContentIsLetterboxed() {
        // 16:9 into 4:3: full width, bars top and bottom.
        XCTAssertEqual(
            aspectFit(contentWidth: 1920, contentHeight: 1080, intoWidth: 1024, intoHeight: 768),
            PixelRect(x: 0, y: 96, width: 1024, height: 576))
    }

    func testTallerContentIsPillarboxed() {
        XCTAssertEqual(
            aspectFit(contentWidth: 1080, contentHeight: 1920, intoWidth: 1920, intoHeight: 1080),
            PixelRect(x: 656, y: 0, width: 608, height: 1080))
    }

    func testSameAspectFillsExactly() {
        XCTAssertEqual(
            aspectFit(contentWidth: 640, contentHeight: 360, intoWidth: 3840, intoHeight: 2160),
            PixelRect(x: 0, y: 0, width: 3840, height: 2160))
    }

    func testRoundsToNearestPixelAndPutsOddPixelOnTheFarSide() {
        // 100x33 into 100x100: scaled height stays 33; leftover 67 -> 33 above, 34 below.
        XCTAssertEqual(
            aspectFit(contentWidth: 100, contentHeight: 33, intoWidth: 100, intoHeight: 100),
            PixelRect(x: 0, y: 33, width: 100, height: 33))
        // 3x2 into 10x10: height 10 * 2/3 = 6.67 -> 7.
        XCTAssertEqual(
            aspectFit(contentWidth: 3, contentHeight: 2, intoWidth: 10, intoHeight: 10),
            PixelRect(x: 0, y: 1, width: 10, height: 7))
    }

    func testSmallContentIsScaledUp() {
        XCTAssertEqual(
            aspectFit(contentWidth: 4, contentHeight: 3, intoWidth: 1920, intoHeight: 1080),
            PixelRect(x: 240, y: 0, width: 1440, height: 1080))
    }

    func testExtremeAspectKeepsAtLeastOnePixel() {
        XCTAssertEqual(
            aspectFit(contentWidth: 100_000, contentHeight: 1, intoWidth: 800, intoHeight: 600),
            PixelRect(x: 0, y: 299, width: 800, height: 1))
    }

    func testDegenerateInputs() {
        XCTAssertEqual(
            aspectFit(contentWidth: 0, contentHeight: 10, intoWidth: 800, intoHeight: 600),
            PixelRect(x: 0, y: 0, width: 800, height: 600))
        XCTAssertEqual(
            aspectFit(contentWidth: 10, contentHeight: 10, intoWidth: 0, intoHeight: 600),
            PixelRect(x: 0, y: 0, width: 0, height: 0))
    }
}

final class ShaderLogParsingTests: ScreenplayTestCase {
    func testMesaFormat() {
        let log = """
            0:3(19): error: syntax error, unexpected ',', expecting ')'
            0:12(5): warning: `x' used uninitialized
            """
        XCTAssertEqual(
            ShaderError.parse(infoLog: log),
            [
                ShaderDiagnostic(line: 3, message: "error: syntax error, unexpected ',', expecting ')'"),
                ShaderDiagnostic(line: 12, message: "warning: `x' used uninitialized"),
            ])
    }

    func testOtherDriverFormats() {
        XCTAssertEqual(
            ShaderError.parse(infoLog: "ERROR: 0:7: 'foo' : undeclared identifier\n"),
            [ShaderDiagnostic(line: 7, message: "error: 'foo' : undeclared identifier")])
        XCTAssertEqual(
            ShaderError.parse(infoLog: "0(9) : error C0000: syntax error, unexpected ','"),
            [ShaderDiagnostic(line: 9, message: "error C0000: syntax error, unexpected ','")])
        XCTAssertEqual(ShaderError.parse(infoLog: "error: linking failed\n"), [])
    }
}

/// Damage rectangles handed to eglSwapBuffersWithDamageKHR, whose origin is
/// the bottom left.
final class SwapDamageTests: ScreenplayTestCase {
    func testRectanglesAreFlippedToEGLsBottomLeftOrigin() {
        XCTAssertEqual(
            WindowSurface.eglRects(
                [PixelRect(x: 0, y: 0, width: 100, height: 10), PixelRect(x: 5, y: 470, width: 20, height: 10)],
                height: 480),
            [0, 470, 100, 10, 5, 0, 20, 10])
        XCTAssertEqual(WindowSurface.eglRects([], height: 480), [])
    }
}
