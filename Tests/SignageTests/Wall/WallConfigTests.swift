import Foundation
import Screenplay
import TestHarness
import XCTest

@testable import Signage

/// A playlist file's `"walls"`: each tile's part of the wall's canvas
/// (grid or free placement, pixels or millimetres, bezel gaps, turned
/// tiles), and every mistake refused with exit 65 naming its JSON path.
final class WallConfigTests: ScreenplayTestCase {
    func parse(_ json: String) throws(PlaylistError) -> SignageConfig { try PlaylistSchema.parse(json) }

    /// A file whose one wall is `wall` (its tiles and placement) playing "wide".
    func withWall(_ wall: String, top: String = "") -> String {
        #"{"playlists": {"wide": [{"color": "ff0000"}], "other": [{"color": "0000ff"}]}, "walls": [{"playlist": "wide", \#(wall)}]\#(top)}"#
    }

    func views(_ json: String, screen: WallGeometry.ScreenFacts? = nil) throws -> [CanvasPart] {
        try WallGeometry.views(of: XCTUnwrap(parse(json).walls.first), screen: screen)
    }

    func assertRefused(_ json: String, at path: String, mentions: [String] = [], line: UInt = #line) {
        do {
            _ = try parse(json)
            XCTFail("accepted: \(json)", line: line)
        } catch {
            XCTAssertEqual(error.code, .dataError, "exit 65", line: line)
            XCTAssertTrue(error.description.hasPrefix("/srv/p.json: \(path): "), error.description, line: line)
            for word in mentions {
                XCTAssertTrue(error.description.contains(word), "\(error.description) lacks \(word)", line: line)
            }
        }
    }

    func view(_ x: Int, _ y: Int, _ w: Int, _ h: Int, canvas: (Int, Int)) -> CanvasPart {
        CanvasPart(canvasWidth: canvas.0, canvasHeight: canvas.1, x: x, y: y, width: w, height: h)
    }

    func testAGridInPixelsSplitsTheCanvasAtTheSeam() throws {
        let json = withWall(
            #""panel": {"pixels": [1920, 1080]}, "tiles": [{"match": "HDMI-A-1", "column": 0, "row": 0}, {"match": "HDMI-A-2", "column": 1, "row": 0}]"#
        )
        XCTAssertEqual(
            try views(json),
            [view(0, 0, 1920, 1080, canvas: (3840, 1080)), view(1920, 0, 1920, 1080, canvas: (3840, 1080))])
        // The screen's part reaches the panel that plays it.
        let config = try parse(json)
        let second = try XCTUnwrap(
            config.assignment(name: "HDMI-A-2", description: "", make: "", model: "", serial: nil))
        XCTAssertEqual(second.playlist.name, "wide")
        XCTAssertEqual(second.tile, view(1920, 0, 1920, 1080, canvas: (3840, 1080)))
        XCTAssertNil(
            config.assignment(name: "DP-1", description: "", make: "", model: "", serial: nil),
            "a screen no tile names is no part of the wall")
    }

    func testMillimetresWithABezelGapHideTheGapsPixels() throws {
        // 1920 px across 1200 mm: 1.6 px a millimetre, so a 10 mm gap is 16 px.
        let json = withWall(
            #""unit": "mm", "panel": {"pixels": [1920, 1080], "mm": [1200, 675]}, "gap": [10, 10], "tiles": [{"match": "A", "column": 0, "row": 0}, {"match": "B", "column": 1, "row": 0}, {"match": "C", "column": 0, "row": 1}, {"match": "D", "column": 1, "row": 1}]"#
        )
        let canvas = (1920 + 16 + 1920, 1080 + 16 + 1080)
        XCTAssertEqual(
            try views(json),
            [
                view(0, 0, 1920, 1080, canvas: canvas), view(1936, 0, 1920, 1080, canvas: canvas),
                view(0, 1096, 1920, 1080, canvas: canvas), view(1936, 1096, 1920, 1080, canvas: canvas),
            ])
    }

