import XCTest
final class WaylandClientTestsPlaceholder: XCTestCase { func testNothing() {} }
