import Documents
import Foundation
import TestHarness
import TestSupport
import VirtualPointer
import XCTest

/// Drawing on slides on headless sway: a virtual pointer drags the pen, the
/// highlighter and the eraser over the console's current slide, and grim
/// reads the lines at the same slide points on two audience screens of
/// other sizes and shapes (one letterboxed) and on the console.
final class PresenterDrawingTests: ScreenplayTestCase {
    var dir = ""
    var deck = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "screenplay-drawing-\(getpid())-\(UUID().uuidString.prefix(8))"
        deck = try SampleDeck.write(to: dir).pdf
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let page1 = RGB(hex: SampleDeck.backgrounds[0])
    let page2 = RGB(hex: SampleDeck.backgrounds[1])
    let red = RGB(r: 255, g: 0, b: 0)

    func testPenHighlighterEraserAndClearingOnEveryScreen() throws {
        let rig = try startSway(Self.outputs, keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", deck, "--stats", "-"], environment: e)
        for output in Self.audiences.keys.sorted() {
            XCTAssertNotNil(
                p.waitForEvent {
                    $0.event == "drawn" && $0.output == output && $0.raw["content"] as? String == "page 1"
                }, "page 1 on \(output)\n\(p.stderr)")
        }
        let consoleLine = p.waitForEvent { $0.event == "console" && $0.raw["current_rect"] != nil }
        let current = try XCTUnwrap(consoleLine?.raw["current_rect"] as? [Int], p.stderr)
        var window: PixelRect?
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                window = rig.windowRect(titled: "Presenter")
                return (window?.width ?? 0) > 0
            }, "no console window in sway's tree")
        let w = try XCTUnwrap(window)
        let fit = slideFrame(width: current[2], height: current[3])
        let slide = (x: w.x + current[0] + fit.x, y: w.y + current[1] + fit.y, width: fit.width, height: fit.height)

        var error = [CChar](repeating: 0, count: 256)
        guard let pointer = virtual_pointer_connect(rig.waylandDisplay, &error) else {
            let bytes = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return XCTFail(String(decoding: bytes, as: UTF8.self))
        }
        defer { virtual_pointer_disconnect(pointer) }
        Thread.sleep(forTimeInterval: 0.3)

        /// The layout pixel of the console's slide point (`u`, `v`).
        func onConsole(_ u: Double, _ v: Double) -> (x: Int, y: Int) {
            (slide.x + Int(u * Double(slide.width)), slide.y + Int(v * Double(slide.height)))
        }
        /// Where that pixel's slide point lies on each audience screen, and
        /// on the console's output ("HEADLESS-1", its own pixels).
        func spots(_ u: Double, _ v: Double) -> [String: (x: Int, y: Int)] {
            let c = onConsole(u, v)
            let su = Double(c.x - slide.x) / Double(slide.width), sv = Double(c.y - slide.y) / Double(slide.height)
            var spots = Self.audiences.mapValues { size in
                let f = slideFrame(width: size.width, height: size.height)
                return (
                    Int((Double(f.x) + su * Double(f.width)).rounded(.down)),
                    Int((Double(f.y) + sv * Double(f.height)).rounded(.down))
                )
            }
            spots["HEADLESS-1"] = c
            return spots
        }
        func move(_ u: Double, _ v: Double) {
            let c = onConsole(u, v)
            XCTAssertTrue(
                virtual_pointer_move(pointer, UInt32(c.x), UInt32(c.y), Self.layout.width, Self.layout.height))
        }
        /// The newest drawing version an `ink` segment line reported.
        var inkVersion = 0
        /// Waits for the segment a motion made (none: an eraser that has
        /// not reached a line yet) and for both audience screens to draw it,
        /// so a loaded machine cannot fold a stroke into a frame or two.
        func waitForTheSegmentsFrames() {
            let seen = inkVersion
            var segment: StatsEvent?
            _ = waitUntil(timeout: 1) {
                segment = p.statsEvents.last {
                    $0.event == "ink" && $0.raw["phase"] as? String == "segment" && $0.int("version") > seen
                }
                return segment != nil
            }
            guard let segment else { return }
            inkVersion = segment.int("version")
            for output in Self.audiences.keys.sorted() {
                XCTAssertNotNil(
                    p.waitForEvent(timeout: 5) { [inkVersion] in
                        $0.event == "drawn" && $0.output == output && $0.int("ink_version") >= inkVersion
                    }, "\(output) draws the drawing's version \(inkVersion)")
            }
        }
        /// A press at the first point, a drag through the others in small
        /// steps, a release; `frameByFrame`: each step waits for its frames.
        func drag(_ points: [(Double, Double)], frameByFrame: Bool = false) {
            move(points[0].0, points[0].1)
            usleep(50_000)
            XCTAssertTrue(virtual_pointer_button(pointer, 0x110, true))
            if frameByFrame { waitForTheSegmentsFrames() }
            for (from, to) in zip(points, points.dropFirst()) {
                for step in 1...24 {
                    let t = Double(step) / 24
                    move(from.0 + t * (to.0 - from.0), from.1 + t * (to.1 - from.1))
                    if frameByFrame { waitForTheSegmentsFrames() } else { usleep(16000) }
                }
            }
            usleep(50_000)
            XCTAssertTrue(virtual_pointer_button(pointer, 0x110, false))
        }
        /// Waits for both audience screens to show page `n` rendered at
        /// their size (not another size scaled), after event `since`.
        func waitForExactPage(_ n: Int, since: Int) {
            for output in Self.audiences.keys.sorted() {
                XCTAssertTrue(
                    waitUntil(timeout: 10) {
                        p.statsEvents.dropFirst(since).contains {
                            $0.event == "drawn" && $0.output == output && $0.raw["content"] as? String == "page \(n)"
                        }
                    }, "\(output) shows page \(n) at its size")
            }
        }
        /// The cursor off the slide (sway draws it into the console's capture).
        func park() {
            XCTAssertTrue(
                virtual_pointer_move(
                    pointer, UInt32(w.x + w.width - 20), UInt32(w.y + w.height / 2), Self.layout.width,
                    Self.layout.height))
        }
        func expect(_ where_: [String: (x: Int, y: Int)], _ color: RGB, _ why: String) {
            for (output, spot) in where_.sorted(by: { $0.key < $1.key }) {
                XCTAssertTrue(
                    waitForPixel(rig, output, spot, color),
                    "\(why) on \(output) at \(spot): \(pixel(rig, output, spot)), expected \(color)")
            }
        }
        func consolePage() -> String? {
            p.statsEvents.last { $0.event == "console" }?.raw["page"] as? String
        }

