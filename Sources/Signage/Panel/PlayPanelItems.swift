import Dispatch
import Foundation
import Screenplay

/// A panel's items coming and going: the media made at the panel's
/// size, preloaded before their turn, started with or without a crossfade,
/// and the playlist a schedule's change brings.
extension PlayPanel {
    // MARK: schedules

    /// Where a playlist the schedule brings starts. Clock-aligned panels
    /// count from the moment it took over (item 1 at 22:00:00), the same
    /// instant for every panel and box, and for a panel that comes back
    /// in the middle; a playlist that has played for longer than the look
    /// back (`SignageSchedule.horizonDays`) keeps the epoch, as without a
    /// schedule. Other panels start it when it comes.
    func scheduledOrigin(of wanted: Playlist, now: Double) -> Double {
        guard runner.config.sync else { return wanted.name == playlist.name ? schedule.origin : now }
        return assigned.runStart(at: now)
    }

    /// At the boundary second of a schedule's change: the playlist it
    /// names from now, its first item coming in with its usual crossfade
    /// (`begin`), preloaded before the change where it could be.
    func followSchedule(now: Double) {
        guard let (wanted, entry) = assigned.scheduled(at: now), wanted.name != playlist.name else { return }
        let preloaded = next?.playlist == wanted.name ? next : nil
        if preloaded != nil { next = nil }
        adopt(wanted, rotate: rotate, origin: scheduledOrigin(of: wanted, now: now))
        next = preloaded
        assigned.forgetChange()
        runner.records.scheduleSwitched(self, to: entry, playlist: wanted.name, now: now)
    }

    /// The first item of the playlist a change within this slot brings,
    /// so it is ready at the change (every schedule switch starts its
    /// playlist at item 1: `scheduledOrigin`).
    func preloadScheduled(at change: Double) {
        guard incoming == nil, let upcoming = assigned.scheduled(at: change)?.playlist, let scene else { return }
        guard upcoming.name != playlist.name, !upcoming.items.isEmpty else { return }
        nextItem.preload(0, of: upcoming, size: contentSize, upright: upright, scene: scene) {
            [weak self] in self?.scene?.setNeedsDisplay()
        }
    }

    /// An item's media at the panel's content size.
    func makeMedia(_ item: PlayItem, synchronously: Bool, scene: Scene) -> any PlayMedia {
        nextItem.media(for: item, size: contentSize, upright: upright, synchronously: synchronously, scene: scene)
    }

    /// Drawn one to one onto the screen (`PanelAssignment.Entry.drawsOneToOne`).
    var upright: Bool { assigned.entry.drawsOneToOne }

    func dropNext() { nextItem.drop() }

    /// Starts showing a ready item: a crossfade from what is on screen, or a
    /// cut (the first item, the placeholder going, a 0-second transition).
    func begin(index: Int, media: any PlayMedia, now: Double) {
        guard let scene else { return }
        let item = playlist.items[index]
        let shown = Shown(index: index, playlist: playlist.name, media: media, since: monotonicSeconds())
        currentIsStale = false  // fleet: what comes on is the adopted playlist's
        start(media)
        // A failure part-way (a video runs into damage) or a video that ends: back to the schedule.
        media.onChange = { [weak self] in self?.runner.ticker.tickSoon() }
        if let current, showingGoodItem, item.transition > 0,
            current.index != index || current.playlist != playlist.name
        {
            incoming = Crossfade(incoming: shown, seconds: item.transition)
            scene.displayLink.isPaused = false
        } else {
            current?.media.release(from: runner.app)
            current = shown
            showingPlaceholder = false
            justArrived = true
            scene.displayLink.isPaused = !media.isAnimated
        }
        scene.setNeedsDisplay()
    }

    /// Its turn has come. A text item that changes on its own (a file, a
    /// clock) redraws the panel through `redraw`: one frame per change.
    func start(_ media: any PlayMedia) {
        media.attach { [weak self] in self?.scene?.setNeedsDisplay() }
        media.attachAnimationChange({ [weak self, weak media] in
            // Only the item alone on screen decides; a crossfade's end does otherwise.
            guard let self, let scene = self.scene, self.incoming == nil, let current = self.current,
                current.media === media
            else { return }
            // An animated override over it keeps its frames coming (finishFrame).
            scene.displayLink.isPaused = !current.media.isAnimated && self.override?.isAnimated != true
        })
        media.start()
    }

    /// Loads the item after `index` so it is decoded and uploaded before its turn.
    func preloadFollowing(after index: Int) {
        let following = (index + 1) % playlist.items.count
        guard following != index, incoming == nil, let scene else { return }
        nextItem.preload(following, of: playlist, size: contentSize, upright: upright, scene: scene) {
            [weak self] in self?.scene?.setNeedsDisplay()  // the upload, in the next draw
        }
    }
}
