import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

extension PresenterTests {
    /// The console is full screen on the laptop's panel, as pdfpc's: its
    /// top bar and its footer reach every edge of that output (sway would
    /// draw a title bar and borders round a tiled window), run as
    /// docs/presenting.md says; `--windowed-console` keeps it a tiled window; a
    /// compositor that refuses full screen (here a sway rule) is named on
    /// stderr and in `--stats`.
    func testConsoleFillsTheMainScreenAndARefusalIsSaid() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1024, height: 768)])
        let e = env(rig, builtin: "HEADLESS-1")
        // Title bars, as a desktop's sway draws them: a tiled window cannot pass for full screen.
        _ = try rig.swaymsg("default_border", "normal")
        let p = try CLI.start(["present", deck.pdf, "--stats", "-"], environment: e)
        let said = p.waitForEvent { $0.event == "console-fullscreen" }
        XCTAssertEqual(said?.raw["ok"] as? Bool, true, p.stderr)
        XCTAssertEqual(said?.output, "HEADLESS-1")
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["width"] as? Int == 1280 && $0.raw["height"] as? Int == 720 }, p.stderr)
        let bar = RGB(hex: 0x262626), background = RGB(hex: 0x181818)
        var image = try rig.capture(output: "HEADLESS-1")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                image = (try? rig.capture(output: "HEADLESS-1")) ?? image
                return [image[0, 0], image[1279, 0], image[640, 2]].allSatisfy { $0.distance(to: bar) <= 3 }
                    && [image[0, 719], image[1279, 719]].allSatisfy { $0.distance(to: background) <= 3 }
            }, "corners: \(image[0, 0]) \(image[1279, 0]) \(image[0, 719]) \(image[1279, 719])")
        try endTalk(p, e)

        let windowed = try CLI.start(["present", deck.pdf, "--windowed-console", "--stats", "-"], environment: e)
        XCTAssertNotNil(windowed.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "console" })
        XCTAssertNil(
            windowed.waitForEvent(timeout: 2.5) { $0.event == "console-fullscreen" }, "windowed: not asked for")
        let tiled = try rig.capture(output: "HEADLESS-1")
        XCTAssertGreaterThan(tiled[640, 2].distance(to: bar), 3, "a tiled console has sway's title bar on top")
        windowed.terminate()
        XCTAssertEqual(windowed.wait(timeout: 5), 0, windowed.stderr)

        _ = try rig.swaymsg("for_window", "[title=\"^Presenter\"]", "fullscreen", "disable")
        let refused = try CLI.start(["present", deck.pdf, "--stats", "-"], environment: e)
        let answer = refused.waitForEvent { $0.event == "console-fullscreen" }
        XCTAssertEqual(answer?.raw["ok"] as? Bool, false, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("the compositor did not make it full screen on HEADLESS-1")
                && refused.stderr.contains("--windowed-console"), refused.stderr)
        refused.terminate()
        XCTAssertEqual(refused.wait(timeout: 5), 0, refused.stderr)
    }
}

extension PresenterTests {
    /// The GNOME path on sway (`--fullscreen-window`: no layer shell, as on
    /// mutter): the audience view is a full-screen window on the external
    /// output (pixels), the log says so without calling it impossible, and
    /// keys reach the presenter whichever window has the focus.
    func testWithoutLayerShellTheAudienceIsAWindowAndKeysStillWork() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", deck.pdf, "--fullscreen-window", "--stats", "-"], environment: e)
        let audience = p.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "audience" }
        XCTAssertEqual(audience?.output, "HEADLESS-2", p.stderr)
        XCTAssertTrue(p.stderr.contains("the audience view is a full-screen window on each external screen"), p.stderr)
        XCTAssertFalse(p.stderr.contains("cannot be shown"), p.stderr)
        let page = { (n: Int) in RGB(hex: SampleDeck.backgrounds[n - 1]) }
        XCTAssertTrue(waitForColor(page(1), on: "HEADLESS-2", capture: rig.capture(output:)), "page 1, full screen")

        _ = try rig.swaymsg("[app_id=\"screenplay-scene\"]", "focus")
        XCTAssertTrue(
            waitUntil(timeout: 5) { rig.focusedAppID() == "screenplay-scene" }, "the audience window has focus")
        try type(["-k", "Right"], e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["page"] as? String == "2" }, "a key on the audience window: \(p.stderr)")
        XCTAssertTrue(waitForColor(page(2), on: "HEADLESS-2", capture: rig.capture(output:)))

        _ = try rig.swaymsg("[app_id=\"^screenplay$\"]", "focus")
        XCTAssertTrue(waitUntil(timeout: 5) { rig.focusedAppID() == "screenplay" }, "the console has focus")
        try type(["-k", "Right"], e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["page"] as? String == "3" }, p.stderr)
        XCTAssertTrue(waitForColor(page(3), on: "HEADLESS-2", capture: rig.capture(output:)))
        try endTalk(p, e)
    }
}

