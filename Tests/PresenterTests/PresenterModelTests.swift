import TestHarness
import XCTest

@testable import Presenter

/// The presenter's pure state: keys, navigation, audience state, timer,
/// countdown colours and the notes format.
final class PresenterModelTests: ScreenplayTestCase {
    func key(_ keysym: String, _ text: String = "", shift: Bool = false) -> PresenterAction? {
        PresenterKeys.action(keysym: keysym, text: text, shift: shift)
    }

    func testKeyMapping() {
        for k in ["Right", "Down", "Next", "Page_Down", "space", "n"] { XCTAssertEqual(key(k), .next, k) }
        for k in ["Left", "Up", "Prior", "Page_Up", "BackSpace", "p"] { XCTAssertEqual(key(k), .previous, k) }
        XCTAssertEqual(key("Return"), .enter)
        XCTAssertEqual(key("KP_Enter"), .enter)
        XCTAssertEqual(key("Home"), .first)
        XCTAssertEqual(key("End"), .last)
        XCTAssertEqual(key("7", "7"), .digit(7))
        XCTAssertEqual(key("KP_3"), .digit(3))
        XCTAssertEqual(
            key("ampersand", "1"), .digit(1),
            "a layout whose digit row types symbols unshifted still gives digits via text")
        XCTAssertEqual(key("b"), .toggleBlack)
        XCTAssertEqual(key("period"), .toggleBlack)
        XCTAssertEqual(key("w"), .toggleWhite)
        XCTAssertEqual(key("comma"), .toggleWhite)
        XCTAssertEqual(key("f"), .toggleFreeze)
        XCTAssertEqual(key("s"), .swapScreens)
        XCTAssertEqual(key("t"), .toggleTimer)
        XCTAssertEqual(key("r"), .resetTimer)
        XCTAssertEqual(key("F5"), .startFromBeginning)
        XCTAssertEqual(key("F5", shift: true), .startHere)
        XCTAssertEqual(key("Escape"), .quit)
        XCTAssertEqual(key("q"), .quit)
        XCTAssertEqual(key("Q"), .quit, "caps lock does not stop the keys")
        XCTAssertEqual(key("x"), .toggleEraser)
        XCTAssertNil(key("z"))
        XCTAssertNil(key("Shift_L"))
    }

    func testNavigationClampsAndStartsTheTimerOnTheFirstPageChange() {
        var s = PresenterState(pageCount: 5)
        XCTAssertEqual(s.apply(.previous, at: 1), .unchanged)
        XCTAssertFalse(s.timer.hasStarted)
        XCTAssertEqual(s.apply(.next, at: 10), .changed)
        XCTAssertEqual(s.page, 1)
        XCTAssertTrue(s.timer.isRunning)
        XCTAssertEqual(s.timer.elapsed(at: 15), 5)
        s.apply(.last, at: 20)
        XCTAssertEqual(s.page, 4)
        XCTAssertNil(s.nextPage)
        XCTAssertEqual(s.apply(.next, at: 21), .unchanged)
        s.apply(.first, at: 22)
        XCTAssertEqual(s.page, 0)
        XCTAssertEqual(s.nextPage, 1)
        // The timer started once and kept running.
        XCTAssertEqual(s.timer.elapsed(at: 30), 20)
    }

    func testDigitsThenReturnJump() {
        var s = PresenterState(pageCount: 12)
        s.apply(.digit(1), at: 0)
        s.apply(.digit(1), at: 0)
        XCTAssertEqual(s.typed, "11")
        XCTAssertEqual(s.page, 0, "digits alone do not move")
        s.apply(.enter, at: 1)
        XCTAssertEqual(s.page, 10)
        XCTAssertEqual(s.typed, "")
        // Return without digits is "next".
        s.apply(.enter, at: 2)
        XCTAssertEqual(s.page, 11)
        // Out of range: ignored, buffer cleared.
        s.apply(.digit(4), at: 3)
        s.apply(.digit(0), at: 3)
        s.apply(.enter, at: 3)
        XCTAssertEqual(s.page, 11)
        XCTAssertEqual(s.typed, "")
        // Another key abandons the typed number and acts.
        s.apply(.digit(2), at: 4)
        s.apply(.previous, at: 4)
        XCTAssertEqual(s.page, 10)
        XCTAssertEqual(s.typed, "")
    }

    func testBlackWhiteFreeze() {
        var s = PresenterState(pageCount: 5)
        s.apply(.next, at: 0)
        XCTAssertEqual(s.audience, .page(1))
        s.apply(.toggleBlack, at: 0)
        XCTAssertEqual(s.audience, .black)
        s.apply(.toggleWhite, at: 0)
        XCTAssertEqual(s.audience, .white, "white replaces black")
        s.apply(.toggleWhite, at: 0)
        XCTAssertEqual(s.audience, .page(1))
        s.apply(.toggleFreeze, at: 0)
        s.apply(.next, at: 0)
        s.apply(.next, at: 0)
        XCTAssertEqual(s.page, 3)
        XCTAssertEqual(s.audience, .page(1), "frozen: the audience keeps page 2")
        s.apply(.toggleFreeze, at: 0)
        XCTAssertEqual(s.audience, .page(3))
    }

