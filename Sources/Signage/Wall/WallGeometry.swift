import Foundation
public import Screenplay

/// Where each tile of a wall lies in the wall's canvas, in canvas pixels:
/// grid cells or free positions, millimetres turned into pixels at the
/// panels' own density, bezel gaps left out of every tile, turned tiles
/// turned. The canvas's origin is the top-left of the topmost, leftmost
/// tile, and its size reaches the farthest tile's edge.
public enum WallGeometry {
    /// What a screen says of itself where the file is silent: its mode's
    /// pixels and `wl_output`'s physical size, both unturned (0: not given).
    public struct ScreenFacts: Equatable, Sendable {
        /// The current mode's width and height.
        public var pixels: (width: Int, height: Int)
        /// The physical width and height in millimetres; 0 when not given.
        public var millimetres: (width: Int, height: Int)

        /// Facts of a screen with a `pixels` mode and `millimetres` of active area.
        public init(pixels: (width: Int, height: Int), millimetres: (width: Int, height: Int)) {
            self.pixels = pixels
            self.millimetres = millimetres
        }

        /// The same mode and physical size (tuples are not `Equatable`).
        public static func == (a: ScreenFacts, b: ScreenFacts) -> Bool {
            a.pixels == b.pixels && a.millimetres == b.millimetres
        }
    }

    /// Why a wall cannot be laid out: the JSON path of the entry and the reason.
    public struct Problem: Error, Equatable {
        /// The offending entry (`walls[0].tiles[1]`).
        public var path: String
        /// What is wrong and what to do.
        public var reason: String
    }

    /// Every tile's view of `wall`'s canvas, in the tiles' order, taking
    /// what the file leaves out from `screen`.
    public static func views(of wall: Wall, screen: ScreenFacts?) throws(Problem) -> [CanvasPart] {
        let pixels = try panelPixels(wall, screen)
        let density: Double
        let unitSize: (width: Double, height: Double)
        switch wall.unit {
        case .pixels:
            density = 1
            unitSize = (Double(pixels.width), Double(pixels.height))
        case .millimetres:
            let mm = try panelMillimetres(wall, screen)
            density = Double(pixels.width) / mm.width
            unitSize = mm
        }
        var rects: [(x: Int, y: Int, width: Int, height: Int)] = []
        for tile in wall.tiles {
            let turned = tile.rotate % 180 != 0
            let size = turned ? (pixels.height, pixels.width) : (pixels.width, pixels.height)
            let cell: (width: Double, height: Double) = turned ? (unitSize.height, unitSize.width) : unitSize
            let origin: (x: Double, y: Double)
            switch tile.placement {
            case let .cell(column, row):
                origin = (
                    Double(column) * (cell.width + wall.gap.horizontal), Double(row) * (cell.height + wall.gap.vertical)
                )
            case let .at(x, y): origin = (x, y)
            }
            rects.append(
                (Int((origin.x * density).rounded()), Int((origin.y * density).rounded()), size.0, size.1))
        }
        let left = rects.map(\.x).min() ?? 0, top = rects.map(\.y).min() ?? 0
        rects = rects.map { ($0.x - left, $0.y - top, $0.width, $0.height) }
        for (j, b) in rects.enumerated() {
            for (i, a) in rects[..<j].enumerated() {
                let across = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
                let down = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
                guard across > 0, down > 0 else { continue }
                throw Problem(
                    path: wall.tiles[j].path,
                    reason:
                        "overlaps \(wall.tiles[i].path) by \(across)x\(down) canvas pixels; move one of them (tiles show disjoint parts of the wall)"
                )
            }
        }
        let width = rects.map { $0.x + $0.width }.max() ?? 0, height = rects.map { $0.y + $0.height }.max() ?? 0
        return rects.map {
            CanvasPart(canvasWidth: width, canvasHeight: height, x: $0.x, y: $0.y, width: $0.width, height: $0.height)
        }
    }

    /// The check a file gets before any screen is known: where it leaves a
    /// panel's size to the screen, any size stands in (grid cells are all
    /// of it, so their overlap does not depend on it; free positions need
    /// the size in the file: `WallParser`).
    static func check(_ wall: Wall) throws(Problem) {
        // Ten pixels a millimetre: free positions in millimetres keep a tenth's precision.
        let pixels =
            wall.panel.pixels
            ?? wall.panel.millimetres.map { (Int(($0.width * 10).rounded()), Int(($0.height * 10).rounded())) }
        let stand = pixels ?? (1920, 1080)
        let mm = (
            Int(wall.panel.millimetres?.width ?? Double(stand.0)),
            Int(wall.panel.millimetres?.height ?? Double(stand.1))
        )
        _ = try views(of: wall, screen: ScreenFacts(pixels: stand, millimetres: mm))
    }

    private static func panelPixels(_ wall: Wall, _ screen: ScreenFacts?) throws(Problem) -> (width: Int, height: Int) {
        if let pixels = wall.panel.pixels { return pixels }
        if let screen, screen.pixels.width > 0, screen.pixels.height > 0 { return screen.pixels }
        throw Problem(
            path: "\(wall.path).panel",
            reason: "the screen has no mode yet and the wall gives no \"pixels\"; add \"pixels\": [width, height]")
    }

    private static func panelMillimetres(_ wall: Wall, _ screen: ScreenFacts?) throws(Problem)
        -> (width: Double, height: Double)
    {
        if let mm = wall.panel.millimetres { return mm }
        if let screen, screen.millimetres.width > 0, screen.millimetres.height > 0 {
            return (Double(screen.millimetres.width), Double(screen.millimetres.height))
        }
        throw Problem(
            path: "\(wall.path).panel",
            reason:
                "the screen reports no physical size (wl_output's physical_width/height are 0); measure the active area and add \"mm\": [width, height]"
        )
    }
}
