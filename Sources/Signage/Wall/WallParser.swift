import Foundation
import Screenplay

/// The `"walls"` part of the playlist file: each wall's content, unit,
/// panel size, gap and tiles, read as strictly as the rest (each mistake
/// names its JSON path). Tiles that overlap, a screen in two walls and a
/// panel entry that names a tile are refused here, before any screen is
/// known, by comparing the patterns themselves.
enum WallParser {
    static let wallKeys: Set<String> = ["playlist", "layout", "unit", "panel", "gap", "tiles"]
    static let tileKeys: Set<String> = ["match", "column", "row", "x", "y", "rotate"]
    static let panelKeys: Set<String> = ["pixels", "mm"]

    /// `"walls"`: a list of walls playing `playlists` or `layouts`.
    static func parseWalls(
        _ value: Any?, playlists: [String: Playlist], layouts: [String: Layout],
        _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> [Wall] {
        guard let value else { return [] }
        guard let list = value as? [Any] else {
            throw fail("walls", "expected a list of walls, got \(JSONValues.describe(value))")
        }
        var walls: [Wall] = []
        for (index, element) in list.enumerated() {
            let wall = try parseWall(element, at: "walls[\(index)]", playlists: playlists, layouts: layouts, fail)
            do {
                try WallGeometry.check(wall)
            } catch {
                throw fail(error.path, error.reason)
            }
            walls.append(wall)
        }
        let tiles = walls.flatMap(\.tiles)
        for (j, tile) in tiles.enumerated() {
            if let other = tiles[..<j].first(where: { namesSameScreen($0.match, tile.match) }) {
                throw fail(
                    "\(tile.path).match",
                    "\"\(tile.match)\" names the screen \(other.path) names (\"\(other.match)\"): a screen is one tile of one wall"
                )
            }
        }
        return walls
    }

    /// Refuses a panel entry that names a tile's screen: the tile shows
    /// its wall's part, and the panel's playlist would fight it.
    static func checkPanels(_ panels: [PanelRule], against walls: [Wall], _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError)
    {
        for (index, panel) in panels.enumerated() {
            for tile in walls.flatMap(\.tiles) where namesSameScreen(panel.match, tile.match) {
                throw fail(
                    "panels[\(index)].match",
                    "\"\(panel.match)\" names the screen of \(tile.path) (\"\(tile.match)\"); a tile plays its wall, so remove the panel entry or the tile"
                )
            }
        }
    }

    /// Whether two patterns can name one screen, as far as their text
    /// tells: the same text, or one matching the other as a screen's name.
    static func namesSameScreen(_ a: String, _ b: String) -> Bool {
        ScreenPattern(a).matches(name: b, description: "") || ScreenPattern(b).matches(name: a, description: "")
    }

    private static func parseWall(
        _ element: Any, at: String, playlists: [String: Playlist], layouts: [String: Layout],
        _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> Wall {
        let entry = try JSONValues.dictionary(element, at: at, fail)
        try JSONValues.rejectUnknownKeys(entry, allowed: wallKeys, at: at, fail)
        let playlist = try SignageConfigLoader.contentName(
            in: entry, at: at, playlists: playlists, layouts: layouts, fail)
        var unit = Wall.Unit.pixels
        if let value = entry["unit"] {
            guard let text = value as? String, let parsed = Wall.Unit(rawValue: text) else {
                throw fail("\(at).unit", "expected \"px\" or \"mm\", got \(JSONValues.describe(value))")
            }
            unit = parsed
        }
        var panel = Wall.PanelSize()
        if let value = entry["panel"] {
            let object = try JSONValues.dictionary(value, at: "\(at).panel", fail)
            try JSONValues.rejectUnknownKeys(object, allowed: panelKeys, at: "\(at).panel", fail)
            if let pixels = object["pixels"] {
                let pair = try positivePair(pixels, at: "\(at).panel.pixels", wholeNumbers: true, fail)
                panel.pixels = (Int(pair.0), Int(pair.1))
            }
            if let mm = object["mm"] { panel.millimetres = try positivePair(mm, at: "\(at).panel.mm", fail) }
        }
        guard let list = entry["tiles"] as? [Any], !list.isEmpty else {
            throw fail(
                entry["tiles"] == nil ? at : "\(at).tiles",
                "a wall needs \"tiles\": a non-empty list of screens (match, and column and row or x and y)")
        }
        var tiles: [Wall.Tile] = []
        for (index, element) in list.enumerated() {
            tiles.append(try parseTile(element, at: "\(at).tiles[\(index)]", fail))
        }
        let grid = tiles.filter { if case .cell = $0.placement { true } else { false } }
        if !grid.isEmpty, grid.count < tiles.count {
            throw fail("\(at).tiles", "place every tile of a wall alike: all by column and row, or all by x and y")
        }
        var gap = (horizontal: 0.0, vertical: 0.0)
        if let value = entry["gap"] {
            guard !grid.isEmpty else {
                throw fail(
                    "\(at).gap", "\"gap\" is for tiles placed by column and row; x and y already place the active areas"
                )
            }
            let pair = try positivePair(value, at: "\(at).gap", allowingZero: true, fail)
            gap = (pair.0, pair.1)
        }
        if !grid.isEmpty, Set(tiles.map { $0.rotate % 180 }).count > 1 {
            throw fail(
                "\(at).tiles",
                "the tiles of a grid hang alike (all upright or all turned); place mixed tiles by x and y")
        }
        if grid.isEmpty, unit == .pixels ? panel.pixels == nil : panel.millimetres == nil {
            throw fail(
                entry["panel"] == nil ? at : "\(at).panel",
                "tiles placed by x and y need the panels' size in the wall's unit: add \"panel\": {\"\(unit == .pixels ? "pixels" : "mm")\": [width, height]}"
            )
        }
        return Wall(path: at, playlist: playlist, unit: unit, panel: panel, gap: gap, tiles: tiles)
    }

    private static func parseTile(_ element: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> Wall.Tile
    {
        let entry = try JSONValues.dictionary(element, at: at, fail)
        try JSONValues.rejectUnknownKeys(entry, allowed: tileKeys, at: at, fail)
        let match = try SignageConfigLoader.screenPattern(in: entry, at: at, fail)
        let rotate = try SignageConfigLoader.rotation(entry["rotate"], at: "\(at).rotate", fail)
        let placement: Wall.Placement
        switch (entry["column"], entry["row"], entry["x"], entry["y"]) {
        case let (column?, row?, nil, nil):
            guard let c = JSONValues.integer(column), c >= 0 else {
                throw fail("\(at).column", "expected a whole number from 0, got \(JSONValues.describe(column))")
            }
            guard let r = JSONValues.integer(row), r >= 0 else {
                throw fail("\(at).row", "expected a whole number from 0, got \(JSONValues.describe(row))")
            }
            placement = .cell(column: c, row: r)
        case let (nil, nil, x?, y?):
            guard let left = JSONValues.number(x) else {
                throw fail("\(at).x", "expected a number, got \(JSONValues.describe(x))")
            }
            guard let top = JSONValues.number(y) else {
                throw fail("\(at).y", "expected a number, got \(JSONValues.describe(y))")
            }
            placement = .at(x: left, y: top)
        default:
            throw fail(at, "place the tile by \"column\" and \"row\" (a grid) or by \"x\" and \"y\", not both or half")
        }
        return Wall.Tile(match: match, placement: placement, rotate: rotate, path: at)
    }

    /// `[width, height]` of positive numbers (or, `allowingZero`, not negative).
    private static func positivePair(
        _ value: Any, at: String, wholeNumbers: Bool = false, allowingZero: Bool = false,
        _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> (Double, Double) {
        let kind = wholeNumbers ? "whole numbers" : "numbers"
        guard let list = value as? [Any], list.count == 2,
            let a = wholeNumbers ? JSONValues.integer(list[0]).map(Double.init) : JSONValues.number(list[0]),
            let b = wholeNumbers ? JSONValues.integer(list[1]).map(Double.init) : JSONValues.number(list[1]),
            allowingZero ? a >= 0 && b >= 0 : a > 0 && b > 0
        else {
            throw fail(
                at,
                "expected [across, down]: two \(allowingZero ? "" : "positive ")\(kind)\(allowingZero ? " from 0" : ""), got \(JSONValues.describe(value))"
            )
        }
        return (a, b)
    }
}
