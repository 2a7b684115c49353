import Rendering
import TestHarness
import XCTest

@testable import Screenplay

/// When a scene keeps its own copy of its picture (no buffer age): made on
/// the first small frame with unknown content, then always one frame old;
/// made again for a new size; let go when most recent frames repaint half
/// the window or more, where drawing into the window costs less than
/// keeping the copy. Offscreen (Mesa's surfaceless platform).
final class RetainedFrameTests: ScreenplayTestCase {
    func testTheCopyIsMadeOnASmallFrameKeptAndLetGoWhenMostFramesAreLarge() throws {
        try MainActor.assumeIsolated {
            let graphics = try GraphicsContext.offscreen()
            defer { graphics.destroy() }
            var retained = RetainedFrame()
            defer { retained.release() }
            @MainActor func target(_ share: Double?, width: Int = 80) throws -> (target: OffscreenTarget, age: Int)? {
                try retained.target(damageShare: share, width: width, height: 32, context: graphics)
            }
            XCTAssertNil(try target(nil, width: 64), "full: the window")
            let made = try XCTUnwrap(try target(0.1, width: 64))
            XCTAssertEqual(made.age, 0, "a new copy's content is unknown: repaint all")
            XCTAssertEqual([made.target.pixelWidth, made.target.pixelHeight], [64, 32])
            let again = try XCTUnwrap(try target(0.1, width: 64))
            XCTAssertTrue(again.target === made.target)
            XCTAssertEqual(again.age, 1, "the copy holds the last frame")
            let resized = try XCTUnwrap(try target(0.1))
            XCTAssertEqual([resized.target.pixelWidth, resized.age], [80, 0], "a new size: a new copy")
            for _ in 0..<RetainedFrame.recentFrames { XCTAssertEqual(try target(0.2)?.age, 1) }
            // A crossfade's full frames among small ones keep the copy current.
            for frame in 1...(RetainedFrame.recentFrames / 2) {
                XCTAssertEqual(try target(frame % 2 == 0 ? nil : 0.5)?.age, 1, "large frame \(frame) of a minority")
            }
            XCTAssertNil(try target(nil), "most recent frames large: the window")
            XCTAssertNil(retained.copy, "and the copy is let go")
        }
    }

    /// A video region beside a ticker: two large frames for each small one.
    /// Every frame, the small ones too, draws into the window once most
    /// frames are large; small frames alone bring the copy back.
    func testMostlyLargeFramesDrawEveryFrameIntoTheWindow() throws {
        try MainActor.assumeIsolated {
            let graphics = try GraphicsContext.offscreen()
            defer { graphics.destroy() }
            var retained = RetainedFrame()
            defer { retained.release() }
            @MainActor func target(_ share: Double?) throws -> (target: OffscreenTarget, age: Int)? {
                try retained.target(damageShare: share, width: 64, height: 32, context: graphics)
            }
            for round in 0..<40 {
                XCTAssertNil(try target(1), "round \(round): a video frame")
                XCTAssertNil(try target(0.75), "round \(round): a video frame, not the clock")
                XCTAssertNil(try target(0.07), "round \(round): a ticker frame draws into the window too")
            }
            XCTAssertNil(retained.copy)
            var ages: [Int?] = []
            for _ in 0..<RetainedFrame.recentFrames { ages.append(try target(0.07)?.age) }
            XCTAssertEqual(ages.compactMap { $0 }.first, 0, "the copy comes back, made new")
            XCTAssertEqual(ages.last, 1)
        }
    }

    func testShareIsTheDamagesBoundingBox() {
        let bounds = SceneRect(x: 0, y: 0, width: 1920, height: 1080)
        XCTAssertNil(RetainedFrame.share(of: nil, in: bounds))
        XCTAssertEqual(RetainedFrame.share(of: [], in: bounds), 0)
        let ticker = SceneRect(x: 0, y: 1000, width: 1920, height: 80)
        XCTAssertEqual(RetainedFrame.share(of: [ticker], in: bounds)!, 80.0 / 1080, accuracy: 1e-9)
        let video = SceneRect(x: 0, y: 0, width: 1280, height: 720)
        XCTAssertEqual(RetainedFrame.share(of: [video, ticker], in: bounds), 1, "one scissor spans both")
        let past = SceneRect(x: 1800, y: 1000, width: 400, height: 400)
        XCTAssertEqual(RetainedFrame.share(of: [past], in: bounds)!, 120.0 * 80 / (1920 * 1080), accuracy: 1e-12)
    }
}
