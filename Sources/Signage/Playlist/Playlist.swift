public import Foundation
public import Screenplay

// The signage configuration of `screenplay play`: a folder or a JSON
// playlist file, read strictly (unknown keys and wrong types are errors
// naming the JSON path) so a typo never silently plays the wrong thing.

/// One thing a playlist shows.
public struct PlayItem: Equatable {
    /// What the item shows.
    public enum Source: Equatable {
        /// A solid colour.
        case color(RGBColor)
        /// An image file.
        case image(path: String)
        /// A page of a PDF, 0-based.
        case pdfPage(path: String, page: Int)
        /// A GLSL ES fragment shader file.
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

    /// What it shows.
    public var source: Source
    /// Seconds on screen, counting its crossfade in.
    public var duration: Double
    /// Seconds of the crossfade from the item before into this one (0: a cut).
    public var transition: Double

    /// An item showing `source` for `duration` seconds, faded in over `transition`.
    public init(source: Source, duration: Double, transition: Double) {
        self.source = source
        self.duration = duration
        self.transition = transition
    }

    /// For logs and proof of play: the file (with `#page=N` for PDFs) or the colour.
    public var label: String {
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
    public var path: String? {
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
public struct Playlist: Equatable {
    /// Its name in the file (a folder's: the folder's name).
    public var name: String
    /// Its items, in playing order.
    public var items: [PlayItem]
    var totalSeconds: Double { items.reduce(0) { $0 + $1.duration } }
}

/// Which screens play which playlist.
public struct PanelRule: Equatable {
    var match: String
    var playlist: String
    /// How the panel hangs: turned this many degrees clockwise (0, 90, 180, 270).
    var rotate: Int
    /// Other playlists at set times; `playlist` plays when no entry is active.
    var schedule: [ScheduleEntry] = []
}

/// The whole configuration of one `play` run.
public struct SignageConfig: Equatable {
    /// Every playlist (and layout, as a one-item playlist), by name.
    public var playlists: [String: Playlist]
    var panels: [PanelRule]
    /// What screens no panel entry matches play; nil: they show nothing.
    public var defaultPlaylist: String?
    /// `"sync"`: the wall clock places every panel in its playlist.
    public var sync: Bool
    /// `"activate_at"` (wall-clock seconds): a reload takes over at this
    /// instant on every panel at once, not at each panel's next item.
    public var activateAt: Double?
    /// The folder or file it was read from.
    public var source: String
    /// The zone schedules read their days and times in (`"timezone"`).
    public var timeZone: TimeZone = .current
    /// Screens that show one picture together (`"walls"`).
    public var walls: [Wall] = []

    /// A configuration of `playlists`, matched to screens by `panels`
    /// (else `defaultPlaylist`), read from `source`.
    public init(
        playlists: [String: Playlist], panels: [PanelRule], defaultPlaylist: String?, sync: Bool,
        activateAt: Double? = nil, source: String, timeZone: TimeZone = .current
    ) {
        self.playlists = playlists
        self.panels = panels
        self.defaultPlaylist = defaultPlaylist
        self.sync = sync
        self.activateAt = activateAt
        self.source = source
        self.timeZone = timeZone
    }

    /// Every file the items read, to watch for a file that arrives or
    /// changes. A text file is left out: its item re-reads it itself and
    /// redraws, where a reload would re-read (and re-probe) every item of
    /// every playlist each time a news file is edited.
    public var mediaFiles: Set<String> {
        Set(
            playlists.values.flatMap {
                $0.items.flatMap(\.playedItems).filter { !$0.watchesItsFile }.compactMap(\.path)
            })
    }

    /// What a screen plays: the wall tile it is (its part of the wall's
    /// canvas worked out with `facts`), else the first matching panel
    /// entry, else the default; nil when the screen gets nothing.
    func assignment(
        name: String, description: String, make: String, model: String, serial: String?,
        facts: WallGeometry.ScreenFacts? = nil
    ) -> PanelAssignment.Entry? {
        let matches = { (pattern: String) in
            panelMatches(pattern, name: name, description: description, make: make, model: model, serial: serial)
        }
        if let (wall, index) = tile(matching: matches) {
            guard let playlist = playlists[wall.playlist],
                let views = try? WallGeometry.views(of: wall, screen: facts)
            else { return nil }
            return PanelAssignment.Entry(
                playlist: playlist, rotate: wall.tiles[index].rotate, schedule: nil, tile: views[index])
        }
        for (index, rule) in panels.enumerated() where matches(rule.match) {
            if let playlist = playlists[rule.playlist] {
                return PanelAssignment.Entry(playlist: playlist, rotate: rule.rotate, schedule: panelSchedule(index))
            }
        }
        return defaultPlaylist.flatMap { playlists[$0] }.map {
            PanelAssignment.Entry(playlist: $0, rotate: 0, schedule: nil)
        }
    }

    /// The wall and tile index whose pattern `matches` says names the screen.
    func tile(matching matches: (String) -> Bool) -> (Wall, Int)? {
        for wall in walls {
            if let index = wall.tiles.firstIndex(where: { matches($0.match) }) { return (wall, index) }
        }
        return nil
    }

    /// What `screen` plays, matched on the fields `--output` and `ctl`
    /// match: make, model and serial number from its output-management
    /// head where the compositor has one (the wl_output itself carries no
    /// serial number).
    @MainActor
    public func assignment(for screen: Screen) -> PanelAssignment.Entry? {
        assignment(
            name: screen.name, description: screen.displayDescription, make: screen.make, model: screen.model,
            serial: screen.serial, facts: screen.wallFacts)
    }

    /// Why `screen`, a tile of a wall, cannot show its part (the wall
    /// leaves a size to the screen, which does not give it); nil otherwise.
    @MainActor
    public func wallProblem(for screen: Screen) -> String? {
        guard let (wall, _) = tile(matching: { ScreenPattern($0).matches(screen) }) else { return nil }
        do {
            _ = try WallGeometry.views(of: wall, screen: screen.wallFacts)
            return nil
        } catch {
            return "\(source): \(error.path): \(error.reason)"
        }
    }
}

extension Screen {
    /// The mode and physical size, unturned, a wall takes where its file is silent.
    var wallFacts: WallGeometry.ScreenFacts {
        let mode = currentMode.map { ($0.width, $0.height) } ?? (0, 0)
        return WallGeometry.ScreenFacts(pixels: mode, millimetres: physicalSizeMillimeters)
    }
}

/// A panel pattern matches as `--output` does (`ScreenPattern`: name,
/// description, make, model or serial, glob, case-insensitive).
func panelMatches(
    _ pattern: String, name: String, description: String, make: String, model: String, serial: String?
)
    -> Bool
{
    ScreenPattern(pattern).matches(name: name, description: description, make: make, model: model, serial: serial)
}

/// A whole number written in ASCII digits alone ("07", not "+7" or "٧"),
/// as docs/playlist.schema.json's patterns say; `Int("+7")` would take it.
public func decimalNumber(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(text)
}

/// A configuration that cannot be used: exit 65 (bad data) or 66 (a media
/// file missing), with the file and the JSON path named.
public struct PlaylistError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, which decides a tool's exit status.
    public enum Code: Equatable, Sendable {
        /// The file says something the player cannot use (sysexits' EX_DATAERR, 65).
        case dataError
        /// The file or folder cannot be read (EX_NOINPUT, 66).
        case noInput
    }

    /// What is wrong.
    public var code: Code
    /// One line: the file, the JSON path, the reason.
    public var description: String

    /// An error of `code` saying `description`.
    public init(code: Code, description: String) {
        self.code = code
        self.description = description
    }

    /// Bad data (65) in `file` at `jsonPath` ("playlists.lobby[2].file"; empty for the whole file).
    public static func data(_ file: String, _ jsonPath: String, _ reason: String) -> PlaylistError {
        PlaylistError(code: .dataError, description: "\(file): \(jsonPath.isEmpty ? "" : "\(jsonPath): ")\(reason)")
    }
}
