import Foundation
import TestHarness
import TestSupport
import XCTest

/// Layouts as a user meets them: a schedule that brings a layout at its
/// second, `ctl status` naming each region's item, and the README's menu
/// board played from the repository as the README says.
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

    /// `screenplay play Examples/Signage/menu-board.json`, as the README
    /// shows it (no test settings: every screen is the board's, the
    /// default): its four regions play and show where the file puts them.
    func testTheReadmesMenuBoardPlaysItsRegions() throws {
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
