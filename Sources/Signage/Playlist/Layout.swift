import Foundation
public import Screenplay

// The `"layouts"` part of the playlist file: named regions of a panel, each
// playing its own playlist. Read as strictly as the rest (each mistake names
// its JSON path); what only the panel's size can tell (a region past its
// edge) is checked when the layout meets a panel (`Layout.misfit`).

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

extension SignageConfigLoader {
    static let layoutKeys: Set<String> = ["background", "regions"]
    static let regionKeys: Set<String> = [
        "name", "x", "y", "width", "height", "z", "background", "playlist", "items", "transition",
    ]

    /// `"layouts"`: named layouts whose regions name `playlists` or hold
    /// their own items.
    static func parseLayouts(
        _ value: Any?, playlists: [String: Playlist], folder: String, itemSeconds: Double, transition: Double,
        web: WebRules = WebRules(), _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> [String: Layout] {
        guard let value else { return [:] }
        let object = try JSONValues.dictionary(value, at: "layouts", fail)
        var layouts: [String: Layout] = [:]
        for name in object.keys.sorted() {
            let at = "layouts.\(name)"
            if playlists[name] != nil {
                throw fail(at, "a playlist is also named \"\(name)\"; give the layout another name")
            }
            let entry = try JSONValues.dictionary(object[name]!, at: at, fail)
            try JSONValues.rejectUnknownKeys(entry, allowed: layoutKeys, at: at, fail)
            var background = RGBColor.black
            if let value = entry["background"] { background = try color(value, at: "\(at).background", fail) }
            guard let list = entry["regions"] as? [Any], !list.isEmpty else {
                throw fail(
                    entry["regions"] == nil ? at : "\(at).regions",
                    "a layout needs \"regions\": a non-empty list of regions (name, x, y, width, height, and playlist or items)"
                )
            }
            var regions: [LayoutRegion] = []
            for (index, element) in list.enumerated() {
                let region = try parseRegion(
                    element, at: "\(at).regions[\(index)]", layout: name, playlists: playlists, folder: folder,
                    itemSeconds: itemSeconds, transition: transition, web: web, fail)
                if regions.contains(where: { $0.name == region.name }) {
                    throw fail("\(region.path).name", "another region of this layout is named \"\(region.name)\"")
                }
                regions.append(region)
            }
            // A stable sort: equal z keeps the file's order.
            let ordered = regions.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }
            layouts[name] = Layout(name: name, background: background, regions: ordered.map(\.element))
        }
        return layouts
    }

