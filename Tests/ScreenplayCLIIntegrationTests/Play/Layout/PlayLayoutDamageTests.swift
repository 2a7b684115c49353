import Foundation
import TestHarness
import TestSupport
import XCTest

extension PlayTests {
    /// A layout whose only moving part is a ticker band over a full-panel
    /// photo repaints that band alone each refresh (`redrawn_px` per draw is
    /// the band's area; the photo under it is drawn for the band's part
    /// only), while the rest of the photo keeps its pixels (grim); on a turned panel,
    /// drawn through a turned layer, every repaint is the whole panel.
    func testOnlyTheMovingRegionIsRepainted() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 640, height: 360), .init(width: 640, height: 360),
        ])
        let playlist = try writeTickerOverPhoto(
            panels: #"{"match": "HEADLESS-2", "layout": "m"}, {"match": "HEADLESS-3", "layout": "m", "rotate": 180}"#)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        func windows(_ output: String) -> [StatsEvent] {
            p.statsEvents.filter { $0.event == "frames" && $0.output == output && $0.int("draws") > 0 }
        }
        XCTAssertTrue(
            waitUntil(timeout: 15) { windows("HEADLESS-2").count >= 4 && windows("HEADLESS-3").count >= 4 },
            p.stderr)
        // After the first second (the layout's first, whole frame): the band
        // each draw, and the photo region once more when its one item's slot
        // comes round again on the wall clock (a repaint of the same
        // picture, at most once a window). That frame repaints the whole
        // panel in place of the band when the band moves in it too (the
        // scissor is one rectangle: panel - band more than a band frame),
        // or on top of the band frames when it comes alone (panel more).
        let band = 640 * 60, photo = 640 * 360
        for window in windows("HEADLESS-2").dropFirst(2) {
            let extra = window.int("redrawn_px") - window.int("draws") * band
            XCTAssertTrue([0, photo - band, photo].contains(extra), "the ticker's band alone: \(window.raw)")
        }
        for window in windows("HEADLESS-3").dropFirst(2) {
            XCTAssertEqual(window.int("redrawn_px"), window.int("draws") * 640 * 360, "turned: whole: \(window.raw)")
        }
        let image = try rig.capture(output: "HEADLESS-2")
        XCTAssertEqual(
            image.fraction(of: RGB(hex: 0x2060a0), in: PixelRect(x: 0, y: 0, width: 640, height: 300)), 1,
            "the photo region keeps its pixels while the band moves")
        assertCleanStop(p)
    }

    /// A 640x360 layout `m`: a 0x2060a0 photo filling the panel under a
    /// ticker band in its bottom 60 rows; `panels` are the playlist's
    /// panel entries.
    func writeTickerOverPhoto(panels: String) throws -> String {
        let folder = try mediaFolder()
        try writePNG(folder + "/photo.png", 0x2060a0, width: 640, height: 360)
        return try writePlaylist(
            folder,
            """
            {"layouts": {"m": {"background": "000000", "regions": [
                {"name": "photo", "x": 0, "y": 0, "width": "100%", "height": "100%", "items": [{"file": "photo.png"}]},
                {"name": "news", "x": 0, "y": 300, "width": 640, "height": 60, "z": 1,
                 "items": [{"ticker": "Layouts repaint only what moves  ·  ", "speed": 120, "size": 30}]}]}},
             "panels": [\(panels)]}
            """)
    }
}
