import Foundation

/// A panel entry's schedule with the playlists it names: a panel keeps its
/// own copy, so after a reload it plays on unchanged until it takes the new
/// file at an item boundary.
public struct PanelSchedule: Equatable {
    /// When each entry plays.
    public var timetable: SignageSchedule
    /// The playlists the entries and the fallback name.
    public var playlists: [String: Playlist]
    /// The panel entry's JSON path (`panels[0]`): entries are named by
    /// their place in the file, in `ctl status` and in the log.
    var path: String

    /// The playlist `content` names.
    public func playlist(_ content: ScheduledContent) -> Playlist {
        // The loader refused every name that is not a playlist.
        playlists[content.name]!
    }

    /// `panels[0].schedule[1]`, or `panels[0].playlist` for the entry's own playlist.
    public func name(of active: SignageSchedule.Active) -> String {
        active.entry.map { "\(path).schedule[\($0)]" } ?? "\(path).playlist"
    }
}

extension SignageConfig {
    /// The schedule of panel entry `index`, nil when it has none (it then
    /// plays its playlist as before, on the epoch's clock).
    func panelSchedule(_ index: Int) -> PanelSchedule? {
        let rule = panels[index]
        guard !rule.schedule.isEmpty else { return nil }
        let names = Set(rule.schedule.map(\.content.name) + [rule.playlist])
        return PanelSchedule(
            timetable: SignageSchedule(entries: rule.schedule, fallback: .playlist(rule.playlist), timeZone: timeZone),
            playlists: playlists.filter { names.contains($0.key) }, path: "panels[\(index)]")
    }
}
