import XCTest
final class FrameTimingTestsPlaceholder: XCTestCase { func testNothing() {} }
