public import Foundation
import Screenplay

/// A JSON playlist file's top level: its playlists, panels, default,
/// transition, `sync`, `timezone`, `web` and `activate_at`, and the
/// playlist or layout names its entries give. Items, layouts and schedules
/// are read by their own parsers.
extension SignageConfigLoader {
    /// `"$schema"` names the JSON Schema an editor validates the file with
    /// (docs/playlist.schema.json); `play` ignores it.
    static let topKeys: Set<String> = [
        "$schema", "playlists", "layouts", "panels", "default", "transition", "sync", "timezone",
        "activate_at", "web", "walls",
    ]
    static let panelKeys: Set<String> = ["match", "playlist", "layout", "rotate", "schedule"]

    /// Parses the JSON playlist `data` read from `file`; items without a duration last `itemSeconds`.
    public static func parse(_ data: Data, file: String, itemSeconds: Double) throws(PlaylistError) -> SignageConfig {
        func fail(_ jsonPath: String, _ reason: String) -> PlaylistError { .data(file, jsonPath, reason) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw fail(
                "",
                "not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"))")
        }
        let object = try JSONValues.dictionary(root, at: "", fail)
        try JSONValues.rejectUnknownKeys(object, allowed: topKeys, at: "", fail)
        let folder = (file as NSString).deletingLastPathComponent
        if let value = object["$schema"], !(value is String) {
            throw fail("$schema", "expected the schema's path or URL as a string, got \(JSONValues.describe(value))")
        }

