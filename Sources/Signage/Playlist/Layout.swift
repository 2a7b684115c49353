import Foundation
public import Screenplay

// A layout: named regions of a panel, each playing its own playlist, as
// `LayoutParser` reads them from the playlist file's `"layouts"`. What only
// the panel's size can tell (a region past its edge) is checked when the
// layout meets a panel (`Layout.misfit`).

/// A coordinate or size of a region: pixels of the panel as the viewer sees
/// it, or a fraction of its width or height ("62.5%").
public enum LayoutLength: Equatable {
    /// Pixels of the panel as seen.
    case pixels(Int)
    /// A percentage of the panel's width or height.
    case percent(Double)

    /// The pixels this length is on an axis `total` pixels long.
    func pixels(of total: Int) -> Double {
        switch self {
        case let .pixels(value): Double(value)
        case let .percent(value): value / 100 * Double(total)
        }
    }
}

/// One named rectangle of a layout with its own playlist.
public struct LayoutRegion: Equatable {
    /// Unique in its layout: proof of play and status name it.
    public var name: String
    var x: LayoutLength
    var y: LayoutLength
    var width: LayoutLength
    var height: LayoutLength
    /// Higher draws on top; equal z in file order (the regions are kept sorted).
    var z: Int
    /// Drawn behind its items; nil: the layout's background.
    public var background: RGBColor?
    /// The region's items: a named playlist, or its inline items (named
    /// `layout.region`).
    public var playlist: Playlist
    /// `layouts.menu.regions[1]`: how errors and `--stats` name it.
    var path: String

    /// The region's pixels on a panel of `width` x `height` (viewer's
    /// pixels). Both edges are rounded, so regions that meet in the file
    /// meet on screen, without a gap or an overlap.
    public func rect(width panelWidth: Int, height panelHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let left = x.pixels(of: panelWidth), top = y.pixels(of: panelHeight)
        let right = left + width.pixels(of: panelWidth), bottom = top + height.pixels(of: panelHeight)
        let (l, t) = (Int(left.rounded()), Int(top.rounded()))
        return (l, t, max(1, Int(right.rounded()) - l), max(1, Int(bottom.rounded()) - t))
    }
}

/// A panel's content split into regions.
public struct Layout: Equatable {
    /// Its name in the file's "layouts".
    public var name: String
    /// The colour behind the regions.
    public var background: RGBColor
    /// In drawing order: by `z`, then as in the file.
    public var regions: [LayoutRegion]

    /// Why this layout cannot be shown on a panel of `width` x `height`
    /// (after rotation), or nil: the first region that reaches past an
    /// edge, by how much, and what to change. Clipping it silently would
    /// cut a menu's prices off without anyone noticing.
    public func misfit(width: Int, height: Int) -> String? {
        for region in regions {
            let rect = region.rect(width: width, height: height)
            let over = [
                (rect.x + rect.width - width, "right", "width"), (rect.y + rect.height - height, "bottom", "height"),
            ]
            if let (by, edge, axis) = over.first(where: { $0.0 > 0 }) {
                return
                    "region \"\(region.name)\" of layout \"\(name)\" (\(region.path)) reaches \(by) px past the \(edge) edge of the \(width)x\(height) panel; make its \(axis) or position smaller, or give them in % of the panel"
            }
        }
        return nil
    }
}

extension PlayItem {
    /// The items this one plays: a layout's regions' items, or itself
    /// (the files to watch for a reload).
    var playedItems: [PlayItem] {
        guard case let .layout(layout) = source else { return [self] }
        return layout.regions.flatMap(\.playlist.items)
    }
}
