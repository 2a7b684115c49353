import Foundation
import TestHarness
import XCTest

@testable import Presenter

/// What a pdfpc user brings: the `.pdfpc` notes file, overlays grouped by
/// page label, the overview grid, the end time, beamer notes pages.
final class PresenterPdfpcTests: ScreenplayTestCase {
    func parse(_ json: String, labels: [String]) throws(PdfpcError) -> PdfpcFile {
        try PdfpcFile.parse(Data(json.utf8), path: "talk.pdfpc", pageLabels: labels)
    }

    func error(_ json: String, labels: [String] = ["1", "2", "3"]) -> String? {
        do { _ = try parse(json, labels: labels); return nil } catch { return error.description }
    }

    // MARK: .pdfpc

    func testPdfpcFileGivesNotesAndSettings() throws {
        // As pdfpc 4.6 writes it: notes keyed by index, label and overlay.
        let json = """
            {"pdfpcFormat":2,"duration":20,"endTime":"14:30","lastMinutes":3,"beamerNotePosition":"right",
             "disableMarkdown":false,"defaultTransition":"fade",
             "pages":[{"idx":0,"label":"1","overlay":0,"note":"Welcome"},
                      {"idx":2,"label":"2","overlay":1,"note":"Second step of slide 2"},
                      {"idx":4,"label":"3","overlay":0,"forcedOverlay":true,"hidden":true}]}
            """
        let file = try parse(json, labels: ["1", "2", "2", "2", "3"])
        XCTAssertEqual(file.duration, 20)
        XCTAssertEqual(file.endTime, ClockTime(parsing: "14:30"))
        XCTAssertEqual(file.lastMinutes, 3)
        XCTAssertEqual(file.notesPosition, .right)
        XCTAssertEqual(file.notes, [0: "Welcome", 2: "Second step of slide 2"])
        XCTAssertEqual(file.forcedOverlays, [4])
        XCTAssertEqual(file.hidden, [4])
        XCTAssertEqual(Set(file.unused), ["defaultTransition"])
        XCTAssertFalse(file.disableMarkdown)
        XCTAssertTrue(try parse(#"{"disableMarkdown":true}"#, labels: ["1"]).disableMarkdown)
    }

    /// pdfpc's Markdown subset as Pango markup: headings, lists, emphasis
    /// and code; text that is not Markdown stays what it was.
    func testMarkdownNotesBecomePangoMarkup() {
        XCTAssertEqual(NotesMarkdown.pangoMarkup("# Intro"), #"<span size="x-large" weight="bold">Intro</span>"#)
        XCTAssertEqual(NotesMarkdown.pangoMarkup("### Aside ###"), #"<span size="large" weight="bold">Aside</span>"#)
        XCTAssertEqual(NotesMarkdown.pangoMarkup("- one\n  * two"), "• one\n  • two")
        XCTAssertEqual(
            NotesMarkdown.pangoMarkup("say **this** and *that*, `code` too"),
            "say <b>this</b> and <i>that</i>, <tt>code</tt> too")
        XCTAssertEqual(NotesMarkdown.pangoMarkup("__b__ _i_"), "<b>b</b> <i>i</i>")
        XCTAssertEqual(NotesMarkdown.pangoMarkup("a_snake_case name"), "a_snake_case name")
        XCTAssertEqual(NotesMarkdown.pangoMarkup("2 * 3 * 4 < 5 & 6"), "2 * 3 * 4 &lt; 5 &amp; 6")
        XCTAssertEqual(NotesMarkdown.pangoMarkup("<b>not markup</b>"), "&lt;b&gt;not markup&lt;/b&gt;")
        XCTAssertEqual(NotesMarkdown.pangoMarkup("#hashtag"), "#hashtag", "no space: no heading")
    }

    func testPdfpcPagesAreFoundByLabelWhenTheIndexMoved() throws {
        // Two pages were added before slide "B" since pdfpc wrote the file:
        // index 1 now holds another label, so the label and overlay find it.
        let labels = ["A", "new", "new", "B", "B"]
        let file = try parse(
            #"{"pages":[{"idx":2,"label":"B","overlay":1,"note":"second step of B"}]}"#, labels: labels)
        XCTAssertEqual(file.notes, [4: "second step of B"])
        // A label that no longer exists falls back to the index, as in pdfpc.
        XCTAssertEqual(PdfpcFile.resolve(idx: 1, label: "gone", overlay: 0, labels: labels), 1)
        XCTAssertEqual(PdfpcFile.resolve(idx: 3, label: "", overlay: 0, labels: labels), 3)
    }

    func testMalformedPdfpcNamesTheFileAndTheProblem() {
        XCTAssertEqual(error("{\"duration\": 20,\n  \"pages\": [}"), "talk.pdfpc: not valid JSON at line 2, column 13")
        XCTAssertEqual(error("[1, 2]"), "talk.pdfpc: expected a JSON object at the top, found an array")
        XCTAssertEqual(
            error(#"{"duration":"twenty"}"#),
            "talk.pdfpc: duration: expected a whole number, found the string \"twenty\"")
        XCTAssertEqual(error(#"{"duration":1.5}"#), "talk.pdfpc: duration: expected a whole number, found 1.5")
        XCTAssertEqual(
            error(#"{"endTime":"half past two"}"#), "talk.pdfpc: endTime 'half past two' is not a time HH:MM")
        XCTAssertEqual(
            error(#"{"beamerNotePosition":"middle"}"#),
            "talk.pdfpc: beamerNotePosition 'middle' is not one of right, left, top, bottom (or none)")
        XCTAssertEqual(
            error(#"{"pdfpcFormat":3}"#), "talk.pdfpc: pdfpcFormat 3 is newer than the version 2 this reader knows")
        XCTAssertEqual(
            error(#"{"pages":[{"idx":7,"note":"x"}]}"#),
            "talk.pdfpc: pages[0]: page index 7 is not in the document, which has 3 pages")
        XCTAssertEqual(error(#"{"pages":[{"note":"x"}]}"#), "talk.pdfpc: pages[0]: no idx (the page's index)")
        XCTAssertEqual(
            error(#"{"pages":[{"idx":0,"note":5}]}"#), "talk.pdfpc: pages[0].note: expected a string, found 5")
        XCTAssertEqual(
            error(#"{"pages":[{"idx":0,"hidden":"yes"}]}"#),
            "talk.pdfpc: pages[0].hidden: expected true or false, found the string \"yes\"")
        XCTAssertEqual(
            error("[file]\ntalk.pdf\n[notes]\n### 1\nhello\n")?.hasPrefix(
                "talk.pdfpc: this is pdfpc's old text format"), true)
        XCTAssertNil(error(#"{"pdfpcFormat":2,"beamerNotePosition":"NONE","pages":[]}"#))
    }

    func testNotesFileWinsPageByPage() throws {
        var notes = try SpeakerNotes.parse("## 1\nours\n", pageCount: 3, path: "talk.notes.md")
        notes.fill(from: [0: "pdfpc's", 2: "only in pdfpc"])
        XCTAssertEqual(notes.text(forPage: 0), "ours")
        XCTAssertEqual(notes.text(forPage: 1), "")
        XCTAssertEqual(notes.text(forPage: 2), "only in pdfpc")
    }

    func testSidecarPaths() {
        XCTAssertEqual(PdfpcFile.sidecarPath(for: "/tmp/talk.pdf"), "/tmp/talk.pdfpc")
        XCTAssertEqual(PdfpcFile.sidecarPath(for: "talk.pdf"), "talk.pdfpc")
    }

    // MARK: overlays

    func testPagesSharingALabelAreOneSlide() {
        // Slide 2 has three overlay steps (beamer's \pause).
        let slides = Slides(labels: ["1", "2", "2", "2", "3"])
        XCTAssertEqual(slides.count, 3)
        XCTAssertTrue(slides.hasOverlays)
        XCTAssertEqual(slides.slideOfPage, [0, 1, 1, 1, 2])
        XCTAssertEqual(slides.lastPage(ofSlide: 1), 3)
        XCTAssertEqual(slides.overlay(ofPage: 2).step, 2)
        XCTAssertEqual(slides.overlay(ofPage: 2).steps, 3)
        // Forced overlays (pdfpc's Ctrl+O) join a page to the one before.
        XCTAssertEqual(Slides(labels: ["1", "2", "3"], forcedOverlays: [2]).count, 2)
        // Without labels poppler numbers the pages: one slide each.
        let plain = Slides(pageCount: 4)
        XCTAssertEqual(plain.count, 4)
        XCTAssertFalse(plain.hasOverlays)
    }

    func testOverlayNavigationAndNextPreview() {
        var s = PresenterState(slides: Slides(labels: ["1", "2", "2", "2", "3"]))
        XCTAssertEqual(s.nextSlidePreview, 3, "the next slide fully built, not the next step")
        s.apply(.next, at: 0)
        XCTAssertEqual([s.page, s.slide], [1, 1])
        XCTAssertEqual(s.nextSlidePreview, 4, "in an overlay the preview is the slide after it")
        s.apply(.next, at: 0)
        XCTAssertEqual(s.page, 2, "next walks every step")
        s.apply(.nextSlide, at: 0)
        XCTAssertEqual(s.page, 4, "Shift+next: the first page of the next slide")
        XCTAssertNil(s.nextSlidePreview)
        s.apply(.previous, at: 0)
        XCTAssertEqual(s.page, 1, "back from a slide's first page: the first page of the slide before (pdfpc)")
        s.apply(.next, at: 0)
        s.apply(.next, at: 0)
        s.apply(.previous, at: 0)
        XCTAssertEqual(s.page, 2, "within an overlay one step back")
        s.apply(.previousSlide, at: 0)
        XCTAssertEqual(s.page, 0, "Shift+previous: the first page of the previous slide")
        // A typed number is a slide number, as the counter shows.
        s.apply(.digit(3), at: 0)
        s.apply(.enter, at: 0)
        XCTAssertEqual(s.page, 4)
        s.apply(.digit(4), at: 0)
        s.apply(.enter, at: 0)
        XCTAssertEqual(s.page, 4, "there is no slide 4")
    }

    func testWithoutLabelsNavigationIsPageByPage() {
        var s = PresenterState(pageCount: 3)
        s.apply(.nextSlide, at: 0)
        XCTAssertEqual(s.page, 1)
        s.apply(.next, at: 0)
        s.apply(.previous, at: 0)
        XCTAssertEqual(s.page, 1)
        XCTAssertEqual(s.nextSlidePreview, 2)
    }

    func testShiftAndTabKeys() {
        func key(_ keysym: String, shift: Bool = false, overview: Bool = false) -> PresenterAction? {
            PresenterKeys.action(keysym: keysym, text: "", shift: shift, overview: overview)
        }
        XCTAssertEqual(key("Next", shift: true), .nextSlide)
        XCTAssertEqual(key("Right", shift: true), .nextSlide)
        XCTAssertEqual(key("Prior", shift: true), .previousSlide)
        XCTAssertEqual(key("Left", shift: true), .previousSlide)
        XCTAssertEqual(key("Tab"), .toggleOverview)
        XCTAssertEqual(key("Escape"), .quit)
        XCTAssertEqual(key("Escape", overview: true), .toggleOverview, "Escape leaves the overview, not the talk")
        XCTAssertEqual(key("Up", overview: true), .rowUp)
        XCTAssertEqual(key("Down", overview: true), .rowDown)
        XCTAssertEqual(key("Up"), .previous)
    }

    // MARK: overview

    func testOverviewMovesASelectionAndReturnJumps() {
        var s = PresenterState(slides: Slides(labels: ["1", "2", "2", "3", "4", "5", "6", "7"]))
        s.overviewColumns = 3
        s.apply(.next, at: 0)
        XCTAssertEqual(s.apply(.toggleOverview, at: 0), .changed)
        XCTAssertEqual(s.overviewSelection, 1, "the grid opens on the current slide")
        s.apply(.next, at: 0)
        s.apply(.rowDown, at: 0)
        XCTAssertEqual(s.overviewSelection, 5)
        XCTAssertEqual(s.apply(.rowDown, at: 0), .unchanged, "no row below")
        s.apply(.rowUp, at: 0)
        s.apply(.previous, at: 0)
        XCTAssertEqual(s.overviewSelection, 1)
        XCTAssertEqual(s.audience, .page(1), "the audience does not follow the selection")
        s.apply(.toggleBlack, at: 0)
        XCTAssertEqual(s.audience, .black, "b still blanks the room in the overview")
        s.apply(.toggleBlack, at: 0)
        XCTAssertEqual(s.apply(.quit, at: 0), .changed, "q asks first, in the overview too")
        XCTAssertTrue(s.isAskingToQuit(at: 1))
        XCTAssertEqual(s.overviewSelection, 1)
        s.apply(.enter, at: 0)
        XCTAssertNil(s.overviewSelection)
        XCTAssertEqual(s.page, 2, "Return shows the chosen slide fully built (its last step), as in pdfpc")
        s.apply(.toggleOverview, at: 0)
        s.apply(.last, at: 0)
        s.apply(.toggleOverview, at: 0)
        XCTAssertNil(s.overviewSelection)
        XCTAssertEqual(s.page, 2, "leaving with Tab or Escape goes nowhere")
    }

    func testOverviewGridFitsTheConsole() {
        let layout = ConsoleLayout(width: 1280, height: 720)
        for count in [1, 5, 12, 40, 300] {
            let grid = layout.overview(count: count, aspect: 16.0 / 9, selected: count - 1)
            XCTAssertTrue(grid.cells.contains { $0.slide == count - 1 }, "\(count): the selection is on screen")
            for cell in grid.cells {
                let r = cell.rect
                XCTAssertGreaterThanOrEqual(r.y, layout.bar.height, "\(count)")
                XCTAssertLessThanOrEqual(r.y + r.height, layout.footer.y, "\(count)")
                XCTAssertGreaterThanOrEqual(r.x, 0)
                XCTAssertLessThanOrEqual(r.x + r.width, 1280)
            }
            for (a, b) in zip(grid.cells, grid.cells.dropFirst()) where a.rect.y == b.rect.y {
                XCTAssertLessThan(a.rect.x + a.rect.width, b.rect.x, "\(count): thumbnails do not overlap")
            }
            XCTAssertGreaterThanOrEqual(grid.thumbnail.width, 96, "\(count): readable thumbnails")
        }
        XCTAssertEqual(layout.overview(count: 5, aspect: 16.0 / 9, selected: 0).cells.count, 5)
    }

    // MARK: time

    func testClockTimeAndEndTimeCountdown() throws {
        XCTAssertEqual(ClockTime(parsing: "9:05")?.description, "09:05")
        for bad in ["24:00", "12:60", "12", "12:5", "ab:cd", "-1:30", "12:30:00"] {
            XCTAssertNil(ClockTime(parsing: bad), bad)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = try XCTUnwrap(
            calendar.date(from: DateComponents(year: 2024, month: 5, day: 1, hour: 14, minute: 10, second: 30)))
        let end = try XCTUnwrap(ClockTime(parsing: "14:30"))
        XCTAssertEqual(end.nextOccurrence(after: now, calendar: calendar).timeIntervalSince(now), 19 * 60 + 30)
        let pastMidnight = try XCTUnwrap(ClockTime(parsing: "00:30"))
        XCTAssertEqual(
            pastMidnight.nextOccurrence(after: now, calendar: calendar).timeIntervalSince(now),
            (10 * 60 + 19) * 60 + 30,
            "an end time earlier in the day is tomorrow's")
        XCTAssertEqual(
            ClockTime(parsing: "14:10")!.nextOccurrence(after: now, calendar: calendar).timeIntervalSince(now), -30,
            "the minute under way is now, not tomorrow")

        let timing = TalkTiming(target: .endTime(end, at: now.addingTimeInterval(600)), lastMinutes: 3)
        XCTAssertEqual(timing.countdown(elapsed: 0, now: now)?.remaining, 600)
        XCTAssertEqual(timing.countdown(elapsed: 999, now: now)?.phase, .normal, "an end time ignores the elapsed time")
        XCTAssertEqual(
            timing.countdown(elapsed: 0, now: now.addingTimeInterval(421))?.phase, .amber, "amber in the last 3 minutes"
        )
        XCTAssertEqual(timing.countdown(elapsed: 0, now: now.addingTimeInterval(419))?.phase, .normal)
        XCTAssertEqual(timing.countdown(elapsed: 0, now: now.addingTimeInterval(601))?.phase, .over)
        XCTAssertNil(TalkTiming(target: .none).countdown(elapsed: 5, now: now))

        // A start time: the one that passed within 12 hours, else the next.
        func start(_ text: String) -> Double {
            TalkTiming.startMoment(ClockTime(parsing: text)!, now: now, calendar: calendar).timeIntervalSince(now)
        }
        XCTAssertEqual(start("14:00"), -(10 * 60 + 30), "begun ten minutes ago: counted from then")
        XCTAssertEqual(start("14:30"), 19 * 60 + 30)
        XCTAssertEqual(start("03:00"), -(11 * 3600 + 10 * 60 + 30), "11 hours ago")
        XCTAssertEqual(start("02:00"), (11 * 3600 + 49 * 60 + 30), "more than 12 hours ago: tomorrow's")
    }

    /// With a start time coming, page changes do not start the timer (the
    /// speaker may rehearse the first slides); F5, Shift+F5 or t do.
    func testTimerWaitsForItsStartTime() throws {
        var s = PresenterState(pageCount: 5)
        s.timerWaitsForStart = true
        s.apply(.next, at: 10)
        XCTAssertEqual(s.page, 1)
        XCTAssertFalse(s.timer.hasStarted)
        s.apply(.toggleTimer, at: 20)
        XCTAssertTrue(s.timer.isRunning)
        XCTAssertFalse(s.timerWaitsForStart)
        var t = TalkTimer()
        t.start(at: 100, alreadyElapsed: 90)
        XCTAssertEqual(t.elapsed(at: 110), 100, "a start time that passed counts from it")
        let file = try parse(#"{"startTime":"09:15"}"#, labels: ["1"])
        XCTAssertEqual(file.startTime, ClockTime(parsing: "09:15"))
        XCTAssertEqual(file.unused, [])
        XCTAssertEqual(error(#"{"startTime":"9h"}"#)?.contains("startTime '9h' is not a time HH:MM"), true)
    }

    func testTimingComesFromTheOptionsThenThePdfpcFile() throws {
        let now = Date()
        var pdfpc = PdfpcFile()
        pdfpc.duration = 30
        pdfpc.lastMinutes = 2
        var command = TalkOptions()
        var timing = TalkTiming(options: command, pdfpc: pdfpc, now: now)
        XCTAssertEqual(timing.target, .duration(1800))
        XCTAssertEqual(timing.amberFrom, 120)
        pdfpc.endTime = ClockTime(parsing: "23:59")
        timing = TalkTiming(options: command, pdfpc: pdfpc, now: now)
        guard case .endTime = timing.target else {
            return XCTFail("the file's end time wins over its duration: \(timing.target)")
        }
        command.durationMinutes = 10
        command.lastMinutes = 1
        timing = TalkTiming(options: command, pdfpc: pdfpc, now: now)
        XCTAssertEqual(timing.target, .duration(600), "the command line wins")
        XCTAssertEqual(timing.amberFrom, 60)
        XCTAssertEqual(
            TalkTiming(options: TalkOptions(), pdfpc: nil, now: now).amberFrom, 300,
            "five minutes by default")
    }

    // MARK: beamer notes

    func testBeamerNotesPagesAreRecognisedByTheirShape() {
        XCTAssertNotNil(NotesPosition.hint(pageWidth: 320, pageHeight: 90), "32:9: two 16:9 side by side")
        XCTAssertNotNil(
            NotesPosition.hint(pageWidth: 256, pageHeight: 96), "8:3: two 4:3 side by side (beamer's default size)")
        XCTAssertEqual(
            NotesPosition.hint(pageWidth: 160, pageHeight: 180)?.contains("--notes-position bottom"), true,
            "16:18 stacked")
        XCTAssertNil(NotesPosition.hint(pageWidth: 960, pageHeight: 540), "a plain 16:9 slide")
        XCTAssertNil(NotesPosition.hint(pageWidth: 595, pageHeight: 842), "A4 portrait")
        XCTAssertEqual(NotesPosition.right.slideRegion, .leftHalf)
        XCTAssertEqual(NotesPosition.left.notesRegion, .leftHalf)
        XCTAssertEqual(NotesPosition.top.slideRegion, .bottomHalf)
        XCTAssertEqual(NotesPosition.bottom.notesRegion, .bottomHalf)
    }
}
