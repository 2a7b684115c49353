import Foundation
import Screenplay

/// When a panel changes item: at each evaluation it follows the
/// programme's clock (a schedule's switch, a reload at an item boundary, a
/// hold), picks the first good item of the slot, puts it on the stage once
/// it is ready (so the screen never shows a gap), preloads the one after,
/// and falls back to the placeholder when every item fails. What is on
/// screen and each change of it is `PanelStage`'s.
@MainActor
final class ItemSequencer {
    private unowned let panel: PlayPanel
    private var runner: PlayRunner { panel.runner }
    private var programme: PanelProgramme { panel.programme }
    private var stage: PanelStage { panel.stage }

    /// The start of the slot the last evaluation chose its item in (wall clock).
    private var slotStart: Double?
    /// The web page whose late paint was logged.
    private weak var slowPageNoted: AnyObject?

    init(panel: PlayPanel) { self.panel = panel }

    /// Brings the panel to the item the schedule says for `now`.
    func evaluate(now: Double) {
        guard let scene = panel.scene, scene.isConnected else { return }
        if stage.incoming != nil { return }  // the fade's last frame decides what follows
        if let current = stage.current, !stage.showingPlaceholder, let failure = current.media.failure {
            // A video that failed part-way: skipped like any bad item, and
            // the next good one comes on at once.
            if let item = programme.item(of: current) { runner.badItems.reportBad(item, failure) }
        } else if panel.heldSince != nil, stage.showingGoodItem {
            panel.nextEventTime = nil  // held: no boundary until `resume`
            return
        }
        if stage.current == nil, let notBefore = stage.lateFirst.wait(now: now) {
            // A first item passed over as late: nothing starts before its slot's end.
            panel.nextEventTime = notBefore
            return
        }
        followSchedule(now: now)
        var position = programme.schedule.position(at: now)
        // A reload waits for a boundary, and in a one-item playlist every
        // boundary is between the item and itself: the slot, not the index, tells.
        // A layout is one item of an hour: a reload of it (or away from it)
        // takes over at once, its regions having boundaries of their own.
        let sameSlot =
            programme.pending == nil || (position.start == slotStart && !(stage.current?.media is LayoutMedia))
        if let current = stage.current, current.index == position.index, current.playlist == programme.playlist.name,
            stage.showingGoodItem, sameSlot, !stage.currentIsStale
        {
            let change = programme.assigned.nextChange(now: now)
            panel.nextEventTime = min(position.end, change ?? .infinity)
            slotStart = position.start
            if let change, change <= position.end {
                preloadScheduled(at: change)
            } else {
                preloadFollowing(after: position.index)
            }
            return
        }
        if programme.pending != nil, stage.current != nil {
            // A reload takes over at an item boundary: this one.
            takePending(now: now)
            position = programme.schedule.position(at: now)
        }
        panel.nextEventTime = min(position.end, programme.assigned.nextChange(now: now) ?? .infinity)
        slotStart = position.start
        if !bringFirstGoodItem(from: position.index, now: now, scene: scene), !stage.showingGoodItem {
            // A schedule's switch to another playlist whose every item fails too says so.
            stage.showPlaceholder(scene: scene)
        }
    }

    /// The first good item from `index` on, or only item `index` while
    /// something good is on screen (a bad item's slot keeps it there); at
    /// start, or over the placeholder, the first good one shows. False when
    /// none was found: what is on screen stays.
    private func bringFirstGoodItem(from start: Int, now: Double, scene: Scene) -> Bool {
        let playlist = programme.playlist
        let count = playlist.items.count
        for offset in 0..<count {
            if offset > 0, stage.showingGoodItem { break }
            let index = (start + offset) % count
            let item = playlist.items[index]
            if runner.badItems.knownBad(item) { continue }
            let media: any PlayMedia
            if let next = stage.next, next.index == index, next.playlist == playlist.name {
                media = next.media
            } else {
                stage.dropNext()
                media = stage.nextItem.media(
                    for: item, size: panel.contentSize, upright: programme.upright,
                    synchronously: stage.current == nil, scene: scene)
            }
            if runner.badItems.releaseIfFailed(media, of: item) {
                if stage.next?.media === media { stage.next = nil }
                continue
            }
            if !media.isReady {
                // Loading (a page rendering) or waiting for the GPU upload
                // in the next draw: the current item stays until it is ready.
                if media is WebMedia, let current = stage.current, slowPageNoted !== media {
                    // A web page is the one item that can take seconds (a slow server): said once.
                    slowPageNoted = media
                    runner.messages.info(
                        "\(panel.outputName): the web page \(item.label) has not painted by its slot; \(programme.describe(current)) stays until it does"
                    )
                }
                stage.next = (index, playlist.name, media, true)
                media.onChange = { [weak self] in self?.runner.ticker.tickSoon() }
                scene.setNeedsDisplay()
                return true
            }
            stage.next = nil
            stage.begin(index: index, media: media)
            return true
        }
        return false
    }

    /// A reload's entry waiting for an item boundary takes over now.
    func takePending(now: Double) {
        guard let pending = programme.pending else { return }
        programme.pending = nil
        adopted(programme.adopt(pending, now: now, sync: runner.config.sync))
    }

    /// The programme took another playlist: the item made for the one
    /// before is dropped, and the item on screen is stale when only the
    /// items changed under the same name.
    private func adopted(_ changedItems: Bool) {
        if changedItems { stage.currentIsStale = true }
        stage.dropNext()
    }

    /// At the boundary second of a schedule's change: the playlist it
    /// names from now, its first item coming in with its usual crossfade
    /// (`PanelStage.begin`), preloaded before the change where it could be.
    private func followSchedule(now: Double) {
        guard let (wanted, entry) = programme.assigned.scheduled(at: now), wanted.name != programme.playlist.name
        else { return }
        let preloaded = stage.next?.playlist == wanted.name ? stage.next : nil
        if preloaded != nil { stage.next = nil }
        let origin = programme.scheduledOrigin(of: wanted, now: now, sync: runner.config.sync)
        adopted(programme.adopt(wanted, rotate: programme.rotate, origin: origin))
        stage.next = preloaded
        programme.assigned.forgetChange()
        runner.records.scheduleSwitched(panel, to: entry, playlist: wanted.name, now: now)
    }

    /// The first item of the playlist a change within this slot brings,
    /// so it is ready at the change (every schedule switch starts its
    /// playlist at item 1: `PanelProgramme.scheduledOrigin`).
    private func preloadScheduled(at change: Double) {
        guard stage.incoming == nil, let upcoming = programme.assigned.scheduled(at: change)?.playlist,
            let scene = panel.scene
        else { return }
        guard upcoming.name != programme.playlist.name, !upcoming.items.isEmpty else { return }
        preload(0, of: upcoming, scene: scene)
    }

    /// Loads the item after `index` so it is decoded and uploaded before its turn.
    private func preloadFollowing(after index: Int) {
        let following = (index + 1) % programme.playlist.items.count
        guard following != index, stage.incoming == nil, let scene = panel.scene else { return }
        preload(following, of: programme.playlist, scene: scene)
    }

    /// Item `index` of `playlist` made at the panel's size; the scene draws
    /// again when it changes (its upload, in the next draw).
    private func preload(_ index: Int, of playlist: Playlist, scene: Scene) {
        stage.nextItem.preload(index, of: playlist, size: panel.contentSize, upright: programme.upright, scene: scene) {
            [weak panel = self.panel] in panel?.scene?.setNeedsDisplay()
        }
    }
}
