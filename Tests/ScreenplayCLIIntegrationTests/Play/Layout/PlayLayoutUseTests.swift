import Foundation
import TestHarness
import TestSupport
import XCTest

/// Layouts as a user meets them: a schedule that brings a layout at its
/// second, `ctl status` naming each region's item, and docs/signage.md's
/// menu board played from the repository as the guide says.
extension PlayTests {
    func testAScheduleSwitchesFromAPlaylistToALayoutAtItsSecond() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let start = (Date().timeIntervalSince1970 + 6).rounded(.down)
        let clock = { (t: Double) in self.utcClock(t, format: "HH:mm:ss") }
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"day": [{"color": "ff0000"}]},
             "layouts": {"split": {"regions": [
                {"name": "left", "x": 0, "y": 0, "width": "50%", "height": "100%", "items": [{"color": "0000ff"}]},
                {"name": "right", "x": "50%", "y": 0, "width": "50%", "height": "100%", "items": [{"color": "00ff00"}]}]}},
             "panels": [{"match": "*", "playlist": "day",
                         "schedule": [{"layout": "split", "from": "\(clock(start))", "to": "\(clock(start + 3600))"}]}],
             "timezone": "UTC", "transition": {"seconds": 0.5}}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.raw["playlist"] as? String == "day" }, p.stderr)
        try assertScheduleSwitches(p, to: "split", at: start)
        // The whole panel crossfades into the layout, as into a playlist.
        let shown = try XCTUnwrap(
            p.waitForEvent {
                $0.event == "item" && $0.raw["playlist"] as? String == "split" && $0.raw["region"] == nil
            }, p.stderr)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(wallTime(shown)), start + 0.5, "the crossfade was skipped")
        for region in ["left", "right"] {
            XCTAssertNotNil(p.waitForEvent { $0.raw["region"] as? String == region }, "no proof of play for \(region)")
        }
        var image = try rig.capture(output: "HEADLESS-1")
        _ = waitUntil(timeout: 3) {
            image = (try? rig.capture(output: "HEADLESS-1")) ?? image
            return image.pixel(x: 80, y: 120) == RGB(hex: 0x0000ff) && image.pixel(x: 240, y: 120) == RGB(hex: 0x00ff00)
        }
        XCTAssertEqual(image.pixel(x: 80, y: 120), RGB(hex: 0x0000ff), "region left")
        XCTAssertEqual(image.pixel(x: 240, y: 120), RGB(hex: 0x00ff00), "region right")

        // ctl status: each region's item, as the panel's.
        let result = try CLI.run(["ctl", "status", "--json"], environment: env(rig))
        let reply = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let panel = try XCTUnwrap((reply["panels"] as? [[String: Any]])?.first, result.stdout)
        let regions = try XCTUnwrap(panel["regions"] as? [[String: Any]], result.stdout)
        XCTAssertEqual(regions.map { $0["name"] as? String }, ["left", "right"])
        XCTAssertEqual(regions.map { $0["item"] as? String }, ["#0000FF", "#00FF00"])
        let text = try CLI.run(["ctl", "status"], environment: env(rig)).stdout
        XCTAssertTrue(text.contains("\n  region left: split.left 1/1 #0000FF, "), text)
        XCTAssertTrue(text.contains(" s left"), text)
        assertCleanStop(p)
    }

    /// Static regions cost nothing: between one region's crossfades the
    /// panel draws no frame and `play` uses no CPU to speak of, however
    /// many regions stand still. The clock shows the day, so that its
    /// own redraw (tested in the clock's tests) falls in the measured
    /// window only at midnight: a minute's turn landed there once in 20
    /// and its draw, on a loaded machine, cost more ticks than the idle
    /// bound is about.
    func testStaticRegionsDrawNothingBetweenAnotherRegionsCrossfades() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 1280, height: 720)])
        let folder = try mediaFolder()
        try writePNG(folder + "/a.png", 0x336699, width: 640, height: 360)
        let playlist = try writePlaylist(
            folder,
            """
            {"layouts": {"m": {"regions": [
                {"name": "picture", "x": 0, "y": 0, "width": "50%", "height": "50%", "items": [{"file": "a.png"}]},
                {"name": "text", "x": "50%", "y": 0, "width": "50%", "height": "50%", "items": [{"text": "Menu"}]},
                {"name": "clock", "x": 0, "y": "50%", "width": "50%", "height": "50%", "items": [{"clock": "%A %d %B"}]},
                {"name": "fader", "x": "50%", "y": "50%", "width": "50%", "height": "50%", "transition": {"seconds": 0.5},
                 "items": [{"color": "ff0000", "duration": 8}, {"color": "0000ff", "duration": 8}]}]}},
             "default": "m"}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        let faded = { self.items(p, "HEADLESS-2").filter { $0.raw["region"] as? String == "fader" }.count }
        // Measure inside one slot of the fader, after its crossfade:
        // every frames line read covers a second from 0.2 s after the
        // fade's end to well before the next.
        XCTAssertTrue(waitUntil(timeout: 15) { faded() >= 1 }, p.stderr)
        let seen = faded()
        XCTAssertTrue(waitUntil(timeout: 12) { faded() > seen }, p.stderr)
        Thread.sleep(forTimeInterval: 1.2)
        let frames = { p.statsEvents.filter { $0.event == "frames" && $0.output == "HEADLESS-2" } }
        let counted = frames().count
        let before = ProcessUsage.cpuTicks(p.pid)
        Thread.sleep(forTimeInterval: 3)
        let used = ProcessUsage.cpuTicks(p.pid) - before
        // The display link stands still too: no frame callbacks while nothing moves.
        let status = try CLI.run(["ctl", "status", "--json"], environment: env(rig)).stdout
        let reply = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any] ?? [:]
        let panel = try XCTUnwrap(
            (reply["panels"] as? [[String: Any]])?.first { $0["output"] as? String == "HEADLESS-2" }, status)
        XCTAssertEqual(panel["display_link_running"] as? Bool, false, status)
        let lines = frames().dropFirst(counted)
        XCTAssertGreaterThanOrEqual(lines.count, 2, "frames lines in 3 s")
        let draws = lines.reduce(0) { $0 + $1.int("draws") }
        XCTAssertLessThanOrEqual(draws, 1, "static regions drew \(draws) frames between crossfades")
        // The one frame allowed is the clock's day turning at midnight
        // inside the window; a full draw on the software path is not
        // what this bound is about, so it gets a generous allowance.
        XCTAssertLessThanOrEqual(
            used, 2 + 8 * draws, "static regions used \(used) CPU ticks in 3 s, with \(draws) frames drawn")
        XCTAssertEqual(faded(), seen + 1, "the fader's slot is 8 s: no switch while measuring")
        assertCleanStop(p)
    }

    /// `screenplay play Examples/Signage/menu-board.json`, as docs/signage.md
    /// shows it (no test settings: every screen is the board's, the
    /// default): its four regions play and show where the file puts them.
    func testTheSignageGuidesMenuBoardPlaysItsRegions() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let file = checkoutRoot + "/Examples/Signage/menu-board.json"
        let p = try CLI.start(["play", file, "--stats", "-"], environment: env(rig))
        for region in ["main", "logo", "clock", "ticker"] {
            XCTAssertNotNil(
                p.waitForEvent { $0.event == "item" && $0.raw["region"] as? String == region },
                "no proof of play for region \(region): \(p.stderr)")
        }
        // A corner of each region: the dishes' text item (its picture is
        // not in the repository), the logo's cream, the clock's black and
        // the ticker's grey.
        let expected: [(x: Int, y: Int, hex: UInt32, what: String)] = [
            (4, 4, 0x5a3210, "main"), (484, 4, 0xfff4d6, "logo"), (484, 112, 0x000000, "clock"),
            (4, 320, 0x202020, "ticker"),
        ]
        var image = try rig.capture(output: "HEADLESS-1")
        _ = waitUntil(timeout: 5) {
            image = (try? rig.capture(output: "HEADLESS-1")) ?? image
            return expected.allSatisfy { image.pixel(x: $0.x, y: $0.y) == RGB(hex: $0.hex) }
        }
        for point in expected {
            XCTAssertEqual(image.pixel(x: point.x, y: point.y), RGB(hex: point.hex), "region \(point.what)")
        }
        XCTAssertTrue(p.stderr.contains("media/welcome.png: skipped"), p.stderr)
        assertCleanStop(p)
    }
}