    func testTimerPauseResetAndF5() {
        var s = PresenterState(pageCount: 5)
        s.apply(.next, at: 100)
        s.apply(.toggleTimer, at: 110)
        XCTAssertFalse(s.timer.isRunning)
        XCTAssertEqual(s.timer.elapsed(at: 200), 10)
        s.apply(.toggleTimer, at: 200)
        XCTAssertEqual(s.timer.elapsed(at: 205), 15)
        s.apply(.resetTimer, at: 205)
        XCTAssertEqual(s.timer.elapsed(at: 207), 2, "reset keeps a running timer running from zero")
        s.apply(.next, at: 207)
        XCTAssertEqual(s.apply(.startFromBeginning, at: 300), .unchanged, "F5 mid-talk: a clicker's slideshow button")
        XCTAssertEqual(s.page, 2)
        XCTAssertEqual(s.timer.elapsed(at: 300), 95)
        XCTAssertEqual(s.apply(.startHere, at: 300), .unchanged)

        // Before the talk (the timer starts on the first page change) F5
        // starts it on page 1, Shift+F5 where it stands: page 1 too.
        var fresh = PresenterState(pageCount: 5)
        XCTAssertEqual(fresh.apply(.startFromBeginning, at: 20), .changed)
        XCTAssertEqual(fresh.page, 0)
        XCTAssertEqual(fresh.timer.elapsed(at: 21), 1)
        XCTAssertTrue(fresh.timer.isRunning)
        var here = PresenterState(pageCount: 5)
        XCTAssertEqual(here.apply(.startHere, at: 30), .changed)
        XCTAssertTrue(here.timer.isRunning)
        XCTAssertEqual(here.apply(.swapScreens, at: 0), .swapScreens)
    }

    /// Escape or `q` asks; a second press within two seconds ends the talk;
    /// any other key (or waiting) cancels the question.
    func testQuittingAsksFirst() {
        var s = PresenterState(pageCount: 5)
        s.apply(.next, at: 0)
        XCTAssertEqual(s.apply(.quit, at: 10), .changed)
        XCTAssertTrue(s.isAskingToQuit(at: 11))
        XCTAssertEqual(s.apply(.quit, at: 11.9), .quit)

        XCTAssertEqual(s.apply(.quit, at: 20), .changed)
        XCTAssertFalse(s.isAskingToQuit(at: 22.1), "the question goes after two seconds")
        XCTAssertEqual(s.apply(.quit, at: 22.1), .changed, "too late: asked again")
        XCTAssertEqual(s.apply(.next, at: 23), .changed)
        XCTAssertFalse(s.isAskingToQuit(at: 23))
        XCTAssertEqual(s.page, 2, "the other key does what it always does")
        XCTAssertEqual(s.apply(.quit, at: 23.5), .changed, "the question starts over")

        // As pdfpc's Escape: black, white and a freeze go first.
        var blank = PresenterState(pageCount: 5)
        blank.apply(.toggleBlack, at: 0)
        XCTAssertEqual(blank.apply(.quit, at: 1), .changed)
        XCTAssertEqual(blank.audience, .page(0))
        XCTAssertFalse(blank.isAskingToQuit(at: 1))
        blank.apply(.toggleFreeze, at: 2)
        blank.apply(.quit, at: 3)
        XCTAssertNil(blank.frozenPage)
        XCTAssertEqual(blank.apply(.quit, at: 4), .changed)
        XCTAssertEqual(blank.apply(.quit, at: 5), .quit)
    }

