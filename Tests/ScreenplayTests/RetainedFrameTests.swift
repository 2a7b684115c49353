import Rendering
import TestHarness
import XCTest

@testable import Screenplay

/// When a scene keeps its own copy of its picture (no buffer age): made on
/// the first partial frame with unknown content, then always one frame
/// old; made again for a new size; let go after a run of full frames.
/// Offscreen (Mesa's surfaceless platform).
final class RetainedFrameTests: ScreenplayTestCase {
    func testTheCopyIsMadeOnAPartialFrameKeptAndLetGoAfterFullFrames() throws {
        try MainActor.assumeIsolated {
            let graphics = try GraphicsContext.offscreen()
            defer { graphics.destroy() }
            var retained = RetainedFrame()
            defer { retained.release() }
            XCTAssertNil(
                try retained.target(partial: false, width: 64, height: 32, context: graphics), "full: the window")
            let made = try XCTUnwrap(try retained.target(partial: true, width: 64, height: 32, context: graphics))
            XCTAssertEqual(made.age, 0, "a new copy's content is unknown: repaint all")
            XCTAssertEqual([made.target.pixelWidth, made.target.pixelHeight], [64, 32])
            let again = try XCTUnwrap(try retained.target(partial: true, width: 64, height: 32, context: graphics))
            XCTAssertTrue(again.target === made.target)
            XCTAssertEqual(again.age, 1, "the copy holds the last frame")
            let resized = try XCTUnwrap(try retained.target(partial: true, width: 80, height: 32, context: graphics))
            XCTAssertEqual([resized.target.pixelWidth, resized.age], [80, 0], "a new size: a new copy")
            for frame in 1..<RetainedFrame.fullFramesBeforeRelease {
                let full = try retained.target(partial: false, width: 80, height: 32, context: graphics)
                XCTAssertEqual(full?.age, 1, "full frame \(frame) still draws into the kept copy")
            }
            XCTAssertNil(
                try retained.target(partial: false, width: 80, height: 32, context: graphics),
                "after \(RetainedFrame.fullFramesBeforeRelease) full frames the copy goes")
            XCTAssertNil(retained.copy)
        }
    }
}