    func testMillimetresAndPixelsComeFromTheScreenWhereTheFileIsSilent() throws {
        let json = withWall(
            #""unit": "mm", "gap": [5, 0], "tiles": [{"match": "A", "column": 0, "row": 0}, {"match": "B", "column": 1, "row": 0}]"#
        )
        // wl_output says 600x340 mm for a 1920x1080 mode: 3.2 px a millimetre, 5 mm is 16 px.
        let facts = WallGeometry.ScreenFacts(pixels: (1920, 1080), millimetres: (600, 340))
        XCTAssertEqual(try views(json, screen: facts)[1], view(1936, 0, 1920, 1080, canvas: (3856, 1080)))
        let config = try parse(json)
        XCTAssertEqual(
            config.assignment(name: "B", description: "", make: "", model: "", serial: nil, facts: facts)?.tile?.x,
            1936)
        // A screen that reports no physical size cannot place a millimetre's gap: it says what to add.
        let wall = try XCTUnwrap(config.walls.first)
        XCTAssertThrowsError(
            try WallGeometry.views(of: wall, screen: .init(pixels: (1920, 1080), millimetres: (0, 0)))
        ) { error in
            let problem = error as? WallGeometry.Problem
            XCTAssertEqual(problem?.path, "walls[0].panel")
            XCTAssertTrue(problem?.reason.contains("\"mm\": [width, height]") == true, "\(error)")
        }
        XCTAssertNil(
            config.assignment(name: "B", description: "", make: "", model: "", serial: nil, facts: nil),
            "no part without the sizes")
    }

    func testTurnedTilesMakeAPortraitWall() throws {
        let json = withWall(
            #""panel": {"pixels": [1920, 1080]}, "tiles": [{"match": "A", "column": 0, "row": 0, "rotate": 90}, {"match": "B", "column": 1, "row": 0, "rotate": 270}]"#
        )
        XCTAssertEqual(
            try views(json),
            [view(0, 0, 1080, 1920, canvas: (2160, 1920)), view(1080, 0, 1080, 1920, canvas: (2160, 1920))])
        let config = try parse(json)
        XCTAssertEqual(config.assignment(name: "B", description: "", make: "", model: "", serial: nil)?.rotate, 270)
        // Placed freely, upright and turned tiles mix; the canvas starts at the topmost, leftmost tile.
        let free = withWall(
            #""panel": {"pixels": [1920, 1080]}, "tiles": [{"match": "A", "x": -100, "y": 50}, {"match": "B", "x": 1820, "y": 0, "rotate": 90}]"#
        )
        XCTAssertEqual(
            try views(free),
            [view(0, 50, 1920, 1080, canvas: (3000, 1920)), view(1920, 0, 1080, 1920, canvas: (3000, 1920))])
    }

    func testFreePlacementInMillimetresUsesThePanelsDensity() throws {
        let json = withWall(
            #""unit": "mm", "panel": {"mm": [1200, 675]}, "tiles": [{"match": "A", "x": 0, "y": 0}, {"match": "B", "x": 1212.5, "y": 0}]"#
        )
        let facts = WallGeometry.ScreenFacts(pixels: (1920, 1080), millimetres: (0, 0))
        XCTAssertEqual(try views(json, screen: facts)[1], view(1940, 0, 1920, 1080, canvas: (3860, 1080)))
    }

