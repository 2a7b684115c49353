import Foundation
import FrameTiming
import Screenplay
import ScriptedCompositor
import TestHarness
import XCTest

/// Presentation feedback against compositors that answer late, answer only
/// some requests, or never answer (as sway 1.7's headless backend), and the
/// fullscreen fallback judged on where its window is once a batch of enter
/// and leave events is in. Driven by the scripted compositor, whose frame
/// callbacks tick at 60 Hz.
final class PresentationFeedbackTests: ScreenplayTestCase {
    struct Counts {
        var requested, answered, live: Int32
    }

    @MainActor
    func counts(_ h: Harness) -> Counts {
        var c = Counts(requested: 0, answered: 0, live: 0)
        scripted_feedback_counts(h.fixture.handle, &c.requested, &c.answered, &c.live)
        return c
    }

    /// Connects DP-1 and runs its display link for `seconds`, checking the
    /// bound on every turn; returns the scene.
    @MainActor
    func animate(_ h: Harness, seconds: Double) async throws -> Scene {
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 640, height: 360)
        try h.sync()
        h.register()
        try await h.settle("DP-1 connects") { h.log.events == ["connect DP-1"] }
        let scene = try XCTUnwrap(h.app.scenes.first)
        scene.displayLink.isPaused = false
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            XCTAssertLessThanOrEqual(scene.displayLink.outstandingFeedback, FeedbackBudget.maxOutstanding)
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return scene
    }

    @MainActor
    func testNeverAnsweredStaysBoundedAndFramesArePacedByCallbacks() async throws {
        let h = try Harness(feedback: (SCRIPTED_FEEDBACK_NEVER, 0))
        defer { h.close() }
        let scene = try await animate(h, seconds: 4.5)
        let frames = scene.displayLink.frameCount
        let window = scene.displayLink.takeFrameStatistics()
        let shown = scene.displayLink.recentFrameTimestampsNs
        scene.displayLink.isPaused = true
        let c = counts(h)
        // Without the budget: one request per frame, about 270 on an idle
        // machine. Ten times the bound proves it without counting on every
        // refresh of a loaded one.
        let bound = FeedbackBudget.maxOutstanding + 2
        XCTAssertGreaterThan(frames, UInt64(10 * bound), "still drawing (paced by frame callbacks)")
        XCTAssertEqual(c.answered, 0)
        XCTAssertGreaterThanOrEqual(c.requested, Int32(FeedbackBudget.maxOutstanding), "it asked")
        XCTAssertLessThanOrEqual(
            c.requested, Int32(FeedbackBudget.maxOutstanding) + 2,
            "six at first, then one probe after the 1 s deadline and the 2 s wait; \(frames) frames")
        XCTAssertEqual(scene.displayLink.countSource, "frame-callbacks")
        XCTAssertFalse(scene.displayLink.isReceivingPresentationFeedback)
        XCTAssertGreaterThan(window.presented, 0, "frames are counted by callbacks")
        XCTAssertGreaterThan(shown.count, 1, "the callbacks' times are the frames' times")
        XCTAssertEqual(shown, shown.sorted(), "oldest first")
        h.assertClean()
    }

    @MainActor
    func testAnswersThreeFramesLateAreUsedForPacing() async throws {
        let h = try Harness(feedback: (SCRIPTED_FEEDBACK_LATE, 3))
        defer { h.close() }
        let scene = try await animate(h, seconds: 2.5)
        scene.displayLink.isPaused = true
        let c = counts(h)
        XCTAssertGreaterThan(
            c.answered, 3 * Int32(FeedbackBudget.maxOutstanding), "answers three ticks late keep coming: \(c)")
        XCTAssertLessThanOrEqual(c.requested - c.answered, Int32(FeedbackBudget.maxOutstanding))
        XCTAssertTrue(scene.displayLink.isReceivingPresentationFeedback)
        XCTAssertEqual(scene.displayLink.countSource, "presentation")
        XCTAssertEqual(scene.displayLink.durationSource, .presentation, "the refresh comes from the answers")
        let shown = scene.displayLink.recentFrameTimestampsNs
        XCTAssertGreaterThan(shown.count, 1, "the answers' presentation times")
        XCTAssertEqual(shown, shown.sorted(), "oldest first")
        XCTAssertEqual(scene.displayLink.takeFrameStatistics().presented, scene.presentedFrames, "every answer counted")
        XCTAssertGreaterThanOrEqual(
            scene.presentedFrames, Int(c.answered) - FeedbackBudget.maxOutstanding, "each answer counts a frame: \(c)")
        h.assertClean()
    }

    @MainActor
    func testAnswersForSomeFramesOnlyStayBounded() async throws {
        let h = try Harness(feedback: (SCRIPTED_FEEDBACK_ALTERNATE, 1))
        defer { h.close() }
        let scene = try await animate(h, seconds: 4)
        let frames = scene.displayLink.frameCount
        scene.displayLink.isPaused = true
        let c = counts(h)
        XCTAssertGreaterThan(frames, UInt64(10 * (FeedbackBudget.maxOutstanding + 2)), "still drawing")
        XCTAssertGreaterThan(c.answered, 0, "the answers that come are used")
        XCTAssertGreaterThan(scene.presentedFrames, 0)
        // What the compositor keeps unanswered: bounded by the budget and
        // its probe waits, not one per frame (about 120 without it).
        XCTAssertLessThanOrEqual(c.live, 2 * Int32(FeedbackBudget.maxOutstanding), "\(c), \(frames) frames")
        h.assertClean()
    }

    /// enter(eDP-1), leave(eDP-1), enter(DP-1) in one batch: the window is
    /// where it was asked to be, so nothing is reported. A later batch that
    /// really moves it to eDP-1 is reported, naming eDP-1.
    @MainActor
    func testFallbackJudgesWhereTheWindowIsAfterTheBatch() async throws {
        let h = try Harness(layerShell: false, xdgShell: true)
        defer { h.close() }
        let dp1 = h.fixture.addOutput("DP-1", x: 1280, width: 640, height: 360)
        try h.sync()
        h.register()
        try await h.settle("DP-1 connects") { h.log.events == ["connect DP-1"] }
        let scene = try XCTUnwrap(h.app.scenes.first)
        XCTAssertTrue(scene.isFullscreenFallback)
        XCTAssertEqual(scripted_toplevel_fullscreen_output(h.fixture.handle, 0), dp1, "asked to be fullscreen on DP-1")
        let warnings = h.log.errors.count
        XCTAssertEqual(warnings, 1, "the one fallback warning: \(h.log.errors)")

        var ops: [Int32] = [0, -1, dp1]  // enter eDP-1, leave eDP-1, enter DP-1
        XCTAssertTrue(scripted_send_toplevel_outputs(h.fixture.handle, 0, &ops, 3))
        try h.sync()
        let dp1ID = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" }?.id)
        XCTAssertEqual(scene.enteredScreenIDs, [dp1ID])
        XCTAssertEqual(h.log.errors.count, warnings, "no misplacement reported: \(h.log.errors)")

        ops = [-dp1 - 1, 0]  // leave DP-1, enter eDP-1: really moved
        XCTAssertTrue(scripted_send_toplevel_outputs(h.fixture.handle, 0, &ops, 2))
        try h.sync()
        XCTAssertEqual(h.log.errors.count, warnings + 1, "\(h.log.errors)")
        XCTAssertTrue(
            h.log.errors.last?.contains("put the fullscreen fallback window on eDP-1 instead") == true,
            "\(h.log.errors)")
        h.assertClean(allowSceneErrors: true)
    }
}