        // The top band of the slide is its background (the title is below).
        let horizontal = spots(0.4, 0.12), corner = spots(0.6, 0.2), dot = spots(0.85, 0.2)
        let highlight = spots(0.3, 0.05)
        for spot in [horizontal, corner, dot, highlight] { expect(spot, page1, "the slide before drawing") }

        try type(["d"], e)
        XCTAssertNotNil(p.waitForEvent(timeout: 5) { $0.event == "pointer" && $0.raw["mode"] as? String == "pen" })
        let beforeStroke = p.statsEvents.count
        drag([(0.15, 0.12), (0.6, 0.12), (0.6, 0.22)], frameByFrame: true)
        park()
        XCTAssertNotNil(p.waitForEvent(timeout: 5) { $0.event == "ink" && $0.raw["phase"] as? String == "ended" })
        expect(horizontal, red, "the pen's line")
        expect(corner, red, "the pen's line round the corner")
        XCTAssertEqual(consolePage(), "1", "a drag in pen mode draws and does not go on")
        XCTAssertFalse(p.statsEvents.contains { $0.event == "click" }, "no press became a click")

        // Redrawn only where the line grew: each motion asks every screen
        // to repaint the box of its new segment (half the line's width and
        // a pixel around it), and the frames repaint that box. A buffer
        // that has not been drawn since the last whole-screen frame (the
        // page's) has nothing to keep and is repainted whole, once per
        // buffer: Mesa's swap chain holds at most 4.
        try assertRepaintedOnlyWhereTheLineGrew(p, since: beforeStroke, along: horizontal)

        // A click without motion leaves a dot and stays on the page.
        move(0.85, 0.2)
        usleep(50_000)
        XCTAssertTrue(virtual_pointer_button(pointer, 0x110, true))
        XCTAssertTrue(virtual_pointer_button(pointer, 0x110, false))
        park()
        var dotAudience = dot
        dotAudience["HEADLESS-1"] = nil
        expect(dotAudience, red, "a click in pen mode: a dot")
        XCTAssertEqual(consolePage(), "1", "a click in pen mode does not go on")