    private static func parseRegion(
        _ element: Any, at: String, layout: String, playlists: [String: Playlist], folder: String,
        itemSeconds: Double, transition: Double, web: WebRules, _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> LayoutRegion {
        let entry = try JSONValues.dictionary(element, at: at, fail)
        try JSONValues.rejectUnknownKeys(entry, allowed: regionKeys, at: at, fail)
        guard let name = entry["name"] as? String, !name.isEmpty else {
            throw fail(entry["name"] == nil ? at : "\(at).name", "a region needs a \"name\", a non-empty string")
        }
        func length(_ key: String, size: Bool) throws(PlaylistError) -> LayoutLength {
            guard let value = entry[key] else {
                throw fail(at, "missing \"\(key)\": pixels (a number) or a percentage of the panel (\"25%\")")
            }
            return try layoutLength(value, at: "\(at).\(key)", size: size, fail)
        }
        let (x, y) = (try length("x", size: false), try length("y", size: false))
        let (width, height) = (try length("width", size: true), try length("height", size: true))
        for (position, size, key) in [(x, width, "width"), (y, height, "height")] {
            if case let .percent(start) = position, case let .percent(extent) = size, start + extent > 100.0001 {
                throw fail(
                    at,
                    "the region ends at \(start + extent)% of the panel's \(key), past its edge; make it smaller or move it"
                )
            }
        }
        var z = 0
        if let value = entry["z"] {
            guard let number = JSONValues.integer(value) else {
                throw fail(
                    "\(at).z", "expected a whole number (higher draws on top), got \(JSONValues.describe(value))")
            }
            z = number
        }
        var background: RGBColor?
        if let value = entry["background"] { background = try color(value, at: "\(at).background", fail) }
        var fade: Double?
        if let value = entry["transition"] { fade = try transitionSeconds(value, at: "\(at).transition", fail) }
        let playlist: Playlist
        switch (entry["playlist"], entry["items"]) {
        case (nil, nil), (.some, .some):
            throw fail(
                at, "a region needs exactly one of \"playlist\" (a playlist's name) or \"items\" (a list of items)")
        case (.some, nil):
            var named = playlists[try playlistName(in: entry, at: at, playlists: playlists, fail)]!
            if let fade {
                // The region's crossfade applies to every item of the playlist it names.
                for index in named.items.indices {
                    guard fade < named.items[index].duration else {
                        throw fail(
                            "\(at).transition",
                            "the crossfade (\(fade) s) must be shorter than item \(index + 1) of playlist \"\(named.name)\" (\(named.items[index].duration) s)"
                        )
                    }
                    named.items[index].transition = fade
                }
            }
            playlist = named
        case let (nil, .some(value)):
            guard let list = value as? [Any], !list.isEmpty else {
                throw fail("\(at).items", "a region with no items shows nothing; add items or name a \"playlist\"")
            }
            var items: [PlayItem] = []
            for (index, element) in list.enumerated() {
                items += try parseItem(
                    element, at: "\(at).items[\(index)]", folder: folder, itemSeconds: itemSeconds,
                    transition: fade ?? transition, web: web, fail)
            }
            playlist = Playlist(name: "\(layout).\(name)", items: items)
        }
        return LayoutRegion(
            name: name, x: x, y: y, width: width, height: height, z: z, background: background, playlist: playlist,
            path: at)
    }

    /// Pixels (a whole number, 0 or more; more than 0 for a size) or a
    /// percentage string up to 100% ("62.5%").
    private static func layoutLength(
        _ value: Any, at: String, size: Bool, _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> LayoutLength {
        let least = size ? "more than 0" : "0 or more"
        if let text = value as? String {
            // Digits with an optional fraction, as the schema's pattern: Double() would take "5e1".
            let number = text.dropLast().split(separator: ".", omittingEmptySubsequences: false)
            guard text.hasSuffix("%"), (1...2).contains(number.count), decimalNumber(number[0]) != nil,
                number.count == 1 || decimalNumber(number[1]) != nil, let percent = Double(text.dropLast())
            else {
                throw fail(at, "expected pixels or a percentage such as \"25%\", got \"\(text)\"")
            }
            guard percent <= 100, size ? percent > 0 : percent >= 0 else {
                throw fail(at, "expected a percentage \(least), up to 100%, got \"\(text)\"")
            }
            return .percent(percent)
        }
        guard let pixels = JSONValues.integer(value), size ? pixels > 0 : pixels >= 0 else {
            throw fail(
                at,
                "expected a whole number of pixels \(least), or a percentage such as \"25%\", got \(JSONValues.describe(value))"
            )
        }
        return .pixels(pixels)
    }

    private static func color(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> RGBColor
    {
        guard let text = value as? String, let color = RGBColor(parsing: text) else {
            throw fail(at, "expected a colour RRGGBB, got \(JSONValues.describe(value))")
        }
        return color
    }

    /// The content a panel or schedule entry names: exactly one of
    /// `"playlist"` and `"layout"`. A layout plays as a one-item playlist
    /// of its own name (`layoutPlaylist`), so schedules and reloads treat
    /// both alike.
    static func contentName(
        in object: [String: Any], at: String, playlists: [String: Playlist], layouts: [String: Layout],
        _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> String {
        guard let value = object["layout"] else {
            return try playlistName(in: object, at: at, playlists: playlists, fail)
        }
        if object["playlist"] != nil { throw fail(at, "give either \"playlist\" or \"layout\", not both") }
        guard let name = value as? String else {
            throw fail("\(at).layout", "expected a layout name, got \(JSONValues.describe(value))")
        }
        guard layouts[name] != nil else {
            let known =
                layouts.isEmpty
                ? "the file has no \"layouts\"" : "the layouts are \(layouts.keys.sorted().joined(separator: ", "))"
            throw fail("\(at).layout", "no layout named \"\(name)\" (\(known))")
        }
        return name
    }

    /// A layout as a panel plays it: one item that lasts an hour at a time
    /// (its regions keep their own time), coming in with the file's crossfade.
    static func layoutPlaylist(_ layout: Layout, transition: Double) -> Playlist {
        Playlist(name: layout.name, items: [PlayItem(source: .layout(layout), duration: 3600, transition: transition)])
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
