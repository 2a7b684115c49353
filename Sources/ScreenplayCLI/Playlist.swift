import Documents
import Foundation
import Screenplay

// The signage configuration of `screenplay play`: a folder or a JSON
// playlist file, read strictly (unknown keys and wrong types are errors
// naming the JSON path) so a typo never silently plays the wrong thing.

/// One thing a playlist shows.
struct PlayItem: Equatable {
    enum Source: Equatable {
        case color(RGBColor)
        case image(path: String)
        /// A page of a PDF, 0-based.
        case pdfPage(path: String, page: Int)
        case shader(path: String)
        /// A video: `loops` when the item gives its own duration (looped to
        /// fill it, or cut); `problem` when libmpv could not open it as the
        /// playlist was read (the item is skipped with that reason).
        case video(path: String, loops: Bool, problem: String?)
        /// A file the playlist names that is not there or not readable (yet:
        /// a copy may still be running). Skipped with `reason` until the
        /// file appears, which reloads the playlist.
        case missing(path: String, reason: String)
        /// Text, a text file or a clock, laid out by pango (`TextItems.swift`).
        case text(TextItem)
        /// A whole panel of regions, each playing its own items (`Layout.swift`).
        case layout(Layout)
        /// A web page (`WebItems.swift`).
        case web(WebItem)
    }

    var source: Source
    /// Seconds on screen, counting its crossfade in.
    var duration: Double
    /// Seconds of the crossfade from the item before into this one (0: a cut).
    var transition: Double

    /// For logs and proof of play: the file (with `#page=N` for PDFs) or the colour.
    var label: String {
        switch source {
        case let .color(color): "#" + String(format: "%06X", color.hex)
        case let .image(path), let .shader(path), let .video(path, _, _), let .missing(path, _): path
        case let .pdfPage(path, page): "\(path)#page=\(page + 1)"
        case let .text(item): item.label
        case let .layout(layout): "layout \(layout.name)"
        case let .web(page): page.url
        }
    }

    /// The file the item reads, if any.
    var path: String? {
        switch source {
        case .color, .layout: nil
        case let .web(page): page.localFile
        case let .text(item): item.path
        case let .image(path), let .shader(path), let .pdfPage(path, _), let .video(path, _, _), let .missing(path, _):
            path
        }
    }
}

/// A named list of items.
struct Playlist: Equatable {
    var name: String
    var items: [PlayItem]
    var totalSeconds: Double { items.reduce(0) { $0 + $1.duration } }
}

/// Which screens play which playlist.
struct PanelRule: Equatable {
    var match: String
    var playlist: String
    /// How the panel hangs: turned this many degrees clockwise (0, 90, 180, 270).
    var rotate: Int
    /// Other playlists at set times; `playlist` plays when no entry is active.
    var schedule: [ScheduleEntry] = []
}

/// The whole configuration of one `play` run.
struct SignageConfig: Equatable {
    var playlists: [String: Playlist]
    var panels: [PanelRule]
    var defaultPlaylist: String?
    var sync: Bool
    /// `"activate_at"` (wall-clock seconds): a reload takes over at this
    /// instant on every panel at once, not at each panel's next item.
    var activateAt: Double?
    /// The folder or file it was read from.
    var source: String
    /// The zone schedules read their days and times in (`"timezone"`).
    var timeZone: TimeZone = .current

    /// Every file the items read, to watch for a file that arrives or
    /// changes. A text file is left out: its item re-reads it itself and
    /// redraws, where a reload would re-read (and re-probe) every item of
    /// every playlist each time a news file is edited.
    var mediaFiles: Set<String> {
        Set(
            playlists.values.flatMap {
                $0.items.flatMap(\.playedItems).filter { !$0.watchesItsFile }.compactMap(\.path)
            })
    }

