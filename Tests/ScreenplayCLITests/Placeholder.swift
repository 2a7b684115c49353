import XCTest
final class ScreenplayCLITestsPlaceholder: XCTestCase { func testNothing() {} }
