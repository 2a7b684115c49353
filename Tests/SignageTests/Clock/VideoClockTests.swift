import XCTest

@testable import Signage

/// The arithmetic that keeps a wall's video at the wall clock's position
/// on every box: where it should be, how far off it is, and what corrects it.
final class VideoClockTests: XCTestCase {
    /// A 10 s clip at 30 fps, looping for its slot.
    let looping = VideoClock(duration: 10, framesPerSecond: 30, loops: true)
    /// The same clip played once in its slot.
    let once = VideoClock(duration: 10, framesPerSecond: 30, loops: false)

    func testTheTargetIsTheTimeSinceTheSlotBeganModuloTheLengthOfALoop() throws {
        XCTAssertEqual(try XCTUnwrap(looping.target(now: 1003.5, slotStart: 1000)), 3.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(looping.target(now: 1023.5, slotStart: 1000)), 3.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(once.target(now: 1009.9, slotStart: 1000)), 9.9, accuracy: 1e-9)
        // A clip played once holds its last frame past its end: nothing to follow.
        XCTAssertNil(once.target(now: 1010.5, slotStart: 1000))
        XCTAssertNil(looping.target(now: 999, slotStart: 1000))
    }

    func testTheOffsetOfALoopGoesTheShorterWayRound() {
        XCTAssertEqual(looping.offset(shown: 5.1, target: 5.0), 0.1, accuracy: 1e-9)
        XCTAssertEqual(looping.offset(shown: 4.9, target: 5.0), -0.1, accuracy: 1e-9)
        // The last frame against the first is a frame behind, not the clip's length.
        XCTAssertEqual(looping.offset(shown: 9.98, target: 0.0133), -0.0333, accuracy: 1e-3)
        XCTAssertEqual(looping.offset(shown: 0.02, target: 9.99), 0.03, accuracy: 1e-9)
        // Played once, the plain difference.
        XCTAssertEqual(once.offset(shown: 0.02, target: 9.99), -9.97, accuracy: 1e-9)
    }

    func testWithinHalfAFrameItPlaysAtItsOwnSpeed() {
        XCTAssertEqual(looping.correction(shown: 5.01, now: 1005, slotStart: 1000, seekLead: 0.2), .speed(1))
        XCTAssertEqual(looping.correction(shown: 4.99, now: 1005, slotStart: 1000, seekLead: 0.2), .speed(1))
    }

    func testAFrameOrTwoOffItPlaysSlowerOrFasterByAtMostFivePercent() throws {
        // One frame (33 ms) ahead: 3.3 % slower; behind: faster.
        guard case let .speed(slower)? = looping.correction(shown: 5 + 1 / 30, now: 1005, slotStart: 1000, seekLead: 0)
        else { return XCTFail("expected a change of speed") }
        XCTAssertEqual(slower, 1 - 1.0 / 30, accuracy: 1e-9)
        guard case let .speed(faster)? = looping.correction(shown: 5 - 1 / 30, now: 1005, slotStart: 1000, seekLead: 0)
        else { return XCTFail("expected a change of speed") }
        XCTAssertEqual(faster, 1 + 1.0 / 30, accuracy: 1e-9)
        // Two frames: capped at 5 %.
        XCTAssertEqual(looping.speed(offset: 0.066), 0.95, accuracy: 1e-9)
        XCTAssertEqual(looping.speed(offset: -0.066), 1.05, accuracy: 1e-9)
    }

    func testMoreThanTwoFramesOffItSeeksToTheClockAheadByTheSeeksLead() throws {
        // Stopped for 5 s: 5 s behind; the seek aims where the clock will be when it lands.
        XCTAssertEqual(
            looping.correction(shown: 2.0, now: 1007, slotStart: 1000, seekLead: 0.25), .seek(to: 7.25))
        // Across the loop's end the aim wraps to the start.
        guard case let .seek(to: aim)? = looping.correction(shown: 2, now: 1009.9, slotStart: 1000, seekLead: 0.25)
        else { return XCTFail("expected a seek") }
        XCTAssertEqual(aim, 0.15, accuracy: 1e-9)
        // Ahead by more than two frames seeks too.
        XCTAssertEqual(looping.correction(shown: 5.1, now: 1005, slotStart: 1000, seekLead: 0), .seek(to: 5))
        // Just over two frames seeks; just under changes speed.
        XCTAssertEqual(
            looping.correction(shown: 5 + 2.1 / 30, now: 1005, slotStart: 1000, seekLead: 0), .seek(to: 5))
        XCTAssertEqual(
            looping.correction(shown: 5 + 1.9 / 30, now: 1005, slotStart: 1000, seekLead: 0), .speed(0.95))
    }

    func testALoopsEndIsCrossedByASeekThatLandsInTheNextPass() throws {
        // In step, but the end comes before a seek asked now would land.
        guard case let .seek(to: aim)? = looping.correction(shown: 9.9, now: 1009.9, slotStart: 1000, seekLead: 0.2)
        else { return XCTFail("expected a seek across the loop's end") }
        XCTAssertEqual(aim, 0.1, accuracy: 1e-9)
        // Aimed within the last frame, it lands at the next pass's start, never on the end.
        XCTAssertEqual(
            looping.correction(shown: 9.75, now: 1009.75, slotStart: 1000, seekLead: 0.23), .seek(to: 0))
        // Further from the end, in step: its own speed.
        XCTAssertEqual(looping.correction(shown: 9.7, now: 1009.7, slotStart: 1000, seekLead: 0.2), .speed(1))
        // A clip played once is not looped round.
        XCTAssertEqual(once.correction(shown: 9.9, now: 1009.9, slotStart: 1000, seekLead: 0.2), .speed(1))
    }

    func testAClipPlayedOnceIsNotSoughtPastOrAtItsEnd() {
        XCTAssertNil(once.correction(shown: 2, now: 1009.9, slotStart: 1000, seekLead: 0.25))
        XCTAssertNil(once.correction(shown: 9.99, now: 1011, slotStart: 1000, seekLead: 0))
        XCTAssertEqual(once.correction(shown: 2, now: 1005, slotStart: 1000, seekLead: 0.25), .seek(to: 5.25))
    }

    func testTheSeekLeadLearnsFromWhereTheFirstPictureAfterASeekWas() {
        // Landed 100 ms behind: aim 100 ms further next time.
        XCTAssertEqual(VideoClock.nextSeekLead(0.2, offsetAfterSeek: -0.1), 0.3, accuracy: 1e-9)
        XCTAssertEqual(VideoClock.nextSeekLead(0.2, offsetAfterSeek: 0.05), 0.15, accuracy: 1e-9)
        XCTAssertEqual(VideoClock.nextSeekLead(0.2, offsetAfterSeek: 0.5), 0)
        XCTAssertEqual(VideoClock.nextSeekLead(1.5, offsetAfterSeek: -4), 2)
    }

    func testTheFrameNumberIsThePositionTimesTheRateRounded() {
        XCTAssertEqual(VideoClock.frameNumber(position: 0, framesPerSecond: 30), 0)
        XCTAssertEqual(VideoClock.frameNumber(position: 1.0 / 30 - 0.001, framesPerSecond: 30), 1)
        XCTAssertEqual(VideoClock.frameNumber(position: 10, framesPerSecond: 29.97), 300)
        XCTAssertEqual(VideoClock.frameNumber(position: 2.5, framesPerSecond: 24), 60)
    }
}
