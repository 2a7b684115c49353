import TestHarness
import XCTest

@testable import Signage

/// A ticker's text file, whatever its line breaks, scrolls as one line.
final class TickerMediaTests: ScreenplayTestCase {
    func testATickersLinesRunOnAsOneLine() {
        XCTAssertEqual(TickerMedia.oneLine("one\ntwo\r\nthree"), "one two three")
    }
}
