import TestHarness
import WaylandClient
import XCTest

/// Fractional-scale arithmetic (no compositor here offers
/// wp_fractional_scale_v1, so the sizes are checked alone).
final class FractionalScaleTests: ScreenplayTestCase {
    func testRoundsHalfAwayFromZeroPerAxis() {
        // 1.25 (150/120): 1536x864 logical on a 1920x1080 panel.
        XCTAssertTrue(
            FractionalScaleMath.bufferSize(logicalWidth: 1536, logicalHeight: 864, scale120: 150) == (1920, 1080))
        // 1.5 (180/120): 1707x960 logical (2560x1440 panel): 2560.5 rounds up, 1440 exact.
        XCTAssertTrue(
            FractionalScaleMath.bufferSize(logicalWidth: 1707, logicalHeight: 960, scale120: 180) == (2561, 1440))
        // 1.75 (210/120) of 7 px: 12.25 -> 12; of 2 px: 3.5 -> 4.
        XCTAssertEqual(FractionalScaleMath.bufferLength(logical: 7, scale120: 210), 12)
        XCTAssertEqual(FractionalScaleMath.bufferLength(logical: 2, scale120: 210), 4)
        // 1.0 and 2.0 are exact.
        XCTAssertEqual(FractionalScaleMath.bufferLength(logical: 1366, scale120: 120), 1366)
        XCTAssertEqual(FractionalScaleMath.bufferLength(logical: 1366, scale120: 240), 2732)
    }

    func testNoRowIsLostAtCommonScales() {
        // Every logical size at every common fractional scale: the buffer
        // covers the surface exactly (within half a pixel), never a row short.
        for scale in [126, 135, 144, 150, 168, 180, 210] {
            for logical in 1...2000 {
                let exact = Double(logical * scale) / 120
                let got = FractionalScaleMath.bufferLength(logical: logical, scale120: scale)
                XCTAssertLessThanOrEqual(abs(Double(got) - exact), 0.5, "\(logical) at \(scale)/120")
                if abs(Double(got) - exact) == 0.5 {
                    XCTAssertGreaterThan(Double(got), exact, "half rounds away from zero")
                }
            }
        }
        XCTAssertEqual(FractionalScaleMath.bufferLength(logical: 0, scale120: 150), 0)
    }
}
