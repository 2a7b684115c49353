import Foundation
public import Screenplay

/// What a panel entry says a panel plays: its playlist and, with a
/// schedule, the other playlists it names and when. It keeps the
/// schedule's next change as last worked out, so a panel's every
/// evaluation does not search the timetable again.
public struct PanelAssignment {
    /// A panel entry: its playlist, how the panel hangs, its schedule.
    public struct Entry: Equatable {
        /// The playlist it plays without a schedule (or the schedule's default).
        public var playlist: Playlist
        /// How the panel hangs: degrees clockwise (0, 90, 180, 270).
        public var rotate: Int
        /// When it plays which of its playlists; nil: `playlist` always.
        public var schedule: PanelSchedule?
        /// A wall's tile: its part of the wall's canvas; nil for a panel.
        public var tile: CanvasPart?

        /// A panel entry playing `playlist`, hung `rotate` degrees, on
        /// `schedule`; a wall's `tile` shows its part of the canvas.
        public init(playlist: Playlist, rotate: Int, schedule: PanelSchedule?, tile: CanvasPart? = nil) {
            self.playlist = playlist
            self.rotate = rotate
            self.schedule = schedule
            self.tile = tile
        }

        /// The content goes onto the screen one to one: not turned, not a
        /// tile's part of a canvas; so a layout's moving regions are the
        /// screen's rectangles to repaint.
        public var drawsOneToOne: Bool { rotate == 0 && tile == nil }

        /// The size content is drawn at on a screen of `size` pixels: a
        /// tile's whole canvas; a turned panel's size with width and height swapped.
        public func contentSize(onScreen size: (width: Int, height: Int)) -> (Int, Int) {
            if let tile { return (tile.canvasWidth, tile.canvasHeight) }
            return rotate % 180 == 0 ? (size.width, size.height) : (size.height, size.width)
        }
    }

    /// The entry in force.
    public let entry: Entry
    private var schedule: PanelSchedule? { entry.schedule }
    /// The schedule's next change as last worked out, and the time it was
    /// asked at: it holds until then unless the clock steps back.
    private var change: (asked: Double, at: Double?)?

    /// The assignment of `entry`, its schedule's next change not yet worked out.
    public init(_ entry: Entry) {
        self.entry = entry
    }

    /// The schedule's next change is worked out afresh (the clock stepped, a switch came).
    public mutating func forgetChange() { change = nil }

    /// The playlist the schedule says at `time`, and its entry's name; nil without a schedule.
    public func scheduled(at time: Double) -> (playlist: Playlist, entry: String)? {
        guard let schedule else { return nil }
        let active = schedule.timetable.active(at: time)
        return (schedule.playlist(active.content), schedule.name(of: active))
    }

    /// When the schedule's playlist now took over (`SignageSchedule.runStart`); the epoch without a schedule.
    public func runStart(at now: Double) -> Double { schedule?.timetable.runStart(at: now) ?? 0 }

    /// The items of one of the schedule's playlists.
    public func items(ofPlaylist name: String) -> [PlayItem]? { schedule?.playlists[name]?.items }

    /// The schedule's next change after `now`, worked out again only once
    /// it has passed or the clock went back before the time it was asked
    /// at; with no change in sight, asked again within a day.
    public mutating func nextChange(now: Double) -> Double? {
        guard let schedule else { return nil }
        if let known = change, known.asked <= now, now < (known.at ?? known.asked + 86400) {
            return known.at ?? known.asked + 86400
        }
        let at = schedule.timetable.nextChange(after: now)?.at
        change = (now, at)
        return at ?? now + 86400
    }

    /// The schedule in `ctl status`: the entry playing (by its JSON path)
    /// and the next change, in the schedule's zone.
    public func status(now: Double) -> [String: Any]? {
        guard let schedule else { return nil }
        let timetable = schedule.timetable
        let active = timetable.active(at: now)
        var fields: [String: Any] = [
            "entry": schedule.name(of: active), "playlist": active.content.name,
            "time_zone": timetable.timeZone.identifier, "next_change": NSNull(),
        ]
        if let change = timetable.nextChange(after: now) {
            fields["next_change"] = timetable.localISO8601(change.at)
            fields["next_change_unix"] = change.at
            fields["next_entry"] = schedule.name(of: change.active)
            fields["next_playlist"] = change.active.content.name
        }
        return fields
    }
}
