import Dispatch
import Foundation
import Screenplay

/// What `screenplay ctl` does to a panel (next, previous, show, pause,
/// resume, override) and what it reports of it (status, health, the
/// frames of `--stats`).
extension PlayPanel {
    // MARK: control (`screenplay ctl`)

    /// The item on screen, or the one the clock says before the first shows.
    private func currentIndex(now: Double) -> Int {
        if let current, current.index >= 0, current.playlist == playlist.name { return current.index }
        return schedule.position(at: now).index
    }

    /// `next` (+1) and `previous` (-1): that item now, for its full duration;
    /// the playlist goes on from it.
    func skip(by offset: Int, now: Double) {
        let count = playlist.items.count
        show(index: ((currentIndex(now: now) + offset) % count + count) % count, now: now)
    }

    /// Moves the panel's schedule so item `index` starts now. A held panel
    /// shows it and stays held.
    func show(index: Int, now: Double) {
        if let pending {
            // A reload waiting for a boundary: this is one.
            self.pending = nil
            adopt(pending, now: now)
        }
        guard playlist.items.indices.contains(index) else { return }
        let before = schedule.durations.prefix(index).reduce(0, +)
        schedule = PlaySchedule(durations: schedule.durations, origin: now - before)
        let held = heldSince
        heldSince = nil
        evaluate(now: now)
        if held != nil { heldSince = now }
    }

    /// The wall clock was stepped by `step` seconds. A clock-aligned panel
    /// lets the next evaluation bring the clock's item; one that keeps its
    /// own timing (`"sync": false`) moves its schedule with the clock. A
    /// held panel's pause is moved too, so `resume` gives back the time
    /// that was left.
    func clockStepped(by step: Double, sync: Bool) {
        if !sync { schedule = PlaySchedule(durations: schedule.durations, origin: schedule.origin + step) }
        assigned.forgetChange()
        if let since = heldSince { heldSince = since + step }
        for media in [current?.media, incoming?.incoming.media].compactMap({ $0 }) { media.wallClockStepped() }
    }

    /// `pause` (true) holds the item on screen; `resume` (false) lets it
    /// finish the time it had left and the playlist go on.
    func hold(_ on: Bool, now: Double) {
        if on {
            guard heldSince == nil else { return }
            heldSince = now
            nextEventTime = nil
        } else {
            guard let since = heldSince else { return }
            heldSince = nil
            schedule = PlaySchedule(durations: schedule.durations, origin: schedule.origin + (now - since))
            evaluate(now: now)
        }
    }

    /// The playlist position `show` means: "3" (1-based) or the end of an
    /// item's source ("menu.pdf#page=2", "welcome.png").
    func index(of item: String) -> Int? {
        if let number = Int(item) { return playlist.items.indices.contains(number - 1) ? number - 1 : nil }
        return playlist.items.firstIndex { $0.label == item || $0.label.hasSuffix("/" + item) }
    }

    /// This panel in `ctl status`.
    func status(now: Double) -> [String: Any] {
        let index = current.flatMap { $0.playlist == playlist.name ? $0.index : nil }
        let item = index.flatMap { playlist.items.indices.contains($0) ? playlist.items[$0].label : nil }
        let position = schedule.position(at: now)
        // A layout's own slot (an hour) means nothing to a reader: its regions say theirs.
        let layout = current?.media as? LayoutMedia
        let left: Any =
            heldSince != nil || index != position.index || layout != nil ? NSNull() : max(0, position.end - now)
        let stall = scene?.displayLink.stallWhilePanelIsOn()
        return [
            "output": outputName, "playlist": playlist.name,
            "index": index.map { $0 >= 0 ? $0 + 1 : 0 } as Any? ?? NSNull(),
            "item": item as Any? ?? (showingPlaceholder ? "(placeholder)" : NSNull()), "seconds_left": left,
            "paused": heldSince != nil, "stalled": stall != nil, "stalled_seconds": stall as Any? ?? NSNull(),
            // Whether the panel asks for a frame every refresh now (something animates).
            "display_link_running": scene.map { !$0.displayLink.isPaused } ?? false,
            "items": playlist.items.count, "schedule": assigned.status(now: now) as Any? ?? NSNull(),
            "regions": layout?.status(now: now) as Any? ?? NSNull(),
            "override": override?.status(in: runner.config.timeZone) as Any? ?? NSNull(),  // OVERRIDE
        ]
    }

    /// This panel for the service manager's status and watchdog.
    var health: SignagePanelHealth {
        let label = current.flatMap {
            $0.playlist == playlist.name && playlist.items.indices.contains($0.index)
                ? playlist.items[$0.index].label : nil
        }
        return SignagePanelHealth(
            output: outputName,
            showing: override.map { "\($0.entry.label) (override)" } ?? (showingPlaceholder ? "(placeholder)" : label),
            stalledSeconds: scene?.displayLink.stallWhilePanelIsOn())
    }

    /// The scene's frames since the last call, and its stall events, for `--stats`.
    /// The change is "stalled" or "resumed" (each reported once). `draws`
    /// counts every draw, also those of a static item (a clock's minute, a
    /// text file edited) that the display link, paused then, does not count
    /// as presented frames.
    var frameStatistics: SignagePanelFrames? {
        guard let scene else { return nil }
        let now = monotonicNanoseconds()
        let presented = scene.displayLink.takeFrameStatistics(nowNs: now).presented
        let change: String? =
            switch scene.displayLink.takeStallChange(nowNs: now) {
            case .stalled: "stalled"
            case .resumed: "resumed"
            case nil: nil
            }
        let draws = scene.drawCount - reportedDraws
        reportedDraws = scene.drawCount
        return SignagePanelFrames(
            output: outputName, scene: scene, presented: presented, draws: draws,
            videoFrames: VideoFrameTally.take(scene), stallChange: change)
    }

    // MARK: override (`ctl override`, PlayOverride.swift)

    /// An override of this panel's size; nil without a scene.
    func makeOverride(entry: OverrideEntry, content: OverrideContent) -> PanelOverride? {
        guard let scene else { return nil }
        let size = contentSize
        return PanelOverride(entry: entry, content: content, runner: runner, scene: scene, size: size)
    }

    /// Shows `new` from the next refresh (nil: the schedule again); a cut,
    /// for an emergency does not wait for a crossfade.
    func setOverride(_ new: PanelOverride?) {
        let uncovering = override?.isShowing == true && new == nil
        if let new, let old = override, old.isShowing {
            new.covering = old  // until the new one's first item is ready
        } else {
            override?.release(from: runner.app)
        }
        override = new
        guard let scene else { return }
        if uncovering {
            justArrived = current != nil  // its proof-of-play line, now that it shows
            scene.displayLink.isPaused = incoming == nil && current?.media.isAnimated != true
        }
        scene.setNeedsDisplay()
    }
}
