import Screenplay

/// What a panel plays by the clock: the entry assigned to it (a playlist
/// or a schedule of them, its rotation, its wall tile), the playlist that
/// plays now with the clock its slots run on, and a reload's entry waiting
/// for an item boundary. Which item of it is on screen is `ItemSequencer`'s.
@MainActor
final class PanelProgramme {
    /// The playlist playing now: the entry's own, or the one its schedule says.
    private(set) var playlist: Playlist
    /// Degrees the panel hangs turned clockwise.
    private(set) var rotate: Int
    /// The slots of `playlist` on the clock.
    var schedule: PlaySchedule
    /// A reloaded panel entry, taken at the next item boundary.
    var pending: PanelAssignment.Entry?
    /// What the panel entry says (`playlist` is what plays now); it keeps
    /// the schedule's next change it was asked for.
    var assigned: PanelAssignment

    init(playlist: Playlist, rotate: Int) {
        self.playlist = playlist
        self.rotate = rotate
        assigned = PanelAssignment(.init(playlist: playlist, rotate: rotate, schedule: nil))
        schedule = PlaySchedule(durations: playlist.items.map(\.duration), origin: 0)
    }

    /// Plays `playlist` from now, its clock counted from `origin`. True
    /// when it keeps the name of the one before but not its items (fleet:
    /// one poster replaced by another), so the item on screen must not be
    /// taken for the new one at the same index.
    func adopt(_ playlist: Playlist, rotate: Int, origin: Double) -> Bool {
        let changedItems = playlist.name == self.playlist.name && playlist.items != self.playlist.items
        self.playlist = playlist
        self.rotate = rotate
        schedule = PlaySchedule(durations: playlist.items.map(\.duration), origin: origin)
        return changedItems
    }

    /// Takes a panel entry (at connect, or a reload at an item boundary):
    /// without a schedule its playlist keeps the clock it had; with one,
    /// the playlist the schedule says for now. True as for a playlist.
    func adopt(_ entry: PanelAssignment.Entry, now: Double, sync: Bool) -> Bool {
        // A schedule's playlist counted from its own start; the plain
        // playlist that replaces it goes back to the epoch (or to now).
        // A wall's tiles are one picture: they keep the epoch, whatever
        // `sync` says, so a tile that comes back shows the others' item.
        let plainOrigin = entry.tile != nil ? 0 : assigned.entry.schedule == nil ? schedule.origin : (sync ? 0 : now)
        assigned = PanelAssignment(entry)
        guard let wanted = assigned.scheduled(at: now)?.playlist else {
            return adopt(entry.playlist, rotate: entry.rotate, origin: plainOrigin)
        }
        return adopt(wanted, rotate: entry.rotate, origin: scheduledOrigin(of: wanted, now: now, sync: sync))
    }

    /// Where a playlist the schedule brings starts. Clock-aligned panels
    /// count from the moment it took over (item 1 at 22:00:00), the same
    /// instant for every panel and box, and for a panel that comes back
    /// in the middle; a playlist that has played for longer than the look
    /// back (`SignageSchedule.horizonDays`) keeps the epoch, as without a
    /// schedule. Other panels start it when it comes.
    func scheduledOrigin(of wanted: Playlist, now: Double, sync: Bool) -> Double {
        guard sync else { return wanted.name == playlist.name ? schedule.origin : now }
        return assigned.runStart(at: now)
    }

    /// Moves the clock so item `index` starts at `now`.
    func start(_ index: Int, at now: Double) {
        let before = schedule.durations.prefix(index).reduce(0, +)
        schedule = PlaySchedule(durations: schedule.durations, origin: now - before)
    }

    /// Moves the clock `seconds` later (a pause given back, the wall clock stepped).
    func shift(by seconds: Double) {
        schedule = PlaySchedule(durations: schedule.durations, origin: schedule.origin + seconds)
    }

    /// Size of the content as drawn on a screen of `size` (`PanelAssignment.Entry.contentSize`).
    func contentSize(onScreen size: (width: Int, height: Int)) -> (Int, Int) {
        assigned.entry.contentSize(onScreen: size)
    }

    /// Drawn one to one onto the screen (`PanelAssignment.Entry.drawsOneToOne`).
    var upright: Bool { assigned.entry.drawsOneToOne }

    /// The item a shown one is, looked up in its own playlist: during a
    /// schedule's switch the outgoing item belongs to the playlist before.
    func item(of shown: ShownItem) -> PlayItem? {
        let items =
            shown.playlist == playlist.name ? playlist.items : assigned.items(ofPlaylist: shown.playlist)
        guard let items, items.indices.contains(shown.index) else { return nil }
        return items[shown.index]
    }

    /// Names what is drawn for messages about the draw (a stuck one is
    /// remembered by this label: `HungItems`).
    func describe(_ shown: ShownItem) -> String {
        guard shown.index >= 0 else { return "the placeholder" }
        return item(of: shown)?.label ?? "an item of playlist \"\(shown.playlist)\""
    }

    /// The playlist position `show` means: "3" (1-based) or the end of an
    /// item's source ("menu.pdf#page=2", "welcome.png").
    func index(of item: String) -> Int? {
        if let number = Int(item) { return playlist.items.indices.contains(number - 1) ? number - 1 : nil }
        return playlist.items.firstIndex { $0.label == item || $0.label.hasSuffix("/" + item) }
    }
}
