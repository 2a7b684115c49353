import XCTest
final class RenderingTestsPlaceholder: XCTestCase { func testNothing() {} }
