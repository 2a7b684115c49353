import Foundation
import TestHarness
import TestSupport
import XCTest

/// A wall on headless sway: each tile's output shows exactly its part of
/// the wall's canvas, pixel for pixel on both sides of the seam, with a
/// bezel gap's pixels on neither panel, and on a pair of turned panels.
final class PlayWallTests: ScreenplayTestCase {
    /// Plays `wall` (a `"walls"` entry without its playlist) of the picture
    /// `width` x `height` on `rig`, and checks each output against `expected`:
    /// for an output pixel, the canvas pixel it must show.
    func assertWall(
        _ rig: SwayRig, wall: String, picture: (width: Int, height: Int),
        expected: [String: (Int, Int) -> (x: Int, y: Int)], line: UInt = #line
    ) throws {
        let folder = try wallFolder()
        try writeCoordinatePicture(folder + "/wide.png", width: picture.width, height: picture.height)
        let path = folder + "/wall.json"
        try #"{"playlists": {"wide": [{"file": "wide.png"}]}, "walls": [{"playlist": "wide", \#(wall)}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", path, "--stats", "-"], environment: env(rig))
        for (output, want) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertNotNil(
                p.waitForEvent { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)", line: line)
            // The item's line says it is on screen; grim may read the frame before.
            var result = (count: -1, first: [String]())
            _ = waitUntil(timeout: 10) {
                guard let image = try? rig.capture(output: output) else { return false }
                result = self.misplaced(image, expected: want)
                return result.count == 0
            }
            XCTAssertEqual(result.count, 0, "\(output): \(result.first)", line: line)
        }
        assertCleanStop(p, line: line)
    }

    func testTwoPanelsShowTheirHalvesPixelExactAtTheSeam() throws {
        let rig = try startSway([.init(width: 1920, height: 1080), .init(width: 1920, height: 1080)])
        try assertWall(
            rig,
            wall:
                #""tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]"#,
            picture: (3840, 1080),
            expected: ["HEADLESS-1": { ($0, $1) }, "HEADLESS-2": { ($0 + 1920, $1) }])
        // A 10 mm bezel gap at 1.6 px a millimetre: 16 canvas pixels behind
        // the bezels, shown on neither panel.
        try assertWall(
            rig,
            wall:
                #""unit": "mm", "panel": {"pixels": [1920, 1080], "mm": [1200, 675]}, "gap": [10, 0], "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]"#,
            picture: (3856, 1080),
            expected: ["HEADLESS-1": { ($0, $1) }, "HEADLESS-2": { ($0 + 1936, $1) }])
    }

    func testAPortraitPairOfTurnedPanelsShowsItsParts() throws {
        let rig = try startSway([.init(width: 1920, height: 1080), .init(width: 1920, height: 1080)])
        // Each panel hangs turned (one clockwise, one the other way), so
        // each is a 1080x1920 part of a 2160x1920 canvas; the buffer holds
        // the part turned back.
        try assertWall(
            rig,
            wall:
                #""tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0, "rotate": 90}, {"match": "HEADLESS-2", "column": 1, "row": 0, "rotate": 270}]"#,
            picture: (2160, 1920),
            expected: [
                // Turned back counter-clockwise: the part's top-left is at the buffer's bottom-left.
                "HEADLESS-1": { x, y in (1079 - y, x) },
                // Turned back clockwise: its top-left is at the buffer's top-right.
                "HEADLESS-2": { x, y in (1080 + y, 1919 - x) },
            ])
    }