extension PresenterTests {
    /// `--start-time` (pdfpc's startTime): one two minutes ago counts the
    /// talk from then; one two minutes ahead counts down to it on the
    /// console, and turning pages does not start the timer early.
    func testStartTimeStartsTheTimerByItself() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        func clock(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.dateFormat = "HH:mm"
            return formatter.string(from: date)
        }
        let started = Date().addingTimeInterval(-120)
        // The minute the start time names, as the presenter reads it.
        let minute = (started.timeIntervalSince1970 / 60).rounded(.down) * 60
        let begun = try CLI.start(
            ["present", deck.pdf, "--start-time", clock(started), "--talk-minutes", "20", "--stats", "-"],
            environment: e)
        XCTAssertTrue(waitForConsole(begun) { ($0.raw["remaining_s"] as? Int ?? 0) > 0 }, begun.stderr)
        let remaining = lastConsole(begun)?.raw["remaining_s"] as? Int ?? 0
        let expected = 1200 - (Date().timeIntervalSince1970 - minute)
        XCTAssertEqual(Double(remaining), expected, accuracy: 3, "counted from the start time's minute")
        XCTAssertEqual(lastConsole(begun)?.raw["timer_running"] as? String, "true")
        try endTalk(begun, e)

        let coming = try CLI.start(
            ["present", deck.pdf, "--start-time", clock(Date().addingTimeInterval(120)), "--stats", "-"], environment: e
        )
        XCTAssertTrue(waitForConsole(coming) { $0.raw["starts_in_s"] != nil }, coming.stderr)
        let startsIn = Int(lastConsole(coming)?.raw["starts_in_s"] as? String ?? "") ?? 0
        XCTAssertTrue((60...121).contains(startsIn), "\(startsIn)")
        try type(["-k", "Right"], e)
        XCTAssertTrue(waitForConsole(coming) { $0.raw["page"] as? String == "2" }, coming.stderr)
        XCTAssertEqual(lastConsole(coming)?.raw["timer_running"] as? String, "false", "a page change is no start")
        XCTAssertNotNil(lastConsole(coming)?.raw["starts_in_s"])
        try endTalk(coming, e)
    }
}

extension PresenterTests {
    /// `e` edits the current slide's notes on the console; Escape saves
    /// them into talk.pdfpc beside the PDF (pdfpc's format), the console
    /// shows them, and the next talk reads them back.
    func testNotesEditedOnTheConsoleAreSavedForTheNextTalk() throws {
        let pdf = try writeDeck("edited", colors: Array(Self.pageColors.prefix(3)))
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["page"] as? String == "1" }, p.stderr)
        try type(["-k", "Right", "e"], e)
        XCTAssertNotNil(p.waitForEvent { $0.event == "notes-editor" && $0.raw["open"] as? Bool == true }, p.stderr)
        XCTAssertTrue(waitForConsole(p) { $0.raw["notes_view"] as? String == "editor" }, p.stderr)
        try type(["Say *why*", "-k", "Return", "then how", "-k", "Escape"], e)
        let saved = p.waitForEvent { $0.event == "notes-editor" && $0.raw["saved"] as? Bool == true }
        XCTAssertEqual(saved?.raw["path"] as? String, dir + "/edited.pdfpc", p.stderr)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["notes"] as? String == "Say *why*\nthen how" },
            "\(String(describing: lastConsole(p)?.raw))")
        XCTAssertEqual(lastConsole(p)?.raw["page"] as? String, "2", "typing moved no page")
        try endTalk(p, e)

        let again = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
        XCTAssertTrue(waitForConsole(again) { $0.raw["page"] as? String == "1" }, again.stderr)
        try type(["-k", "Right"], e)
        XCTAssertTrue(
            waitForConsole(again) { $0.raw["notes"] as? String == "Say *why*\nthen how" }, again.stderr)
        try endTalk(again, e)
    }
}
