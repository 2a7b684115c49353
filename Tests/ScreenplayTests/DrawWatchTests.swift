import Foundation
import TestHarness
import XCTest

@testable import Screenplay

/// The watch a hang guard thread waits on: it reports one draw that runs
/// past the limit (with the name set during the draw), and never a run of
/// short draws however long they go on.
final class DrawWatchTests: ScreenplayTestCase {
    func testADrawPastTheLimitIsReportedWithItsScreenAndContent() {
        let watch = DrawWatch()
        let found = Box()
        let waiter = Thread { found.set(watch.waitForDraw(runningLongerThan: 0.3)) }
        waiter.start()
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertNil(watch.draw(runningLongerThan: 0), "nothing draws yet")
        watch.begin(screen: "HDMI-A-1", content: "scene")
        watch.describe("hang.frag")  // the delegate names what it draws
        XCTAssertEqual(watch.drawInProgress?.content, "hang.frag")
        XCTAssertTrue(waitUntil(5) { found.value != nil })
        XCTAssertEqual(found.value?.screen, "HDMI-A-1")
        XCTAssertEqual(found.value?.content, "hang.frag")
        XCTAssertGreaterThanOrEqual(found.value?.seconds() ?? 0, 0.3)
        XCTAssertNotNil(watch.draw(runningLongerThan: 0.3))
        watch.end()
        XCTAssertNil(watch.drawInProgress)
    }

    func testShortDrawsNeverAddUpToAStall() {
        let watch = DrawWatch()
        let found = Box()
        let waiter = Thread { found.set(watch.waitForDraw(runningLongerThan: 0.3)) }
        waiter.start()
        // A second of 5 ms draws with 5 ms between them: busy, never stuck.
        let end = Date().addingTimeInterval(1)
        while Date() < end {
            watch.begin(screen: "HDMI-A-1", content: "plasma.frag")
            Thread.sleep(forTimeInterval: 0.005)
            watch.end()
            Thread.sleep(forTimeInterval: 0.005)
        }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertNil(found.value, "short draws are no stall")
        // The same waiter still catches a real one afterwards.
        watch.begin(screen: "DP-2", content: "hang.frag")
        XCTAssertTrue(waitUntil(5) { found.value != nil })
        XCTAssertEqual(found.value?.screen, "DP-2")
        watch.end()
    }

    private func waitUntil(_ seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }
}

private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: DrawWatch.Draw?
    var value: DrawWatch.Draw? { lock.withLock { stored } }
    func set(_ draw: DrawWatch.Draw) { lock.withLock { stored = draw } }
}
