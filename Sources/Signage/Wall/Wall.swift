import Foundation

/// A video wall: screens that together show one picture. Each tile is a
/// screen named by an identity pattern (as a panel entry's `match`) and
/// placed in one canvas; the wall plays its playlist or layout across the
/// canvas, and each tile shows its part of it.
public struct Wall: Equatable {
    /// The unit of a wall's positions, sizes and gaps.
    public enum Unit: String, Equatable, Sendable {
        /// Canvas pixels.
        case pixels = "px"
        /// Millimetres of the panels' active areas: the canvas has the
        /// panels' own pixel density, and a gap hides that many pixels.
        case millimetres = "mm"
    }

    /// Where a tile sits in the canvas.
    public enum Placement: Equatable, Sendable {
        /// A cell of the wall's grid, counted from the top left.
        case cell(column: Int, row: Int)
        /// The top-left corner of its active area, in the wall's unit.
        case at(x: Double, y: Double)
    }

    /// One screen of the wall.
    public struct Tile: Equatable {
        /// The screen, named as a panel entry names it (`ScreenPattern`).
        public var match: String
        /// Its place in the canvas.
        public var placement: Placement
        /// How the panel hangs: turned this many degrees clockwise (0, 90, 180, 270).
        public var rotate: Int
        /// Its JSON path (`walls[0].tiles[1]`), for messages.
        public var path: String
    }

    /// What the file says of the wall's panels (all of one kind): their
    /// pixel size and active area unturned. Either may be left to the
    /// screen: its mode and the physical size `wl_output` reports.
    public struct PanelSize: Equatable, Sendable {
        /// Width and height in pixels.
        public var pixels: (width: Int, height: Int)?
        /// Width and height of the active area in millimetres.
        public var millimetres: (width: Double, height: Double)?

        /// The same sizes given, or the same left to the screen (tuples are not `Equatable`).
        public static func == (a: PanelSize, b: PanelSize) -> Bool {
            a.pixels?.width == b.pixels?.width && a.pixels?.height == b.pixels?.height
                && a.millimetres?.width == b.millimetres?.width && a.millimetres?.height == b.millimetres?.height
        }
    }

    /// Its JSON path (`walls[0]`).
    public var path: String
    /// The playlist (or layout, played as a playlist of its name) across the canvas.
    public var playlist: String
    /// The unit of placements and `gap`.
    public var unit: Unit
    /// The panels' size, where the file gives it.
    public var panel: PanelSize
    /// Between the active areas of neighbouring grid cells, across and
    /// down, in `unit`: the bezels, whose share of the picture is hidden.
    public var gap: (horizontal: Double, vertical: Double)
    /// The tiles, in the file's order.
    public var tiles: [Tile]

    /// The same wall in every field: a reload that changes any of them moves its tiles.
    public static func == (a: Wall, b: Wall) -> Bool {
        a.path == b.path && a.playlist == b.playlist && a.unit == b.unit && a.panel == b.panel
            && a.gap.horizontal == b.gap.horizontal && a.gap.vertical == b.gap.vertical && a.tiles == b.tiles
    }
}
