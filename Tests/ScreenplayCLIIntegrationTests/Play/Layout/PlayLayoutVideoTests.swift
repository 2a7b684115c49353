import Foundation
import TestHarness
import TestSupport
import XCTest

/// A video in one region of a layout beside a static region: the clip plays
/// its colours in order inside its rectangle, read back every frame, and the
/// region beside it keeps its colour on every one of those frames.
extension PlayVideoTests {
    func testAVideoPlaysInItsRegionBesideAStaticOne() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 480, height: 270)])
        _ = try TestMedia.colourSequence(in: media, name: "clip")
        let playlist = media + "/signage.json"
        try """
        {"layouts": {"m": {"regions": [
            {"name": "video", "x": 0, "y": 0, "width": "50%", "height": "100%",
             "items": [{"file": "clip.mp4"}, {"color": "ffffff", "duration": 1}]},
            {"name": "still", "x": "50%", "y": 0, "width": "50%", "height": "100%", "items": [{"color": "ff00ff"}]}]}},
         "default": "m"}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        let clips = {
            self.items(p, "HEADLESS-2").filter { $0.raw["region"] as? String == "video" && self.name($0) == "clip.mp4" }
        }
        XCTAssertTrue(waitUntil(timeout: 30) { clips().count >= 3 || !p.isRunning }, p.stderr)
        assertCleanStop(p)
        XCTAssertFalse(p.stderr.contains("skipped"), p.stderr)
        let probes = p.statsEvents.compactMap {
            $0.output == "HEADLESS-2" ? $0.raw["regions"] as? [String: String] : nil
        }
        XCTAssertGreaterThan(probes.count, 100, "frames read back")
        let white = (255, 255, 255)
        // The clip's own cuts (red to green to blue) may be decoded blended.
        let pairs = [
            (Self.clipColours[0], Self.clipColours[1]), (Self.clipColours[1], Self.clipColours[2]), (white, white),
        ]
        var clip = ""
        for regions in probes {
            let still = Self.rgb(regions["still"] ?? "")
            XCTAssertLessThanOrEqual(
                Self.distance(still, fromBlendOf: (255, 0, 255), (255, 0, 255)), 2, "still showed \(regions)")
            let c = Self.rgb(regions["video"] ?? "")
            let best = pairs.map { Self.distance(c, fromBlendOf: $0.0, $0.1) }.min() ?? 255
            XCTAssertLessThanOrEqual(best, 24, "video region showed \(regions["video"] ?? "nothing")")
            if Self.clipColours.map({ Self.distance(c, fromBlendOf: $0, $0) }).min()! <= 60 {
                let letter: Character = c.0 > 160 ? "R" : c.1 > 160 ? "G" : "B"
                if clip.last != letter { clip.append(letter) }
            } else if clip.last != "W" {
                clip.append("W")
            }
        }
        // The first pass may come on mid-slot (clock alignment): it is cut at its slot's end.
        let whole = clip.drop { $0 != "W" }
        XCTAssertTrue(whole.contains("WRGBW"), "the clip's colours in order, between white items: \(clip)")
        for wrong in ["RB", "GR", "BG", "WG", "WB"] {
            XCTAssertFalse(clip.contains(wrong), "out of order (\(wrong)) in \(clip)")
        }
    }
}