    /// A talk driven by a clicker's keys from start to end. `slideshow` is
    /// the button that sends F5 and Escape in turn (Logitech R400/R500:
    /// F5 then Escape; many unbranded clickers: Shift+F5 then Escape);
    /// pressed by mistake at any moment, even several times, it never ends
    /// the talk, moves the page or resets the timer. Its "blank" key sends
    /// `.` (R400) or `b`.
    func testClickersNeverEndATalkByMistake() {
        let clickers: [(name: String, slideshow: [(String, Bool)], blank: String)] = [
            ("Logitech R400", [("F5", false), ("Escape", false)], "period"),
            ("unbranded, Shift+F5", [("F5", true), ("Escape", false)], "b"),
        ]
        for clicker in clickers {
            var s = PresenterState(pageCount: 12)
            var presses = 0
            var now = 0.0
            func press(_ keysym: String, shift: Bool = false) -> PresenterState.Outcome {
                now += 0.4
                guard let action = PresenterKeys.action(keysym: keysym, text: "", shift: shift) else {
                    return .unchanged
                }
                return s.apply(action, at: now)
            }
            func slideshow() -> [PresenterState.Outcome] {
                let keys = clicker.slideshow
                defer { presses += 1 }
                let (keysym, shift) = keys[presses % keys.count]
                return [press(keysym, shift: shift)]
            }
            XCTAssertFalse(slideshow().contains(.quit), clicker.name)  // starts the show
            for _ in 0..<4 { XCTAssertEqual(press("Next"), .changed) }
            let elapsed = s.timer.elapsed(at: now)
            for _ in 0..<7 {
                XCTAssertFalse(slideshow().contains(.quit), "\(clicker.name): the slideshow button ended the talk")
            }
            XCTAssertEqual(s.page, 4, clicker.name)
            XCTAssertGreaterThanOrEqual(s.timer.elapsed(at: now), elapsed, "\(clicker.name): the timer was reset")
            XCTAssertEqual(press(clicker.blank), .changed)
            XCTAssertEqual(s.audience, .black, clicker.name)
            XCTAssertEqual(press(clicker.blank), .changed)
            XCTAssertEqual(press("Prior"), .changed)
            XCTAssertEqual(s.page, 3, clicker.name)
            // The talk ends when the speaker means it: Escape twice.
            XCTAssertEqual(press("Escape"), .changed)
            XCTAssertEqual(press("Escape"), .quit, clicker.name)
        }
    }

    func testCountdownColours() {
        XCTAssertEqual(Countdown(duration: 1200, elapsed: 0).phase, .normal)
        XCTAssertEqual(Countdown(duration: 1200, elapsed: 899).phase, .normal)
        XCTAssertEqual(Countdown(duration: 1200, elapsed: 901).phase, .amber)
        XCTAssertEqual(Countdown(duration: 1200, elapsed: 1200).phase, .over)
        XCTAssertEqual(Countdown(duration: 1200, elapsed: 1265).text, "+1:05")
        XCTAssertEqual(Countdown(duration: 1200, elapsed: 0).text, "20:00")
        XCTAssertEqual(formatDuration(3725), "1:02:05")
    }

    func testNotesParse() throws {
        let text = """
            # Notes for my talk

            ## 1
            First page.
            Second line.

            ## 3
            ### a sub-heading stays text
            Third page.
            """
        let notes = try SpeakerNotes.parse(text, pageCount: 4, path: "talk.notes.md")
        XCTAssertEqual(notes.text(forPage: 0), "First page.\nSecond line.")
        XCTAssertEqual(notes.text(forPage: 1), "", "a page without a section shows no notes")
        XCTAssertEqual(notes.text(forPage: 2), "### a sub-heading stays text\nThird page.")
        XCTAssertEqual(notes.text(forPage: 3), "")
    }

    func testMalformedNotesNameTheirLine() {
        func error(_ text: String) -> NotesError? {
            do { _ = try SpeakerNotes.parse(text, pageCount: 3, path: "n.md"); return nil } catch { return error }
        }
        XCTAssertEqual(error("## 1\nok\n## two\n")?.line, 3)
        XCTAssertEqual(error("## 1\nok\n##2\n")?.line, 3)
        XCTAssertEqual(error("\nhello\n## 1\n")?.line, 2)
        XCTAssertEqual(error("## 1\n## 9\n")?.line, 2)
        let dup = error("## 1\na\n## 2\nb\n## 1\n")
        XCTAssertEqual(dup?.line, 5)
        XCTAssertEqual(dup?.description.hasPrefix("n.md:5: "), true, dup?.description ?? "")
        XCTAssertNil(error("## 1\n## 2 \n## 3\n"))
    }

    func testSidecarPath() {
        XCTAssertEqual(SpeakerNotes.sidecarPath(for: "/tmp/talk.pdf"), "/tmp/talk.notes.md")
        XCTAssertEqual(SpeakerNotes.sidecarPath(for: "talk.pdf"), "talk.notes.md")
        XCTAssertEqual(SpeakerNotes.sidecarPath(for: "dir/My Talk.PDF"), "dir/My Talk.notes.md")
    }

    func testConsoleLayoutReadableAt720p() {
        let l = ConsoleLayout(width: 1280, height: 720)
        XCTAssertGreaterThanOrEqual(l.textSize, 20)
        XCTAssertGreaterThan(l.current.width, l.next.width)
        XCTAssertLessThanOrEqual(l.current.y + l.current.height, l.footer.y)
        XCTAssertLessThanOrEqual(l.notes.y + l.notes.height, l.footer.y)
        XCTAssertLessThanOrEqual(l.next.x + l.next.width, 1280)
        XCTAssertGreaterThan(l.notes.height, l.textSize * 3, "room for at least three lines of notes")
    }
}
