import Screenplay
import Signage
import XCTest

/// The cover test behind skipping a layout's hidden regions: a mistake
/// here would leave a stale region on screen, so it is checked against
/// pixel counting on many random layouts.
final class RectCoverTests: XCTestCase {
    func testABandUnderAnOpaqueTickerIsCoveredAndAPartlyShownOneIsNot() {
        let band = SceneRect(x: 0, y: 1000, width: 1920, height: 80)
        XCTAssertTrue(band.isCovered(by: [SceneRect(x: 0, y: 1000, width: 1920, height: 80)]))
        XCTAssertTrue(
            band.isCovered(by: [
                SceneRect(x: 0, y: 990, width: 1000, height: 100), SceneRect(x: 1000, y: 900, width: 920, height: 180),
            ]))
        XCTAssertFalse(band.isCovered(by: [SceneRect(x: 0, y: 1001, width: 1920, height: 80)]), "one row shows")
        XCTAssertFalse(band.isCovered(by: [SceneRect(x: 0, y: 1000, width: 1919, height: 80)]), "one column shows")
        XCTAssertFalse(band.isCovered(by: []))
        XCTAssertTrue(SceneRect(x: 5, y: 5, width: 0, height: 3).isCovered(by: []), "nothing to cover")
    }

    func testAgreesWithCountingPixelsOnRandomRectangles() {
        var generator = SystemRandomNumberGenerator()
        func random(_ n: Int) -> Int { Int.random(in: 0..<n, using: &generator) }
        func rect() -> SceneRect { SceneRect(x: random(12), y: random(12), width: random(8), height: random(8)) }
        for _ in 0..<3000 {
            let target = rect()
            let covers = (0..<random(5)).map { _ in rect() }
            var covered = true
            for y in target.y..<(target.y + max(target.height, 0)) {
                for x in target.x..<(target.x + max(target.width, 0)) {
                    let hit = covers.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
                    if !hit { covered = false }
                }
            }
            XCTAssertEqual(target.isCovered(by: covers), covered, "\(target) by \(covers)")
        }
    }
}