        // The pointer dot redraws whole screens as it moves: the drawing is
        // rasterized once for them, then its kept picture is drawn.
        try type(["l"], e)
        XCTAssertNotNil(p.waitForEvent(timeout: 5) { $0.event == "pointer" && $0.raw["mode"] as? String == "pointer" })
        let beforePointer = p.statsEvents.count
        // Each position waited for on both screens: a frame each, however
        // loaded the machine.
        for i in 0..<6 {
            let u = 0.3 + 0.05 * Double(i)
            move(u, 0.5)
            for (output, spot) in spots(u, 0.5) where output != "HEADLESS-1" {
                XCTAssertNotNil(
                    p.waitForEvent(timeout: 10) {
                        $0.event == "drawn" && $0.output == output
                            && $0.raw["pointer"] as? String == "pointer \(spot.x),\(spot.y)"
                    }, "\(output) draws the dot at \(spot)")
            }
        }
        park()
        for output in Self.audiences.keys.sorted() {
            let rasterized = p.statsEvents.dropFirst(beforePointer).filter {
                $0.event == "drawn" && $0.output == output && $0.raw["pointer"] != nil
            }.compactMap { $0.raw["ink_rasterized_px"] as? Int }
            XCTAssertGreaterThanOrEqual(rasterized.count, 6, "\(output) drew the moving dot over the drawing")
            XCTAssertEqual(
                Set(rasterized).count, 1, "\(output): the dot's frames rasterized the drawing again: \(rasterized)")
        }
        try type(["d"], e)
        XCTAssertNotNil(p.waitForEvent(timeout: 5) { $0.event == "pointer" && $0.raw["mode"] as? String == "pen" })

        // Frozen, the room keeps its picture while the console shows a new
        // line; `f` again shows the room the slide with it.
        let whileFrozen = spots(0.3, 0.2)
        expect(whileFrozen, page1, "the slide before the frozen line")
        try type(["f"], e)
        XCTAssertNotNil(p.waitForEvent(timeout: 5) { $0.event == "state" && $0.raw["frozen"] as? Bool == true })
        drag([(0.25, 0.2), (0.4, 0.2)])
        park()
        expect(["HEADLESS-1": whileFrozen["HEADLESS-1"]!], red, "the console shows the line drawn while frozen")
        Thread.sleep(forTimeInterval: 0.3)
        for output in Self.audiences.keys.sorted() {
            let spot = whileFrozen[output]!
            let seen = try rig.capture(output: output).pixel(x: spot.x, y: spot.y)
            XCTAssertTrue(close(seen, page1), "frozen: \(output) does not show the new line (\(seen))")
        }
        try type(["f"], e)
        expect(whileFrozen, red, "unfrozen: the room sees the line")

        // The next slide has none of it; back, the line is there.
        try type(["-k", "Right"], e)
        expect(horizontal, page2, "page 2 without the line")
        let beforeBack = p.statsEvents.count
        try type(["-k", "Left"], e)
        waitForExactPage(1, since: beforeBack)
        expect(horizontal, red, "back on page 1: its line kept")
        expect(corner, red, "back on page 1: the corner kept")

        // The eraser over the horizontal part: the slide again there, the
        // corner (beyond the eraser's reach) stays.
        try type(["x"], e)
        XCTAssertNotNil(p.waitForEvent(timeout: 5) { $0.event == "pointer" && $0.raw["mode"] as? String == "eraser" })
        let beforeEraser = p.statsEvents.count
        drag([(0.1, 0.12), (0.55, 0.12)], frameByFrame: true)
        park()
        expect(horizontal, page1, "erased")
        try assertRepaintedOnlyWhereTheLineGrew(p, since: beforeEraser, along: horizontal)
        expect(corner, red, "not erased")

        // The highlighter: translucent yellow over the slide.
        try type(["m"], e)
        XCTAssertNotNil(
            p.waitForEvent(timeout: 5) { $0.event == "pointer" && $0.raw["mode"] as? String == "highlighter" })
        drag([(0.1, 0.05), (0.45, 0.05)])
        park()
        expect(highlight, highlighted(page1), "the highlighter")

        // c: this slide's drawing goes.
        try type(["c"], e)
        XCTAssertNotNil(
            p.waitForEvent(timeout: 5) { $0.event == "ink-cleared" && $0.raw["action"] as? String == "clearDrawing" })
        expect(corner, page1, "c cleared the pen's line")
        expect(highlight, page1, "c cleared the highlight")
        expect(dotAudience, page1, "c cleared the dot")

        // Shift+c: every slide's. A line on page 2 and one on page 1 first.
        try type(["d"], e)
        try type(["-k", "Right"], e)
        expect(horizontal, page2, "page 2")
        drag([(0.15, 0.12), (0.6, 0.12)])
        park()
        expect(horizontal, red, "a line on page 2")
        try type(["-k", "Left"], e)
        expect(horizontal, page1, "page 1, cleared before")
        drag([(0.15, 0.12), (0.6, 0.12)])
        park()
        expect(horizontal, red, "a new line on page 1")
        try type(["-M", "shift", "c", "-m", "shift"], e)
        XCTAssertNotNil(
            p.waitForEvent(timeout: 5) {
                $0.event == "ink-cleared" && $0.raw["action"] as? String == "clearAllDrawings"
            }, "\(p.statsEvents.filter { $0.event == "key" }.suffix(3).map(\.raw))")
        expect(horizontal, page1, "Shift+c cleared page 1")
        try type(["-k", "Right"], e)
        expect(horizontal, page2, "Shift+c cleared page 2")
        assertCleanStop(p)
    }
}