    func testOverlappingTilesAreRefused() {
        assertRefused(
            withWall(
                #""panel": {"pixels": [1920, 1080]}, "tiles": [{"match": "A", "x": 0, "y": 0}, {"match": "B", "x": 1900, "y": 0}]"#
            ),
            at: "walls[0].tiles[1]", mentions: ["overlaps walls[0].tiles[0]", "20x1080"])
        assertRefused(
            withWall(#""tiles": [{"match": "A", "column": 0, "row": 0}, {"match": "B", "column": 0, "row": 0}]"#),
            at: "walls[0].tiles[1]", mentions: ["overlaps walls[0].tiles[0]"])
        // A tenth of a millimetre is an overlap, before the screen tells the panel's pixels.
        assertRefused(
            withWall(
                #""unit": "mm", "panel": {"mm": [1209.6, 680]}, "tiles": [{"match": "A", "x": 0, "y": 0}, {"match": "B", "x": 1209.5, "y": 0}]"#
            ),
            at: "walls[0].tiles[1]", mentions: ["overlaps walls[0].tiles[0]"])
        // Touching is not overlapping.
        XCTAssertNoThrow(
            try parse(
                withWall(
                    #""panel": {"pixels": [1920, 1080]}, "tiles": [{"match": "A", "x": 0, "y": 0}, {"match": "B", "x": 1920, "y": 0}]"#
                )))
    }

    func testAScreenInTwoWallsOrAlsoAPanelIsRefused() {
        let two =
            #"{"playlists": {"wide": [{"color": "ff0000"}]}, "walls": [{"playlist": "wide", "tiles": [{"match": "HDMI-A-1", "column": 0, "row": 0}]}, {"playlist": "wide", "tiles": [{"match": "HDMI-*", "column": 0, "row": 0}]}]}"#
        assertRefused(two, at: "walls[1].tiles[0].match", mentions: ["walls[0].tiles[0]", "one tile of one wall"])
        assertRefused(
            withWall(#""tiles": [{"match": "DP-1", "column": 0, "row": 0}, {"match": "dp-1", "column": 1, "row": 0}]"#),
            at: "walls[0].tiles[1].match")
        assertRefused(
            withWall(
                #""tiles": [{"match": "HDMI-A-1", "column": 0, "row": 0}]"#,
                top:
                    #", "panels": [{"match": "DP-1", "playlist": "other"}, {"match": "HDMI-?-1", "playlist": "other"}]"#
            ),
            at: "panels[1].match", mentions: ["walls[0].tiles[0]", "remove the panel entry or the tile"])
    }

    func testEveryOtherMistakeNamesItsPath() {
        let tiles = #""tiles": [{"match": "A", "column": 0, "row": 0}]"#
        assertRefused(#"{"playlists": {"wide": [{"color": "ff0000"}]}, "walls": {}}"#, at: "walls")
        assertRefused(
            #"{"playlists": {"wide": [{"color": "ff0000"}]}, "walls": [{\#(tiles)}]}"#, at: "walls[0]",
            mentions: ["missing \"playlist\""])
        assertRefused(withWall(#""tiles": []"#), at: "walls[0].tiles", mentions: ["non-empty"])
        assertRefused(withWall(#""unit": "cm", \#(tiles)"#), at: "walls[0].unit", mentions: ["\"px\" or \"mm\""])
        assertRefused(withWall(#""panel": {"pixels": [1920]}, \#(tiles)"#), at: "walls[0].panel.pixels")
        assertRefused(withWall(#""panel": {"mm": [0, 10]}, \#(tiles)"#), at: "walls[0].panel.mm")
        assertRefused(withWall(#""gap": [-1, 0], \#(tiles)"#), at: "walls[0].gap")
        assertRefused(withWall(#""size": 3, \#(tiles)"#), at: "walls[0].size", mentions: ["unknown key"])
        assertRefused(
            withWall(#""tiles": [{"match": "A", "column": 0, "row": 0, "x": 0, "y": 0}]"#), at: "walls[0].tiles[0]",
            mentions: ["not both or half"])
        assertRefused(withWall(#""tiles": [{"match": "A", "column": 0}]"#), at: "walls[0].tiles[0]")
        assertRefused(withWall(#""tiles": [{"match": "A", "column": -1, "row": 0}]"#), at: "walls[0].tiles[0].column")
        assertRefused(withWall(#""tiles": [{"match": "A[", "column": 0, "row": 0}]"#), at: "walls[0].tiles[0].match")
        assertRefused(
            withWall(#""tiles": [{"match": "A", "column": 0, "row": 0, "rotate": 45}]"#), at: "walls[0].tiles[0].rotate"
        )
        assertRefused(
            withWall(
                #""panel": {"pixels": [10, 10]}, "tiles": [{"match": "A", "column": 0, "row": 0}, {"match": "B", "x": 20, "y": 0}]"#
            ),
            at: "walls[0].tiles", mentions: ["place every tile of a wall alike"])
        assertRefused(
            withWall(
                #""tiles": [{"match": "A", "column": 0, "row": 0}, {"match": "B", "column": 1, "row": 0, "rotate": 90}]"#
            ),
            at: "walls[0].tiles", mentions: ["hang alike"])
        assertRefused(
            withWall(#""tiles": [{"match": "A", "x": 0, "y": 0}]"#), at: "walls[0]",
            mentions: ["\"panel\": {\"pixels\": [width, height]}"])
        assertRefused(
            withWall(#""unit": "mm", "panel": {"pixels": [1920, 1080]}, "tiles": [{"match": "A", "x": 0, "y": 0}]"#),
            at: "walls[0].panel", mentions: ["\"mm\": [width, height]"])
        assertRefused(
            withWall(#""panel": {"pixels": [9, 9]}, "gap": [1, 1], "tiles": [{"match": "A", "x": 0, "y": 0}]"#),
            at: "walls[0].gap", mentions: ["column and row"])
        assertRefused(
            #"{"playlists": {"wide": [{"color": "ff0000"}]}, "walls": [{"playlist": "none", \#(tiles)}]}"#,
            at: "walls[0].playlist", mentions: ["no playlist named \"none\""])
    }

    func testAWallPlaysALayoutAsAPanelDoes() throws {
        let config = try parse(
            #"{"layouts": {"split": {"regions": [{"name": "a", "x": 0, "y": 0, "width": "50%", "height": "100%", "items": [{"color": "ff0000"}]}]}}, "walls": [{"layout": "split", "tiles": [{"match": "A", "column": 0, "row": 0}]}]}"#
        )
        let facts = WallGeometry.ScreenFacts(pixels: (1280, 720), millimetres: (0, 0))
        let entry = try XCTUnwrap(
            config.assignment(name: "A", description: "", make: "", model: "", serial: nil, facts: facts))
        XCTAssertEqual(entry.playlist.name, "split")
        XCTAssertEqual(entry.tile, view(0, 0, 1280, 720, canvas: (1280, 720)))
    }
}

extension WallConfigTests {
    /// The walls guide's examples (docs/walls.md) are files `play` accepts,
    /// with the canvases the guide says: the 2x1 wall's 3856x1080 (16 px of
    /// gap) and the 2x2 wall's 3856x2176 (16 px across and down).
    func testTheWallsGuidesExamplesAreAccepted() throws {
        let guide = try String(
            contentsOf: PlaylistSchema.root.appendingPathComponent("docs/walls.md"), encoding: .utf8)
        let blocks = guide.components(separatedBy: "```json\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        let walls = blocks.filter { $0.contains("\"walls\"") }
        XCTAssertEqual(walls.count, 2, "docs/walls.md has a 2x1 and a 2x2 wall example")
        let pair = try XCTUnwrap(walls.first, "docs/walls.md has no wall example")
        XCTAssertEqual(
            try views(pair).map { [$0.x, $0.canvasWidth, $0.canvasHeight] }, [[0, 3856, 1080], [1936, 3856, 1080]])
        XCTAssertTrue(guide.contains("3856x1080 above (1920 + 16 + 1920)"))
        let square = try XCTUnwrap(walls.dropFirst().first, "docs/walls.md has no 2x2 example")
        XCTAssertEqual(
            try views(square).map { [$0.x, $0.y, $0.canvasWidth, $0.canvasHeight] },
            [[0, 0, 3856, 2176], [1936, 0, 3856, 2176], [0, 1096, 3856, 2176], [1936, 1096, 3856, 2176]])
        XCTAssertTrue(guide.contains("the canvas is 3856x2176"))
    }
}
