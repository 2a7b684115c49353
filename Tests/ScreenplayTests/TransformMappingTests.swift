import TestHarness
import WaylandClient
import XCTest

@testable import Screenplay

/// The public `ScreenTransform` and WaylandClient's `OutputTransform` are
/// mapped case by case, by name (not by position in their lists).
final class TransformMappingTests: ScreenplayTestCase {
    func testEveryTransformMapsToTheCaseOfTheSameNameAndBack() {
        let pairs: [(OutputTransform, ScreenTransform)] = [
            (.normal, .normal), (.rotated90, .rotated90), (.rotated180, .rotated180), (.rotated270, .rotated270),
            (.flipped, .flipped), (.flipped90, .flipped90), (.flipped180, .flipped180), (.flipped270, .flipped270),
        ]
        XCTAssertEqual(pairs.count, OutputTransform.allCases.count)
        XCTAssertEqual(pairs.count, ScreenTransform.allCases.count)
        for (output, screen) in pairs {
            XCTAssertEqual(ScreenTransform(output), screen, "\(output)")
            XCTAssertEqual(screen.outputTransform, output, "\(screen)")
            XCTAssertEqual(screen.description, output.description)
            XCTAssertEqual(screen.swapsAxes, output.swapsAxes)
        }
    }
}
