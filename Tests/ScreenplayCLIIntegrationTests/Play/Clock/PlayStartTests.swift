import Foundation
import TestHarness
import TestSupport
import XCTest

extension PlayTests {
    /// The first item a panel shows at start is the one the clock names when
    /// its frame reaches the screen. The item is chosen when the panel's
    /// scene connects and drawn once GL is up; chosen near the end of its
    /// slot, it used to reach the screen in the next item's slot (proof of
    /// play naming the wrong item). Short slots and several starts make that
    /// moment likely: before the fix 9 of 20 starts showed it.
    func testFirstItemAtStartIsTheClocksItemWhenItReachesTheScreen() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"s": [{"color": "ff0000"}, {"color": "00ff00"}, {"color": "0000ff"}, {"color": "ffff00"}]},
             "default": "s"}
            """)
        var checked = 0
        for start in 1...6 {
            let p = try CLI.start(
                ["play", playlist, "--duration", "0.3", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
            XCTAssertTrue(waitUntil(timeout: 15) { self.items(p, "HEADLESS-2").count >= 3 }, p.stderr)
            assertCleanStop(p)
            for item in items(p, "HEADLESS-2") {
                let at = item.raw["at"] as? String ?? ""
                guard let clock = clockIndex(at, count: 4, seconds: 0.3) else { return XCTFail("bad at: \(item.raw)") }
                XCTAssertEqual(
                    item.int("index"), clock,
                    "start \(start): item \(item.int("index")) shown at \(at), the clock said \(clock)")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 18)
    }
}
