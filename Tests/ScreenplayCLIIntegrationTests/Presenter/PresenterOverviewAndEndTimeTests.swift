import Documents
import Foundation
import TestSupport
import XCTest

/// The rest of a pdfpc user's talk: the overview of the slides on the
/// console, and the countdown to the end time.
extension PresenterTests {
    /// Tab shows the slides as a grid on the console while the audience
    /// keeps its slide; arrows choose, Return jumps, Escape and Tab leave.
    func testOverviewChoosesASlideWithoutShowingTheAudience() throws {
        let colors = Array(Self.pageColors.prefix(7))
        let pdf = try writeDeck("overview", colors: colors)
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
        let full = PixelRect(x: 0, y: 0, width: 1280, height: 720)
        XCTAssertTrue(waitForColor(RGB(hex: colors[0]), in: full, on: "HEADLESS-2", rig: rig, minimum: 0.99), p.stderr)
        waitForConsoleFocus(rig)

        try type(["-k", "Tab"], e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["overview"] as? String == "true" && $0.raw["thumbnails"] as? String == "7" },
            "the grid fills with thumbnails rendered in the background\n\(String(describing: lastConsole(p)?.raw))\n\(p.stderr)"
        )
        XCTAssertEqual(lastConsole(p)?.raw["selected"] as? String, "1", "the grid opens on the current slide")
        try type(["-k", "Right", "-k", "Right"], e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["selected"] as? String == "3" }, "\(String(describing: lastConsole(p)?.raw))")
        let selected = try XCTUnwrap(rect(lastConsole(p), "selected_rect"))
        XCTAssertTrue(
            waitForColor(RGB(hex: colors[2]), in: inner(selected), on: "HEADLESS-1", rig: rig),
            "the selected cell shows slide 3\n\(describe("HEADLESS-1", inner(selected), rig: rig))")
        let columns = (lastConsole(p)?.raw["columns"] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(columns, 1)
        try type(["-k", "Down"], e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["selected"] as? String == "\(min(7, 3 + columns))" },
            "Down moves a row of \(columns)")
        try type(["-k", "Up"], e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["selected"] as? String == "3" })
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertGreaterThan(
            try rig.capture(output: "HEADLESS-2").fraction(of: RGB(hex: colors[0]), tolerance: 4), 0.99,
            "the audience keeps slide 1 while the speaker chooses")
        XCTAssertEqual(lastConsole(p)?.raw["page"] as? String, "1")

        try type(["-k", "Return"], e)
        XCTAssertTrue(
            waitForColor(RGB(hex: colors[2]), in: full, on: "HEADLESS-2", rig: rig, minimum: 0.99),
            "Return jumps to slide 3")
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["overview"] as? String == "false" && $0.raw["page"] as? String == "3" })

        try type(["-k", "Tab"], e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["overview"] as? String == "true" })
        try type(["-k", "Left", "-k", "Escape"], e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["overview"] as? String == "false" }, "Escape leaves the grid")
        XCTAssertTrue(p.isRunning, "Escape in the grid does not end the talk")
        XCTAssertEqual(lastConsole(p)?.raw["page"] as? String, "3", "leaving goes nowhere")
        try type(["-k", "Tab"], e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["overview"] as? String == "true" })
        try type(["-k", "Tab"], e)
        XCTAssertTrue(waitForConsole(p) { $0.raw["overview"] as? String == "false" }, "Tab leaves the grid too")
        try endTalk(p, e)
    }

    /// `--end-time HH:MM` counts down to a time of day (the `console` line
    /// carries `remaining_s`), amber from `--last-minutes`; the same from
    /// the `.pdfpc` file's endTime.
    func testEndTimeCountsDownToATimeOfDay() throws {
        let pdf = try writeDeck("timed", colors: Array(Self.pageColors.prefix(2)))
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        let end = Date().addingTimeInterval(10 * 60)
        let endText = formatter.string(from: end)

        func remaining(_ p: RunningProcess) -> Int? { (lastConsole(p)?.raw["remaining_s"] as? NSNumber)?.intValue }
        let p = try CLI.start(["present", pdf, "--end-time", endText, "--stats", "-"], environment: e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["remaining_s"] != nil },
            "\(String(describing: lastConsole(p)?.raw))\n\(p.stderr)")
        // The end is the start of minute HH:MM, 9 to 10 minutes away.
        XCTAssertTrue((530...600).contains(remaining(p) ?? -1), "remaining_s \(String(describing: remaining(p)))")
        XCTAssertEqual(lastConsole(p)?.raw["countdown"] as? String, "normal", "amber only in the last 5 minutes")
        XCTAssertEqual(
            lastConsole(p)?.raw["timer_running"] as? String, "false", "the clock counts down before the talk starts")
        let first = remaining(p) ?? 0
        XCTAssertTrue(
            waitForConsole(p, timeout: 5) { (($0.raw["remaining_s"] as? NSNumber)?.intValue ?? first) < first },
            "the countdown moves by itself, once a second")
        assertCleanStop(p)

        let amber = try CLI.start(
            ["present", pdf, "--end-time", endText, "--last-minutes", "15", "--stats", "-"], environment: e)
        XCTAssertTrue(
            waitForConsole(amber) { $0.raw["countdown"] as? String == "amber" },
            "\(String(describing: lastConsole(amber)?.raw))")
        assertCleanStop(amber)

        try "{\"pdfpcFormat\":2,\"endTime\":\"\(endText)\",\"lastMinutes\":20}".write(
            toFile: dir + "/timed.pdfpc", atomically: true, encoding: .utf8)
        let fromFile = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
        XCTAssertTrue(
            waitForConsole(fromFile) { $0.raw["countdown"] as? String == "amber" },
            "endTime and lastMinutes from the .pdfpc file\n\(fromFile.stderr)")
        XCTAssertTrue(
            (530...600).contains(remaining(fromFile) ?? -1), "remaining_s \(String(describing: remaining(fromFile)))")
        assertCleanStop(fromFile)
    }
}
