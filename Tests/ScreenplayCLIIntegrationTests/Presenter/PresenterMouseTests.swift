import Documents
import Foundation
import TestHarness
import TestSupport
import VirtualPointer
import XCTest

extension PresenterPointerTests {
    /// A deck whose page 1 has a table-of-contents link (its top-left
    /// quarter) to page 4 by name, as beamer writes it, and page 4 a
    /// "back" link (its bottom band) to page 1 by number.
    func linkedDeck() throws -> String {
        let path = dir + "/linked.pdf"
        var pages = SampleDeck.backgrounds.prefix(5).enumerated().map { index, color in
            DeckPage(
                width: SampleDeck.pageSize.width, height: SampleDeck.pageSize.height,
                fills: [.init(.whole, color: color)], caption: "page \(index + 1)")
        }
        pages[0].links = [.init(PageRegion(x: 0, y: 0, width: 0.5, height: 0.5), to: .named("four"))]
        pages[3].destinations = ["four"]
        pages[3].links = [.init(PageRegion(x: 0, y: 0.8, width: 1, height: 0.2), to: .page(1))]
        try DeckWriter.write(pages, to: path)
        return path
    }

    /// Mouse navigation on the console, run as docs/presenting.md says: a left
    /// click goes on, a right click back, a click on an internal link goes
    /// to its page (by name forward, by number back), a scroll moves a
    /// page each way, and in the overview a click shows that slide.
    func testClicksScrollsAndLinksNavigate() throws {
        let rig = try startSway(Array(Self.outputs.prefix(2)), keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", try linkedDeck(), "--stats", "-"], environment: e)
        let consoleLine = p.waitForEvent { $0.event == "console" && $0.raw["current_rect"] != nil }
        let current = try XCTUnwrap(consoleLine?.raw["current_rect"] as? [Int], p.stderr)
        var window: PixelRect?
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                window = rig.windowRect(titled: "Presenter"); return window != nil
            })
        let w = try XCTUnwrap(window)
        let fit = slideFrame(width: current[2], height: current[3])
        let slide = (x: w.x + current[0] + fit.x, y: w.y + current[1] + fit.y, width: fit.width, height: fit.height)
        let layout = (width: UInt32(1280 + 1024), height: UInt32(768))
        var error = [CChar](repeating: 0, count: 256)
        guard let pointer = virtual_pointer_connect(rig.waylandDisplay, &error) else { return XCTFail("no pointer") }
        defer { virtual_pointer_disconnect(pointer) }
        Thread.sleep(forTimeInterval: 0.3)

        func move(x: Int, y: Int) {
            XCTAssertTrue(virtual_pointer_move(pointer, UInt32(x), UInt32(y), layout.width, layout.height))
        }
        func click(_ u: Double, _ v: Double, button: UInt32 = 0x110) {
            move(x: slide.x + Int(u * Double(slide.width)), y: slide.y + Int(v * Double(slide.height)))
            usleep(50_000)
            XCTAssertTrue(virtual_pointer_button(pointer, button, true))
            XCTAssertTrue(virtual_pointer_button(pointer, button, false))
        }
        func expectPage(_ page: Int, _ why: String) {
            func last() -> StatsEvent? { p.statsEvents.last { $0.event == "console" } }
            XCTAssertTrue(
                waitUntil(timeout: 5) {
                    last()?.raw["page"] as? String == "\(page)" && last()?.raw["overview"] as? String == "false"
                }, "\(why): \(String(describing: last()?.raw))")
        }
        click(0.75, 0.75)
        expectPage(2, "a left click goes on")
        click(0.75, 0.75, button: 0x111)
        expectPage(1, "a right click goes back")
        click(0.2, 0.2)
        expectPage(4, "the contents link goes to page 4 by its name")
        click(0.5, 0.9)
        expectPage(1, "page 4's back link goes to page 1 by its number")
        XCTAssertTrue(virtual_pointer_scroll(pointer, 15))
        expectPage(2, "a scroll down goes on")
        usleep(200_000)
        XCTAssertTrue(virtual_pointer_scroll(pointer, -15))
        expectPage(1, "a scroll up goes back")

        // The overview: a click on the slide right of the selected one shows it.
        try type(["-k", "Tab"], e)
        let grid = try XCTUnwrap(
            p.waitForEvent { $0.event == "console" && $0.raw["selected_rect"] != nil }?.raw["selected_rect"] as? [Int],
            p.stderr)
        move(x: w.x + grid[0] + grid[2] * 16 / 10, y: w.y + grid[1] + grid[3] / 2)
        usleep(50_000)
        XCTAssertTrue(virtual_pointer_button(pointer, 0x110, true))
        XCTAssertTrue(virtual_pointer_button(pointer, 0x110, false))
        expectPage(2, "a click in the overview shows that slide")
        let clicks = p.statsEvents.filter { $0.event == "click" }.compactMap { $0.raw["action"] as? String }
        XCTAssertEqual(clicks, ["next", "previous", "goToPage(3)", "goToPage(0)", "goToPage(1)"])
        assertCleanStop(p)
    }
}
