import TestHarness
import XCTest

@testable import Screenplay

/// The arithmetic of partial frames: what a frame repaints for each buffer
/// age, what one frame's damage holds, and rectangles clipped and merged.
final class DamageHistoryTests: ScreenplayTestCase {
    let bounds = SceneRect(x: 0, y: 0, width: 100, height: 50)
    let a = SceneRect(x: 0, y: 0, width: 10, height: 10)
    let b = SceneRect(x: 50, y: 20, width: 10, height: 10)
    let c = SceneRect(x: 90, y: 40, width: 10, height: 10)

    /// A history that has seen a full frame, then `a`, then `b` (newest).
    private func history() -> DamageHistory {
        var history = DamageHistory()
        _ = history.repaint(nil, bufferAge: 0, bounds: bounds)
        _ = history.repaint([a], bufferAge: 1, bounds: bounds)
        _ = history.repaint([b], bufferAge: 1, bounds: bounds)
        return history
    }

    func testAgeOneRepaintsOnlyThisFramesDamage() {
        var h = history()
        XCTAssertEqual(h.repaint([c], bufferAge: 1, bounds: bounds), c)
    }

    func testAgeTwoAndThreeAddWhatTheBufferMissed() {
        var two = history()
        XCTAssertEqual(two.repaint([c], bufferAge: 2, bounds: bounds), b.union(c))
        var three = history()
        XCTAssertEqual(three.repaint([c], bufferAge: 3, bounds: bounds), a.union(b).union(c))
        XCTAssertEqual(three.repaint([c], bufferAge: 2, bounds: bounds), c, "the newest frame is now c itself")
    }

    func testUnknownAgeAFullFrameInReachOrAnAgeBeyondTheHistoryRepaintAll() {
        var unknown = history()
        XCTAssertEqual(unknown.repaint([c], bufferAge: 0, bounds: bounds), bounds)
        var reachesFull = history()
        XCTAssertEqual(reachesFull.repaint([c], bufferAge: 4, bounds: bounds), bounds, "the full first frame")
        var deep = DamageHistory()
        for _ in 0..<(DamageHistory.depth + 2) { _ = deep.repaint([a], bufferAge: 1, bounds: bounds) }
        XCTAssertEqual(deep.repaint([a], bufferAge: DamageHistory.depth + 1, bounds: bounds), a, "deepest remembered")
        XCTAssertEqual(deep.repaint([a], bufferAge: DamageHistory.depth + 2, bounds: bounds), bounds, "older")
        var full = history()
        XCTAssertEqual(full.repaint(nil, bufferAge: 1, bounds: bounds), bounds, "a full frame")
    }

    func testANewSizeForgetsTheHistory() {
        var h = history()
        let larger = SceneRect(x: 0, y: 0, width: 200, height: 100)
        XCTAssertEqual(h.repaint([c], bufferAge: 2, bounds: larger), larger)
    }

    func testDamageIsClippedToTheBuffer() {
        var h = history()
        let overhanging = SceneRect(x: 95, y: 45, width: 20, height: 20)
        XCTAssertEqual(
            h.repaint([overhanging], bufferAge: 1, bounds: bounds), SceneRect(x: 95, y: 45, width: 5, height: 5))
        var damage = FrameDamage()
        damage.add(SceneRect(x: 200, y: 0, width: 5, height: 5))
        XCTAssertEqual(damage.clipped(to: bounds), [], "outside the buffer: nothing")
    }

    func testFrameDamageAccumulatesUntilEverything() {
        var damage = FrameDamage()
        XCTAssertTrue(damage.isEmpty)
        damage.add(SceneRect(x: 0, y: 0, width: 0, height: 10))
        XCTAssertTrue(damage.isEmpty, "an empty rectangle adds nothing")
        damage.add(a)
        damage.add(SceneRect(x: 2, y: 2, width: 3, height: 3))
        damage.add(b)
        XCTAssertEqual(damage.rects, [a, b], "a rectangle inside another adds nothing")
        damage.addAll()
        damage.add(c)
        XCTAssertNil(damage.rects, "everything stays everything")
        XCTAssertFalse(damage.isEmpty)
    }

    func testManyRectanglesMergeIntoTheirBox() {
        var damage = FrameDamage()
        for i in 0...FrameDamage.maxRects { damage.add(SceneRect(x: i * 3, y: i, width: 2, height: 2)) }
        XCTAssertEqual(
            damage.rects, [SceneRect(x: 0, y: 0, width: FrameDamage.maxRects * 3 + 2, height: FrameDamage.maxRects + 2)]
        )
    }

    func testRectangleArithmetic() {
        XCTAssertEqual(a.intersection(b), SceneRect(x: 0, y: 0, width: 0, height: 0))
        XCTAssertTrue(a.intersection(b).isEmpty)
        XCTAssertEqual(a.union(b), SceneRect(x: 0, y: 0, width: 60, height: 30))
        XCTAssertEqual(a.union(SceneRect(x: 5, y: 5, width: 0, height: 0)), a, "an empty rectangle adds nothing")
        XCTAssertEqual(bounds.area, 5000)
        XCTAssertEqual(SceneRect(x: 0, y: 0, width: -3, height: 4).area, 0)
        XCTAssertEqual(b.description, "10x10+50+20")
    }
}