    /// The playlist and rotation for a screen: the first matching panel
    /// entry, else the default; nil when the screen gets nothing.
    func assignment(name: String, description: String, make: String, model: String, serial: String?)
        -> (playlist: Playlist, rotate: Int, schedule: PanelSchedule?)?
    {
        for (index, rule) in panels.enumerated()
        where panelMatches(rule.match, name: name, description: description, make: make, model: model, serial: serial) {
            if let playlist = playlists[rule.playlist] { return (playlist, rule.rotate, panelSchedule(index)) }
        }
        return defaultPlaylist.flatMap { playlists[$0] }.map { ($0, 0, nil) }
    }

    /// The playlist and rotation of `screen`, matched on the fields
    /// `--output` and `ctl` match: make, model and serial number from its
    /// output-management head where the compositor has one (the wl_output
    /// itself carries no serial number).
    @MainActor
    func assignment(for screen: Screen) -> (playlist: Playlist, rotate: Int, schedule: PanelSchedule?)? {
        assignment(
            name: screen.name, description: screen.displayDescription, make: screen.make, model: screen.model,
            serial: screen.serial)
    }
}

/// A panel pattern matches as `--output` does (`ScreenPattern`: name,
/// description, make, model or serial, glob, case-insensitive).
func panelMatches(_ pattern: String, name: String, description: String, make: String, model: String, serial: String?)
    -> Bool
{
    ScreenPattern(pattern).matches(name: name, description: description, make: make, model: model, serial: serial)
}

/// A whole number written in ASCII digits alone ("07", not "+7" or "٧"),
/// as docs/playlist.schema.json's patterns say; `Int("+7")` would take it.
func decimalNumber(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(text)
}

/// A configuration that cannot be used: exit 65 (bad data) or 66 (a media
/// file missing), with the file and the JSON path named.
struct PlaylistError: Error, Equatable, CustomStringConvertible {
    var code: ExitCode
    var description: String

    static func data(_ file: String, _ jsonPath: String, _ reason: String) -> PlaylistError {
        PlaylistError(code: .dataError, description: "\(file): \(jsonPath.isEmpty ? "" : "\(jsonPath): ")\(reason)")
    }
}

enum SignageConfigLoader {
    /// Reads a folder or a `.json` playlist file.
    static func load(path: String, itemSeconds: Double) throws(PlaylistError) -> SignageConfig {
        try read(path: path, itemSeconds: itemSeconds).config
    }