        var transition = 0.0
        if let value = object["transition"] {
            transition = try PlaylistItemParser.transitionSeconds(value, at: "transition", fail)
        }
        var sync = true
        if let value = object["sync"] {
            guard let flag = JSONValues.boolean(value) else {
                throw fail("sync", "expected true or false, got \(JSONValues.describe(value))")
            }
            sync = flag
        }
        let timeZone = try ScheduleParser.parseTimeZone(object["timezone"], fail)
        let web = try WebRules(object["web"], fail)
        let activateAt = try object["activate_at"].map { value throws(PlaylistError) in
            guard let text = value as? String, let seconds = activationTime(text) else {
                throw fail(
                    "activate_at",
                    "expected a time with its zone, e.g. \"2026-12-24T18:00:00Z\" or \"2026-12-24T19:00:00+01:00\" (ISO 8601), got \(JSONValues.describe(value))"
                )
            }
            return seconds
        }
        // A file of layouts whose regions hold their own items needs no playlists.
        guard let playlistsValue = object["playlists"] ?? (object["layouts"] != nil ? [String: Any]() : nil) else {
            throw fail("", "missing \"playlists\": an object of playlist names to lists of items")
        }
        let playlistsObject = try JSONValues.dictionary(playlistsValue, at: "playlists", fail)
        guard !playlistsObject.isEmpty || object["playlists"] == nil else {
            throw fail("playlists", "no playlists; add at least one")
        }
        var playlists: [String: Playlist] = [:]
        for name in playlistsObject.keys.sorted() {
            let at = "playlists.\(name)"
            guard let list = playlistsObject[name] as? [Any] else {
                throw fail(at, "expected a list of items, got \(JSONValues.describe(playlistsObject[name]!))")
            }
            guard !list.isEmpty else { throw fail(at, "the playlist is empty; add items or remove it") }
            var items: [PlayItem] = []
            for (index, element) in list.enumerated() {
                items += try PlaylistItemParser.parseItem(
                    element, at: "\(at)[\(index)]", folder: folder, itemSeconds: itemSeconds, transition: transition,
                    web: web, fail)
            }
            playlists[name] = Playlist(name: name, items: items)
        }
        let layouts = try LayoutParser.parseLayouts(
            object["layouts"], playlists: playlists, folder: folder, itemSeconds: itemSeconds, transition: transition,
            web: web, fail)
        var panels: [PanelRule] = []
        if let value = object["panels"] {
            guard let list = value as? [Any] else {
                throw fail("panels", "expected a list of panel entries, got \(JSONValues.describe(value))")
            }
            for (index, element) in list.enumerated() {
                let at = "panels[\(index)]"
                let entry = try JSONValues.dictionary(element, at: at, fail)
                try JSONValues.rejectUnknownKeys(entry, allowed: panelKeys, at: at, fail)
                let match = try screenPattern(in: entry, at: at, fail)
                let playlist = try contentName(in: entry, at: at, playlists: playlists, layouts: layouts, fail)
                let rotate = try rotation(entry["rotate"], at: "\(at).rotate", fail)
                let schedule = try ScheduleParser.parseSchedule(
                    entry["schedule"], at: at, playlists: playlists, layouts: layouts, fail)
                panels.append(PanelRule(match: match, playlist: playlist, rotate: rotate, schedule: schedule))
            }
        }
        let walls = try WallParser.parseWalls(object["walls"], playlists: playlists, layouts: layouts, fail)
        try WallParser.checkPanels(panels, against: walls, fail)
        // A layout plays as a playlist of its name (the names cannot clash: `LayoutParser.parseLayouts`).
        for layout in layouts.values {
            playlists[layout.name] = LayoutParser.layoutPlaylist(layout, transition: transition)
        }
        var defaultPlaylist: String?
        if let value = object["default"] {
            guard let name = value as? String else {
                throw fail("default", "expected a playlist name, got \(JSONValues.describe(value))")
            }
            guard playlists[name] != nil else {
                throw fail(
                    "default",
                    "no playlist named \"\(name)\" (the playlists are \(playlists.keys.sorted().joined(separator: ", ")))"
                )
            }
            defaultPlaylist = name
        }
        if panels.isEmpty, walls.isEmpty, defaultPlaylist == nil {
            throw fail("", "no \"panels\", no \"walls\" and no \"default\": no screen would play anything")
        }
        var config = SignageConfig(
            playlists: playlists, panels: panels, defaultPlaylist: defaultPlaylist, sync: sync,
            activateAt: activateAt, source: file, timeZone: timeZone)
        config.walls = walls
        return config
    }

    /// `"activate_at"`'s text as wall-clock seconds: ISO 8601 with a zone
    /// (a time without one would mean another instant on each box), and
    /// optional fractions of a second.
    public static func activationTime(_ text: String) -> Double? {
        // The schema's pattern: Foundation alone would also take "+0100" and others.
        guard
            text.range(
                of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"#,
                options: .regularExpression) != nil
        else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    /// The content a panel or schedule entry names: exactly one of
    /// `"playlist"` and `"layout"`. A layout plays as a one-item playlist
    /// of its own name (`LayoutParser.layoutPlaylist`), so schedules and reloads treat
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

    /// The `"playlist"` an object names (a panel entry, a schedule entry): one of `playlists`.
    static func playlistName(
        in object: [String: Any], at: String, playlists: [String: Playlist], _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> String {
        guard let value = object["playlist"] else { throw fail(at, "missing \"playlist\": the name of a playlist") }
        guard let name = value as? String else {
            throw fail("\(at).playlist", "expected a playlist name, got \(JSONValues.describe(value))")
        }
        guard playlists[name] != nil else {
            throw fail(
                "\(at).playlist",
                "no playlist named \"\(name)\" (the playlists are \(playlists.keys.sorted().joined(separator: ", ")))")
        }
        return name
    }

    /// A panel's or tile's `"rotate"`: how it hangs, 0 when not given.
    static func rotation(_ value: Any?, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> Int
    {
        guard let value else { return 0 }
        guard let number = JSONValues.integer(value), [0, 90, 180, 270].contains(number) else {
            throw fail(at, "expected 0, 90, 180 or 270, got \(JSONValues.describe(value))")
        }
        return number
    }

    /// A panel's or tile's `"match"`: a usable screen pattern.
    static func screenPattern(in entry: [String: Any], at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> String
    {
        guard let value = entry["match"] else {
            throw fail(at, "missing \"match\": a screen name, description or glob")
        }
        guard let match = value as? String else {
            throw fail("\(at).match", "expected a string, got \(JSONValues.describe(value))")
        }
        if let problem = patternProblem(match) { throw fail("\(at).match", problem) }
        return match
    }

    /// Why a panel pattern cannot be used, or nil.
    static func patternProblem(_ pattern: String) -> String? {
        if pattern.trimmingCharacters(in: .whitespaces).isEmpty {
            return "the pattern is empty; give a screen name, description or glob"
        }
        var depth = 0
        var escaped = false
        for character in pattern {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "[": depth += 1
            case "]": depth = max(0, depth - 1)
            default: break
            }
        }
        if depth > 0 { return "unclosed '[' in \"\(pattern)\" (write \\[ for a literal bracket)" }
        return nil
    }
}