    func testALayoutSpansTheWallAsItSpansAPanel() throws {
        let rig = try startSway([.init(width: 640, height: 360), .init(width: 640, height: 360)])
        let folder = try wallFolder()
        // Regions in per cent of the 1280x360 canvas: the left quarter red,
        // the right three quarters blue, so the seam runs through the blue one.
        let path = folder + "/wall.json"
        try
            #"{"layouts": {"split": {"regions": [{"name": "a", "x": 0, "y": 0, "width": "25%", "height": "100%", "items": [{"color": "ff0000"}]}, {"name": "b", "x": "25%", "y": 0, "width": "75%", "height": "100%", "items": [{"color": "0000ff"}]}]}}, "walls": [{"layout": "split", "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", path, "--stats", "-"], environment: env(rig))
        let red = RGB(hex: 0xff0000), blue = RGB(hex: 0x0000ff)
        let expected: [String: (Int) -> RGB] = ["HEADLESS-1": { $0 < 320 ? red : blue }, "HEADLESS-2": { _ in blue }]
        for (output, colour) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
            var wrong: [Int] = []
            _ = waitUntil(timeout: 10) {
                guard let image = try? rig.capture(output: output) else { return false }
                wrong = (0..<640).filter { x in (0..<360).contains { image.pixel(x: x, y: $0) != colour(x) } }
                return wrong.isEmpty
            }
            XCTAssertEqual(wrong.count, 0, "\(output): columns \(wrong.prefix(5)) are not the layout's part")
        }
        assertCleanStop(p)
    }

    func testATileWhoseScreenGivesNoSizeSaysWhatToAdd() throws {
        let rig = try startSway([.init(width: 640, height: 360), .init(width: 640, height: 360)])
        // Headless outputs report no physical size: a gap in millimetres cannot be placed.
        let listing = try CLI.run(["outputs", "--json"], environment: env(rig)).stdout
        let screens = try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]] ?? []
        let first = try XCTUnwrap(screens.first { $0["name"] as? String == "HEADLESS-1" }, listing)
        XCTAssertEqual(first["physical_width_mm"] as? Int, 0, listing)
        let folder = try wallFolder()
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"s": [{"color": "ff0000"}], "d": [{"color": "00ff00"}]}, "walls": [{"playlist": "s", "unit": "mm", "gap": [10, 0], "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}]}], "default": "d"}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", path, "--stats", "-"], environment: env(rig))
        // The other screen plays the default; the tile shows nothing and says which key to add.
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }, p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) { p.stderr.contains("HEADLESS-1 shows nothing: \(path): walls[0].panel:") }, p.stderr)
        XCTAssertTrue(p.stderr.contains("add \"mm\": [width, height]"), p.stderr)
        XCTAssertTrue(p.statsEvents.allSatisfy { $0.output != "HEADLESS-1" }, "HEADLESS-1 was given a part")
        assertCleanStop(p)
    }

    func testWallMistakesExit65BeforeConnecting() throws {
        let folder = try wallFolder()
        let cases = [
            (
                #""panel": {"pixels": [1920, 1080]}, "tiles": [{"match": "A", "x": 0, "y": 0}, {"match": "B", "x": 1000, "y": 0}]"#,
                "walls[0].tiles[1]: overlaps walls[0].tiles[0]"
            ),
            (
                #""tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}]}, {"playlist": "s", "tiles": [{"match": "HEADLESS-*", "column": 0, "row": 0}]"#,
                "walls[1].tiles[0].match"
            ),
        ]
        let environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": folder]
        for (index, (wall, message)) in cases.enumerated() {
            let path = folder + "/bad\(index).json"
            try #"{"playlists": {"s": [{"color": "ff0000"}]}, "walls": [{"playlist": "s", \#(wall)}]}"#.write(
                toFile: path, atomically: true, encoding: .utf8)
            let result = try CLI.run(["play", path], environment: environment)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains(path) && result.stderr.contains(message), result.stderr)
        }
        let panel = folder + "/panel.json"
        try
            #"{"playlists": {"s": [{"color": "ff0000"}]}, "walls": [{"playlist": "s", "tiles": [{"match": "DP-1", "column": 0, "row": 0}]}], "panels": [{"match": "DP-?", "playlist": "s"}]}"#
            .write(toFile: panel, atomically: true, encoding: .utf8)
        let result = try CLI.run(["play", panel], environment: environment)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("panels[0].match"), result.stderr)
    }
}