    /// Reads a folder or a `.json` playlist file; for a file, also the
    /// bytes that parsed (kept as the last good playlist).
    static func read(path: String, itemSeconds: Double) throws(PlaylistError) -> (config: SignageConfig, json: Data?) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PlaylistError(
                code: .noInput,
                description: "\(path): no such file or folder; give a folder of media or a .json playlist")
        }
        if isDirectory.boolValue { return (try folder(path, itemSeconds: itemSeconds), nil) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlaylistError(code: .noInput, description: "cannot read \(path): \(readReason(path))")
        }
        return (try parse(data, file: path, itemSeconds: itemSeconds), data)
    }

    // MARK: folders

    static func folder(_ path: String, itemSeconds: Double) throws(PlaylistError) -> SignageConfig {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }
                .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        } catch {
            throw PlaylistError(code: .noInput, description: "cannot read the folder \(path): \(readReason(path))")
        }
        var items: [PlayItem] = []
        for name in names {
            let file = (path as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            // Recognised as `present` recognises a file; anything else is libmpv's to judge.
            switch PresentCommand.Content.file(file) {
            case .pdf?:
                items += pdfPages(file, pages: nil).map { PlayItem(source: $0, duration: itemSeconds, transition: 0) }
            case .image?:
                items.append(PlayItem(source: .image(path: file), duration: itemSeconds, transition: 0))
            case .shader?:
                items.append(PlayItem(source: .shader(path: file), duration: itemSeconds, transition: 0))
            default:
                // Anything else is video if libmpv decodes a frame of it.
                let (source, length) = videoItem(file, duration: nil, itemSeconds: itemSeconds)
                if case let .video(_, _, problem?) = source {
                    warn("\(file): skipped, not an image, PDF, shader or video (\(problem))")
                } else {
                    items.append(PlayItem(source: source, duration: length, transition: 0))
                }
            }
        }
        // An empty folder is a box whose content has not arrived yet (the
        // sync runs after boot): it shows the placeholder saying so and plays
        // once files come, instead of exiting and being restarted by systemd
        // until its start limit gives up on the box. A folder that does not
        // exist is still an error (66): that is a typo, not a wait.
        if items.isEmpty {
            items = [
                PlayItem(
                    source: .missing(
                        path: path,
                        reason: "the folder has no images, PDFs, shaders or videos yet; it plays once files arrive"),
                    duration: itemSeconds, transition: 0)
            ]
        }
        let name = (path as NSString).lastPathComponent
        return SignageConfig(
            playlists: [name: Playlist(name: name, items: items)], panels: [], defaultPlaylist: name, sync: true,
            source: path)
    }

    /// A video item and the seconds it lasts: its own length as libmpv's
    /// probe measures it (which also decodes its first frame), unless the
    /// playlist gives a `duration`; then it loops to fill it or is cut. A
    /// file libmpv cannot play keeps its reason and is skipped when its
    /// turn comes; one without a known length lasts `itemSeconds`, looping.
    static func videoItem(_ file: String, duration: Double?, itemSeconds: Double) -> (PlayItem.Source, Double) {
        do {
            let info = try VideoPlayer.probe(path: file)
            if let duration { return (.video(path: file, loops: true, problem: nil), duration) }
            guard info.duration > 0 else { return (.video(path: file, loops: true, problem: nil), itemSeconds) }
            return (.video(path: file, loops: false, problem: nil), info.duration)
        } catch {
            return (.video(path: file, loops: duration != nil, problem: error.reason), duration ?? itemSeconds)
        }
    }

    /// A PDF's pages as items; one page-0 item when the document cannot be
    /// opened (it is skipped at run time with the reason, as corrupt media is).
    static func pdfPages(_ file: String, pages: [Int]?) -> [PlayItem.Source] {
        if let pages { return pages.map { .pdfPage(path: file, page: $0) } }
        guard let document = try? PDFDocument.open(path: file) else { return [.pdfPage(path: file, page: 0)] }
        return (0..<document.pageCount).map { .pdfPage(path: file, page: $0) }
    }

    // MARK: JSON

    /// `"$schema"` names the JSON Schema an editor validates the file with
    /// (docs/playlist.schema.json); `play` ignores it.
    static let topKeys: Set<String> = [
        "$schema", "playlists", "layouts", "panels", "default", "transition", "sync", "timezone",
        "activate_at", "web",
    ]
    static let itemKeys: Set<String> = Set(["file", "color", "web", "duration", "pages", "transition"])
        .union(FileIntegrity.keys)  // fleet: checked when the playlist comes from a URL
    static let panelKeys: Set<String> = ["match", "playlist", "layout", "rotate", "schedule"]
    static let transitionKeys: Set<String> = ["seconds"]

    static func parse(_ data: Data, file: String, itemSeconds: Double) throws(PlaylistError) -> SignageConfig {
        func fail(_ jsonPath: String, _ reason: String) -> PlaylistError { .data(file, jsonPath, reason) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw fail(
                "",
                "not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"))")
        }
        let object = try dictionary(root, at: "", fail)
        try rejectUnknownKeys(object, allowed: topKeys, at: "", fail)
        let folder = (file as NSString).deletingLastPathComponent
        if let value = object["$schema"], !(value is String) {
            throw fail("$schema", "expected the schema's path or URL as a string, got \(describe(value))")
        }

        var transition = 0.0
        if let value = object["transition"] { transition = try transitionSeconds(value, at: "transition", fail) }
        var sync = true
        if let value = object["sync"] {
            guard let flag = boolean(value) else {
                throw fail("sync", "expected true or false, got \(describe(value))")
            }
            sync = flag
        }
        let timeZone = try parseTimeZone(object["timezone"], fail)
        let web = try WebRules(object["web"], fail)
        let activateAt = try object["activate_at"].map { value throws(PlaylistError) in
            guard let text = value as? String, let seconds = activationTime(text) else {
                throw fail(
                    "activate_at",
                    "expected a time with its zone, e.g. \"2026-12-24T18:00:00Z\" or \"2026-12-24T19:00:00+01:00\" (ISO 8601), got \(describe(value))"
                )
            }
            return seconds
        }
        // A file of layouts whose regions hold their own items needs no playlists.
        guard let playlistsValue = object["playlists"] ?? (object["layouts"] != nil ? [String: Any]() : nil) else {
            throw fail("", "missing \"playlists\": an object of playlist names to lists of items")
        }
        let playlistsObject = try dictionary(playlistsValue, at: "playlists", fail)
        guard !playlistsObject.isEmpty || object["playlists"] == nil else {
            throw fail("playlists", "no playlists; add at least one")
        }
        var playlists: [String: Playlist] = [:]
        for name in playlistsObject.keys.sorted() {
            let at = "playlists.\(name)"
            guard let list = playlistsObject[name] as? [Any] else {
                throw fail(at, "expected a list of items, got \(describe(playlistsObject[name]!))")
            }
            guard !list.isEmpty else { throw fail(at, "the playlist is empty; add items or remove it") }
            var items: [PlayItem] = []
            for (index, element) in list.enumerated() {
                items += try parseItem(
                    element, at: "\(at)[\(index)]", folder: folder, itemSeconds: itemSeconds, transition: transition,
                    web: web, fail)
            }
            playlists[name] = Playlist(name: name, items: items)
        }
        let layouts = try parseLayouts(
            object["layouts"], playlists: playlists, folder: folder, itemSeconds: itemSeconds, transition: transition,
            web: web, fail)
        var panels: [PanelRule] = []
        if let value = object["panels"] {
            guard let list = value as? [Any] else {
                throw fail("panels", "expected a list of panel entries, got \(describe(value))")
            }
            for (index, element) in list.enumerated() {
                let at = "panels[\(index)]"
                let entry = try dictionary(element, at: at, fail)
                try rejectUnknownKeys(entry, allowed: panelKeys, at: at, fail)
                guard let matchValue = entry["match"] else {
                    throw fail(at, "missing \"match\": a screen name, description or glob")
                }
                guard let match = matchValue as? String else {
                    throw fail("\(at).match", "expected a string, got \(describe(matchValue))")
                }
                if let problem = patternProblem(match) { throw fail("\(at).match", problem) }
                let playlist = try contentName(in: entry, at: at, playlists: playlists, layouts: layouts, fail)
                var rotate = 0
                if let rotateValue = entry["rotate"] {
                    guard let number = integer(rotateValue), [0, 90, 180, 270].contains(number) else {
                        throw fail("\(at).rotate", "expected 0, 90, 180 or 270, got \(describe(rotateValue))")
                    }
                    rotate = number
                }
                let schedule = try parseSchedule(
                    entry["schedule"], at: at, playlists: playlists, layouts: layouts, fail)
                panels.append(PanelRule(match: match, playlist: playlist, rotate: rotate, schedule: schedule))
            }
        }
        // A layout plays as a playlist of its name (the names cannot clash: parseLayouts).
        for layout in layouts.values { playlists[layout.name] = layoutPlaylist(layout, transition: transition) }
        var defaultPlaylist: String?
        if let value = object["default"] {
            guard let name = value as? String else {
                throw fail("default", "expected a playlist name, got \(describe(value))")
            }
            guard playlists[name] != nil else {
                throw fail(
                    "default",
                    "no playlist named \"\(name)\" (the playlists are \(playlists.keys.sorted().joined(separator: ", ")))"
                )
            }
            defaultPlaylist = name
        }
        if panels.isEmpty, defaultPlaylist == nil {
            throw fail("", "no \"panels\" and no \"default\": no screen would play anything")
        }
        return SignageConfig(
            playlists: playlists, panels: panels, defaultPlaylist: defaultPlaylist, sync: sync,
            activateAt: activateAt, source: file, timeZone: timeZone)
    }

    /// `"activate_at"`'s text as wall-clock seconds: ISO 8601 with a zone
    /// (a time without one would mean another instant on each box), and
    /// optional fractions of a second.
    static func activationTime(_ text: String) -> Double? {
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

    static func parseItem(
        _ element: Any, at: String, folder: String, itemSeconds: Double, transition: Double,
        web: WebRules = WebRules(), _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> [PlayItem] {
        let entry = try dictionary(element, at: at, fail)
        let isText = isTextItem(entry)
        try rejectUnknownKeys(entry, allowed: isText ? textItemKeys : itemKeys, at: at, fail)
        var duration = itemSeconds
        var ownDuration: Double?
        if let value = entry["duration"] {
            guard let seconds = number(value), seconds > 0, seconds.isFinite else {
                throw fail("\(at).duration", "expected a positive number of seconds, got \(describe(value))")
            }
            duration = seconds
            ownDuration = seconds
        }
        var fade = transition
        if let value = entry["transition"] { fade = try transitionSeconds(value, at: "\(at).transition", fail) }
        let sources: [PlayItem.Source]
        switch (entry["file"], entry["color"]) {
        case _ where entry["web"] != nil && !isText:
            if let other = ["file", "color", "pages"].first(where: { entry[$0] != nil }) {
                throw fail("\(at).\(other)", "a web item has \"web\" and no \"\(other)\"")
            }
            if let key = FileIntegrity.keys.sorted().first(where: { entry[$0] != nil }) {
                throw fail("\(at).\(key)", "\"\(key)\" applies to file items only")
            }
            sources = [try WebItem.source(entry["web"]!, at: "\(at).web", folder: folder, rules: web, fail)]
        case _ where isText: sources = [.text(try parseTextItem(entry, at: at, folder: folder, fail))]
        case (nil, nil):
            throw fail(
                at,
                "an item needs \"file\" (image, PDF, shader or video), \"color\" (RRGGBB), \"text\", \"text-file\", \"clock\" or \"web\" (a page)"
            )
        case (.some, .some):
            throw fail(at, "an item has either \"file\" or \"color\", not both")
        case let (nil, .some(value)):
            if let key = FileIntegrity.keys.sorted().first(where: { entry[$0] != nil }) {
                throw fail("\(at).\(key)", "\"\(key)\" applies to file items only")  // fleet
            }
            guard let text = value as? String, let color = RGBColor(parsing: text) else {
                throw fail("\(at).color", "expected RRGGBB, got \(describe(value))")
            }
            if entry["pages"] != nil { throw fail("\(at).pages", "\"pages\" applies to PDF files only") }
            sources = [.color(color)]
        case let (.some(value), nil):
            guard let relative = value as? String, !relative.isEmpty else {
                throw fail("\(at).file", "expected a file path, got \(describe(value))")
            }
            let path = relative.hasPrefix("/") ? relative : (folder as NSString).appendingPathComponent(relative)
            _ = try FileIntegrity(entry, at: at, fail)  // fleet: "sha256" and "bytes" well-formed
            if !FileManager.default.fileExists(atPath: path) {
                // Not there yet: a bad item until it arrives (the playlist
                // reloads then), as it would be on a reload.
                sources = [.missing(path: path, reason: "no such file (\(at).file); it plays once it is there")]
            } else if access(path, R_OK) != 0 {
                sources = [
                    .missing(
                        path: path,
                        reason: "cannot read it (\(at).file): \(readReason(path)); it plays once it is readable")
                ]
            } else if let pagesValue = entry["pages"] {
                guard case .pdf? = PresentCommand.Content.file(path) else {
                    throw fail("\(at).pages", "\"pages\" applies to PDF files only; \(path) is not a PDF")
                }
                guard let text = pagesValue as? String, let pages = parsePages(text) else {
                    throw fail("\(at).pages", "expected pages like \"1-3\" or \"1,4,6-8\", got \(describe(pagesValue))")
                }
                if let count = (try? PDFDocument.open(path: path))?.pageCount,
                    let bad = pages.first(where: { $0 >= count })
                {
                    throw fail("\(at).pages", "page \(bad + 1) does not exist: \(path) has \(count) pages")
                }
                sources = pdfPages(path, pages: pages)
            } else {
                switch PresentCommand.Content.file(path) {
                case .pdf?: sources = pdfPages(path, pages: nil)
                case .shader?: sources = [.shader(path: path)]
                case .image?: sources = [.image(path: path)]
                // Neither image nor PDF by its bytes: libmpv's to judge. A file
                // it cannot play is skipped at run time with its reason.
                default:
                    let (source, length) = videoItem(path, duration: ownDuration, itemSeconds: itemSeconds)
                    sources = [source]
                    duration = length
                }
            }
        }
        if fade >= duration {
            throw fail(
                at,
                "the crossfade (\(fade) s) must be shorter than the item's duration (\(duration) s\(ownDuration == nil && sources.first.map(isVideo) == true ? ", the video's length" : ""))"
            )
        }
        return sources.map { PlayItem(source: $0, duration: duration, transition: fade) }
    }

    private static func isVideo(_ source: PlayItem.Source) -> Bool {
        if case .video = source { return true }
        return false
    }

    /// "1-3", "2", "1,4,6-8" (1-based, inclusive) as 0-based page indexes.
    static func parsePages(_ text: String) -> [Int]? {
        var pages: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.trimmingCharacters(in: .whitespaces).split(
                separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let low = decimalNumber(bounds[0]), low >= 1 else { return nil }
            let high = bounds.count == 2 ? decimalNumber(bounds[1]) : low
            guard let high, high >= low, high - low < 100_000 else { return nil }
            pages += (low...high).map { $0 - 1 }
        }
        return pages.isEmpty ? nil : pages
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

    static func transitionSeconds(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> Double
    {
        let object = try dictionary(value, at: at, fail)
        try rejectUnknownKeys(object, allowed: transitionKeys, at: at, fail)
        guard let secondsValue = object["seconds"] else { throw fail(at, "missing \"seconds\" (0 for a cut)") }
        guard let seconds = number(secondsValue), seconds >= 0, seconds.isFinite else {
            throw fail("\(at).seconds", "expected a number of seconds, 0 or more, got \(describe(secondsValue))")
        }
        return seconds
    }

    /// The `"playlist"` an object names (a panel entry, a schedule entry): one of `playlists`.
    static func playlistName(
        in object: [String: Any], at: String, playlists: [String: Playlist], _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> String {
        guard let value = object["playlist"] else { throw fail(at, "missing \"playlist\": the name of a playlist") }
        guard let name = value as? String else {
            throw fail("\(at).playlist", "expected a playlist name, got \(describe(value))")
        }
        guard playlists[name] != nil else {
            throw fail(
                "\(at).playlist",
                "no playlist named \"\(name)\" (the playlists are \(playlists.keys.sorted().joined(separator: ", ")))")
        }
        return name
    }

    static func dictionary(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> [String: Any]
    {
        guard let object = value as? [String: Any] else { throw fail(at, "expected an object, got \(describe(value))") }
        return object
    }

    static func rejectUnknownKeys(
        _ object: [String: Any], allowed: Set<String>, at: String, _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw fail(
                at.isEmpty ? unknown : "\(at).\(unknown)",
                "unknown key \"\(unknown)\" (expected \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func boolean(_ value: Any) -> Bool? {
        isBoolean(value) ? (value as? NSNumber)?.boolValue : nil
    }

    static func number(_ value: Any) -> Double? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    static func integer(_ value: Any) -> Int? {
        guard let double = number(value), double == double.rounded(), abs(double) < 1e9 else { return nil }
        return Int(double)
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case _ where isBoolean(value): "\((value as? NSNumber)?.boolValue == true ? "true" : "false")"
        case let number as NSNumber: "\(number)"
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        default: "\(type(of: value))"
        }
    }
}
