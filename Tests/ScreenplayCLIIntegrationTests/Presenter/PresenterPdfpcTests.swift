import Documents
import Foundation
import TestSupport
import XCTest

/// A pdfpc user's talk on headless sway: the `.pdfpc` notes file, beamer
/// notes pages, overlays, the overview and the end time. Decks are written
/// here with cairo (page labels included), `.pdfpc` files by hand; both
/// screens are checked by grim pixels at the places the console's `--stats`
/// lines say it drew each view.
extension PresenterTests {
    /// Colours far apart, one per page.
    static let pageColors: [UInt32] = [0x1f4e9c, 0x2e8b57, 0xc0392b, 0x8e44ad, 0xd4a017, 0x16a085, 0xe67e22]

    /// A deck of solid pages, 16:9, one colour each, with optional labels.
    func writeDeck(_ name: String, colors: [UInt32], labels: [String?]? = nil) throws -> String {
        let path = dir + "/\(name).pdf"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let pages = colors.enumerated().map { i, color in
            DeckPage(width: 960, height: 540, label: labels?[i], fills: [.init(.whole, color: color)])
        }
        try DeckWriter.write(pages, to: path)
        return path
    }

    func rect(_ event: StatsEvent?, _ key: String) -> PixelRect? {
        guard let values = event?.raw[key] as? [Any], values.count == 4 else { return nil }
        let n = values.compactMap { ($0 as? NSNumber)?.intValue }
        guard n.count == 4 else { return nil }
        return PixelRect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    /// The middle of `r`: away from edges a scaled picture blends.
    func inner(_ r: PixelRect) -> PixelRect {
        PixelRect(x: r.x + r.width / 8, y: r.y + r.height / 8, width: r.width * 3 / 4, height: r.height * 3 / 4)
    }

    /// Waits until `rect` of `output` is mostly `color`.
    func waitForColor(_ color: RGB, in rect: PixelRect, on output: String, rig: SwayRig, minimum: Double = 0.95) -> Bool
    {
        waitUntil(timeout: 5, poll: 0.05) {
            ((try? rig.capture(output: output))?.fraction(of: color, tolerance: 4, in: rect) ?? 0) >= minimum
        }
    }

    func describe(_ output: String, _ rect: PixelRect?, rig: SwayRig) -> String {
        guard let rect, let image = try? rig.capture(output: output) else { return "no capture" }
        return "\(output) \(rect): most common \(image.mostCommonColor(in: rect).map { "\($0)" } ?? "none")"
    }

    /// Waits until the console window (app_id `screenplay`) has keyboard
    /// focus, so the first key typed reaches it.
    func waitForConsoleFocus(_ rig: SwayRig) {
        XCTAssertTrue(
            waitUntil(timeout: 5) { rig.focusedAppID() == "screenplay" }, "the console never got keyboard focus")
    }

    /// `talk.pdfpc` beside `talk.pdf` gives notes and settings; our
    /// `talk.notes.md` wins on the pages it has; a malformed file is exit 65
    /// naming the file and the problem.
    func testPdfpcNotesFileIsUsedAndOurNotesWin() throws {
        let pdf = try writeDeck("talk", colors: Array(Self.pageColors.prefix(3)))
        // pdfpc keys notes by index, label and overlay; lastMinutes 600 puts
        // a 20-minute talk in the amber phase from the start.
        let pdfpc = """
            {"pdfpcFormat":2,"duration":20,"lastMinutes":600,"disableMarkdown":false,
             "pages":[{"idx":0,"label":"1","overlay":0,"note":"From pdfpc: welcome"},
                      {"idx":1,"label":"2","overlay":0,"note":"From pdfpc: overridden"},
                      {"idx":2,"label":"3","overlay":0,"note":"From pdfpc: the end"}]}
            """
        try pdfpc.write(toFile: dir + "/talk.pdfpc", atomically: true, encoding: .utf8)
        try "## 2\nFrom notes.md: ours\n".write(toFile: dir + "/talk.notes.md", atomically: true, encoding: .utf8)

        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["notes"] as? String == "From pdfpc: welcome" },
            "\(String(describing: lastConsole(p)?.raw))\n\(p.stderr)")
        XCTAssertEqual(
            lastConsole(p)?.raw["countdown"] as? String, "amber", "duration and lastMinutes from the .pdfpc file")
        XCTAssertEqual((lastConsole(p)?.raw["remaining_s"] as? NSNumber)?.intValue, 1200, "20 minutes, not started yet")
        // stderr is read on its own: wait for the line rather than race it.
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                p.stderr.contains("talk.pdfpc: notes for 3 pages, duration 20 min, last minutes 600")
            },
            p.stderr)
        XCTAssertFalse(p.stderr.contains("not used here"), "disableMarkdown is read now: \(p.stderr)")
        waitForConsoleFocus(rig)
        try type(["-k", "Right"], e)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["page"] as? String == "2" },
            "\(String(describing: lastConsole(p)?.raw))\n\(p.stderr)")
        XCTAssertEqual(
            lastConsole(p)?.raw["notes"] as? String, "From notes.md: ours", "talk.notes.md wins where both have notes")
        try type(["-k", "Right"], e)
        XCTAssertTrue(
            waitForConsole(p) {
                $0.raw["page"] as? String == "3" && $0.raw["notes"] as? String == "From pdfpc: the end"
            },
            "\(String(describing: lastConsole(p)?.raw))")
        try endTalk(p, e)

        try "{\"duration\": 20,\n \"pages\": [{\"idx\": 0, \"note\": 7}]}".write(
            toFile: dir + "/talk.pdfpc", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["present", pdf], environment: e)
        XCTAssertEqual(bad.status, 65, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("talk.pdfpc: pages[0].note: expected a string, found 7"), bad.stderr)
        try "{\"duration\": 20,\n \"pages\": [}".write(toFile: dir + "/talk.pdfpc", atomically: true, encoding: .utf8)
        let broken = try CLI.run(["present", pdf], environment: e)
        XCTAssertEqual(broken.status, 65, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("talk.pdfpc: not valid JSON at line 2"), broken.stderr)
    }

    /// Beamer pages with notes (`show notes on second screen`), each of the
    /// four sides: the audience screen shows only the slide half, the
    /// console's current view the slide half and its notes view the notes
    /// half. Without the option such a page shape gets a hint.
    func testBeamerNotesPagesSplitForEachPosition() throws {
        let slide: UInt32 = 0x1f4e9c, notes: UInt32 = 0xd4a017
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        for position in ["right", "left", "top", "bottom"] {
            // Two 16:9 halves: side by side (32:9) or stacked (16:18).
            let wide = position == "right" || position == "left"
            let notesRegion: PageRegion = [
                "right": .rightHalf, "left": .leftHalf, "top": .topHalf, "bottom": .bottomHalf,
            ][position]!
            let slideRegion: PageRegion = [
                "right": .leftHalf, "left": .rightHalf, "top": .bottomHalf, "bottom": .topHalf,
            ][position]!
            let page = DeckPage(
                width: wide ? 1920 : 960, height: wide ? 540 : 1080,
                fills: [.init(slideRegion, color: slide), .init(notesRegion, color: notes)])
            let pdf = dir + "/beamer-\(position).pdf"
            try DeckWriter.write([page, page], to: pdf)

            if position == "right" {
                let hinted = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
                XCTAssertNotNil(
                    hinted.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "console" },
                    hinted.stderr)
                XCTAssertTrue(
                    hinted.stderr.contains("hint: beamer-right.pdf: pages are two 16:9 slides side by side")
                        && hinted.stderr.contains("--notes-position right"), hinted.stderr)
                assertCleanStop(hinted)
            }

            let p = try CLI.start(["present", pdf, "--notes-position", position, "--stats", "-"], environment: e)
            XCTAssertNotNil(
                p.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "audience" }, p.stderr)
            XCTAssertTrue(
                waitForColor(
                    RGB(hex: slide), in: PixelRect(x: 0, y: 0, width: 1280, height: 720), on: "HEADLESS-2", rig: rig,
                    minimum: 0.99),
                "\(position): the audience sees the slide half edge to edge\n\(describe("HEADLESS-2", PixelRect(x: 0, y: 0, width: 1280, height: 720), rig: rig))"
            )
            XCTAssertTrue(
                waitForConsole(p) { $0.raw["notes_view"] as? String == "page" },
                "\(position): \(String(describing: lastConsole(p)?.raw))")
            let console = lastConsole(p)
            guard let current = rect(console, "current_rect"), let notesRect = rect(console, "notes_rect") else {
                XCTFail("\(position): the console line names its views: \(String(describing: console?.raw))")
                assertCleanStop(p)
                continue
            }
            XCTAssertTrue(
                waitForColor(RGB(hex: slide), in: inner(current), on: "HEADLESS-1", rig: rig),
                "\(position): the console's current view shows the slide half\n\(describe("HEADLESS-1", inner(current), rig: rig))"
            )
            // The notes half keeps its 16:9 shape inside the notes view.
            let fit = fitRect(contentWidth: 16, contentHeight: 9, width: notesRect.width, height: notesRect.height)
            let shown = PixelRect(x: notesRect.x + fit.x, y: notesRect.y + fit.y, width: fit.width, height: fit.height)
            XCTAssertTrue(
                waitForColor(RGB(hex: notes), in: inner(shown), on: "HEADLESS-1", rig: rig),
                "\(position): the console's notes view shows the notes half\n\(describe("HEADLESS-1", inner(shown), rig: rig))"
            )
            let audience = try rig.capture(output: "HEADLESS-2")
            XCTAssertEqual(
                audience.fraction(of: RGB(hex: notes), tolerance: 8), 0, "\(position): no notes on the audience screen")
            try endTalk(p, e)
        }
    }

    /// Pages sharing a page label are overlays of one slide: the counter
    /// counts slides, "next" previews the next slide fully built, Shift with
    /// next and previous moves by slides.
    func testOverlaysCountAsOneSlide() throws {
        // Slide 2 has three steps (pages 2-4). The first page's label is one
        // plain numbering would not give: cairo 1.16 leaves such entries out,
        // page 0's too, and poppler reads a label tree without it shifted
        // (DocumentsTests/testPageLabelsAndRegionsOfAPage).
        let colors = Array(Self.pageColors.prefix(5))
        let pdf = try writeDeck("overlays", colors: colors, labels: ["Title", "2", "2", "2", "3"])
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
        let full = PixelRect(x: 0, y: 0, width: 1280, height: 720)
        func audienceShows(_ page: Int) -> Bool {
            waitForColor(RGB(hex: colors[page - 1]), in: full, on: "HEADLESS-2", rig: rig, minimum: 0.99)
        }
        XCTAssertTrue(audienceShows(1), p.stderr)
        XCTAssertTrue(
            waitForConsole(p) { $0.raw["slide"] as? String == "1" && $0.raw["slides"] as? String == "3" },
            "\(String(describing: lastConsole(p)?.raw))")
        XCTAssertTrue(waitUntil(timeout: 5) { p.stderr.contains("5 pages make 3 slides") }, p.stderr)
        waitForConsoleFocus(rig)
        let next = try XCTUnwrap(rect(lastConsole(p), "next_rect"))
        XCTAssertTrue(
            waitForColor(RGB(hex: colors[3]), in: inner(next), on: "HEADLESS-1", rig: rig),
            "next previews slide 2 fully built (page 4), not its first step\n\(describe("HEADLESS-1", inner(next), rig: rig))"
        )

        try type(["-k", "Right"], e)
        XCTAssertTrue(audienceShows(2), "Right: the first step of slide 2")
        XCTAssertTrue(waitForConsole(p) { $0.raw["page"] as? String == "2" && $0.raw["slide"] as? String == "2" })
        XCTAssertTrue(
            waitForColor(RGB(hex: colors[4]), in: inner(next), on: "HEADLESS-1", rig: rig),
            "inside an overlay, next previews slide 3\n\(describe("HEADLESS-1", inner(next), rig: rig))")
        try type(["-k", "Right"], e)
        XCTAssertTrue(audienceShows(3), "Right walks every step")
        XCTAssertTrue(waitForConsole(p) { $0.raw["page"] as? String == "3" && $0.raw["slide"] as? String == "2" })

        try type(["-M", "shift", "-k", "Right", "-m", "shift"], e)
        XCTAssertTrue(audienceShows(5), "Shift+Right: the first page of the next slide, past the rest of the overlay")
        XCTAssertTrue(waitForConsole(p) { $0.raw["slide"] as? String == "3" })
        try type(["-M", "shift", "-k", "Left", "-m", "shift"], e)
        XCTAssertTrue(audienceShows(2), "Shift+Left: the first page of the previous slide")
        try type(["-k", "Right"], e)
        try type(["-M", "shift", "-k", "Left", "-m", "shift"], e)
        XCTAssertTrue(audienceShows(1), "Shift+Left from inside an overlay: the previous slide")
        try endTalk(p, e)
    }
}
