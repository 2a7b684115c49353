import XCTest
final class ScreenplayTestsPlaceholder: XCTestCase { func testNothing() {} }
