import Screenplay
import TestHarness
import XCTest

/// Colours as `present color` and the library take them: exactly six hex
/// digits, `#` optional, any case.
final class RGBColorTests: ScreenplayTestCase {
    func testColorParsing() {
        let cases: [(String, RGBColor?)] = [
            ("000000", RGBColor(hex: 0x000000)),
            ("#ffffff", RGBColor(hex: 0xFFFFFF)),
            ("1a2B3c", RGBColor(hex: 0x1A2B3C)),
            ("", nil), ("#", nil), ("fff", nil), ("#fff", nil), ("12345g", nil),
            ("-12345", nil), (" 12345", nil), ("１２３４５６", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(RGBColor(parsing: text), expected, text)
        }
        XCTAssertEqual(RGBColor(hex: 0x0AFF00).description, "#0AFF00")
    }

    /// `hex` gives back what `init(hex:)` took, for every byte of each channel.
    func testHexRoundTrips() {
        for byte in UInt32(0)...255 {
            for value in [byte << 16, byte << 8, byte, byte << 16 | (255 - byte) << 8 | byte] {
                XCTAssertEqual(RGBColor(hex: value).hex, value)
            }
        }
        XCTAssertEqual(RGBColor(parsing: "#C00000")?.hex, 0xC00000)
    }
}
