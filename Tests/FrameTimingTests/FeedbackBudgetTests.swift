import FrameTiming
import TestHarness
import XCTest

/// The presentation-feedback budget: how many requests may be in flight,
/// when a silent compositor stops being asked, and how it is probed.
final class FeedbackBudgetTests: ScreenplayTestCase {
    let frame: UInt64 = 16_666_667

    /// Drives `frames` frames at 60 Hz from `start`, asking whenever the
    /// budget allows and never answering; returns the tokens requested.
    func runSilent(_ budget: inout FeedbackBudget, from start: UInt64, frames: Int) -> [UInt64] {
        var tokens: [UInt64] = []
        for i in 0..<frames {
            let now = start + UInt64(i) * frame
            _ = budget.expire(nowNs: now)
            XCTAssertLessThanOrEqual(budget.outstanding, FeedbackBudget.maxOutstanding)
            if budget.mayRequest(nowNs: now) { tokens.append(budget.requested(nowNs: now)) }
        }
        return tokens
    }

    func testPromptAnswersKeepOneInFlightAndCountAsPresentation() {
        var budget = FeedbackBudget()
        XCTAssertFalse(budget.isAnswering, "no answer seen yet: frames are counted by callbacks")
        for i in 0..<600 {
            let now = UInt64(i) * frame
            XCTAssertEqual(budget.expire(nowNs: now), [])
            XCTAssertTrue(budget.mayRequest(nowNs: now))
            let token = budget.requested(nowNs: now)
            budget.answered(token, nowNs: now + frame / 2)
        }
        XCTAssertEqual(budget.outstanding, 0)
        XCTAssertEqual(budget.abandonedCount, 0)
        XCTAssertTrue(budget.isAnswering)
    }

    func testAnswersThreeFramesLateAreStillAskedForAndUsed() {
        var budget = FeedbackBudget()
        var pending: [(token: UInt64, due: Int)] = []
        var answered = 0
        for i in 0..<600 {
            let now = UInt64(i) * frame
            for p in pending where p.due == i {
                budget.answered(p.token, nowNs: now)
                answered += 1
            }
            pending.removeAll { $0.due <= i }
            XCTAssertEqual(budget.expire(nowNs: now), [], "a late answer is not a missing one")
            XCTAssertTrue(budget.mayRequest(nowNs: now), "frame \(i): three in flight leave room for the fourth")
            pending.append((budget.requested(nowNs: now), i + 3))
            XCTAssertLessThanOrEqual(budget.outstanding, 4)
        }
        XCTAssertEqual(answered, 597)
        XCTAssertEqual(budget.mode, .active)
        XCTAssertTrue(budget.isAnswering)
    }

    func testNeverAnsweredStopsAskingAndProbesWithGrowingWaits() {
        var budget = FeedbackBudget()
        // Ten minutes at 60 Hz.
        let tokens = runSilent(&budget, from: 0, frames: 36_000)
        XCTAssertEqual(budget.mode, .silent)
        XCTAssertFalse(budget.isAnswering)
        // Six at the start, then probes after 2, 4, 8, 16, 32, 64, 120, 120...
        // seconds (each wait starts when the previous probe is given up).
        XCTAssertGreaterThanOrEqual(tokens.count, 6 + 6)
        XCTAssertLessThanOrEqual(
            tokens.count, 6 + 10, "a silent compositor is asked a handful of times in ten minutes, not 36,000")
        XCTAssertEqual(budget.abandonedCount, tokens.count - budget.outstanding)
    }

    func testAnswerAfterSilenceMakesItActiveAgain() {
        var budget = FeedbackBudget()
        var tokens = runSilent(&budget, from: 0, frames: 300)  // 5 s
        XCTAssertEqual(budget.mode, .silent)
        // Keep going until the next probe goes out, then answer it.
        var now = 300 * frame
        while !budget.mayRequest(nowNs: now) {
            _ = budget.expire(nowNs: now)
            now += frame
        }
        let probe = budget.requested(nowNs: now)
        tokens.append(probe)
        budget.answered(probe, nowNs: now + frame)
        XCTAssertEqual(budget.mode, .active)
        XCTAssertTrue(budget.isAnswering)
        XCTAssertTrue(budget.mayRequest(nowNs: now + 2 * frame), "asking on every frame again")
    }

    func testAnsweringOnlySomeStaysBounded() {
        var budget = FeedbackBudget()
        var requested = 0
        var answeredCount = 0
        for i in 0..<36_000 {  // ten minutes
            let now = UInt64(i) * frame
            _ = budget.expire(nowNs: now)
            XCTAssertLessThanOrEqual(budget.outstanding, FeedbackBudget.maxOutstanding)
            guard budget.mayRequest(nowNs: now) else { continue }
            let token = budget.requested(nowNs: now)
            requested += 1
            // The compositor answers every other request, the others never.
            if requested % 2 == 0 {
                budget.answered(token, nowNs: now + frame)
                answeredCount += 1
            }
        }
        XCTAssertGreaterThan(answeredCount, 0, "answers that come are used")
        // Unanswered requests are what a compositor keeps forever: bounded
        // by the probe waits, not by the frame rate.
        XCTAssertLessThan(requested - answeredCount, 100, "requested \(requested), answered \(answeredCount)")
    }

    func testShortSilenceAfterAStablePeriodProbesSoonAgain() {
        var budget = FeedbackBudget()
        _ = runSilent(&budget, from: 0, frames: 120)
        XCTAssertEqual(budget.mode, .silent)
        // An answer, then 20 s of prompt answers: stable.
        var now = 120 * frame
        while !budget.mayRequest(nowNs: now) {
            _ = budget.expire(nowNs: now)
            now += frame
        }
        for _ in 0..<1200 {
            XCTAssertEqual(budget.expire(nowNs: now), [])
            let t = budget.requested(nowNs: now)
            budget.answered(t, nowNs: now + frame / 2)
            now += frame
        }
        // The output goes dark: one request never answered.
        _ = budget.requested(nowNs: now)
        now += FeedbackBudget.answerDeadlineNs
        XCTAssertEqual(budget.expire(nowNs: now).count, 1)
        XCTAssertEqual(budget.mode, .silent)
        XCTAssertFalse(budget.mayRequest(nowNs: now + FeedbackBudget.firstProbeDelayNs - 1))
        XCTAssertTrue(
            budget.mayRequest(nowNs: now + FeedbackBudget.firstProbeDelayNs),
            "the wait starts over after a stable period")
    }
}
