import Foundation
import Screenplay

/// The `"layouts"` part of the playlist file: named regions of a panel,
/// each playing its own playlist. Read as strictly as the rest (each
/// mistake names its JSON path); what only the panel's size can tell (a
/// region past its edge) is checked when the layout meets a panel
/// (`Layout.misfit`).
enum LayoutParser {
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
            if let value = entry["background"] {
                background = try JSONValues.color(value, at: "\(at).background", fail)
            }
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
        if let value = entry["background"] { background = try JSONValues.color(value, at: "\(at).background", fail) }
        var fade: Double?
        if let value = entry["transition"] {
            fade = try PlaylistItemParser.transitionSeconds(value, at: "\(at).transition", fail)
        }
        let playlist: Playlist
        switch (entry["playlist"], entry["items"]) {
        case (nil, nil), (.some, .some):
            throw fail(
                at, "a region needs exactly one of \"playlist\" (a playlist's name) or \"items\" (a list of items)")
        case (.some, nil):
            var named = playlists[try SignageConfigLoader.playlistName(in: entry, at: at, playlists: playlists, fail)]!
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
                items += try PlaylistItemParser.parseItem(
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

    /// A layout as a panel plays it: one item that lasts an hour at a time
    /// (its regions keep their own time), coming in with the file's crossfade.
    static func layoutPlaylist(_ layout: Layout, transition: Double) -> Playlist {
        Playlist(name: layout.name, items: [PlayItem(source: .layout(layout), duration: 3600, transition: transition)])
    }
}
