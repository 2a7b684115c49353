import Dispatch
import Foundation
import Screenplay

/// What `screenplay ctl` does to a panel (next, previous, show, pause,
/// resume, override); what it reports of it is `PanelReport`'s.
extension PlayPanel {
    // MARK: control (`screenplay ctl`)

    /// The item on screen, or the one the clock says before the first shows.
    private func currentIndex(now: Double) -> Int {
        if let current = stage.current, current.index >= 0, current.playlist == programme.playlist.name {
            return current.index
        }
        return programme.schedule.position(at: now).index
    }

    /// `next` (+1) and `previous` (-1): that item now, for its full duration;
    /// the playlist goes on from it.
    func skip(by offset: Int, now: Double) {
        let count = programme.playlist.items.count
        show(index: ((currentIndex(now: now) + offset) % count + count) % count, now: now)
    }

    /// Moves the panel's schedule so item `index` starts now. A held panel
    /// shows it and stays held.
    func show(index: Int, now: Double) {
        // A reload waiting for a boundary: this is one.
        sequencer.takePending(now: now)
        guard programme.playlist.items.indices.contains(index) else { return }
        programme.start(index, at: now)
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
        // A wall's tiles keep the epoch (`PanelProgramme.adopt`): they take the clock's item.
        if !sync, programme.assigned.entry.tile == nil { programme.shift(by: step) }
        programme.assigned.forgetChange()
        if let since = heldSince { heldSince = since + step }
        stage.wallClockStepped()
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
            programme.shift(by: now - since)
            evaluate(now: now)
        }
    }

    /// The playlist position `show` means (`PanelProgramme.index(of:)`).
    func index(of item: String) -> Int? { programme.index(of: item) }

    /// This panel in `ctl status`.
    func status(now: Double) -> [String: Any] { report.status(of: self, now: now) }

    /// This panel for the service manager's status and watchdog.
    var health: SignagePanelHealth { report.health(of: self) }

    /// The scene's frames since the last call, and its stall events, for `--stats`.
    var frameStatistics: SignagePanelFrames? { report.frames(of: self) }

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
            stage.justArrived = stage.current != nil  // its proof-of-play line, now that it shows
            scene.displayLink.isPaused = stage.incoming == nil && stage.current?.media.isAnimated != true
        }
        scene.setNeedsDisplay()
    }
}
