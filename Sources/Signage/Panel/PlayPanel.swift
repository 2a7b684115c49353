import Dispatch
import Foundation
import Screenplay

/// One external screen playing a playlist: a scene delegate that shows the
/// item the schedule says, switches only to an item that is ready (so the
/// screen never shows a gap), crossfades one blended frame per refresh, and
/// asks for no frames while a static item stands.
///
/// Its state is one item state machine shared by its extensions
/// (`PlayPanelItems`, `PlayPanelDrawing`, `PlayPanelControl`), so it is not
/// `private`; outside them the runner, overrides and regions only read it.
@MainActor
final class PlayPanel: SceneDelegate {
    unowned let runner: PlayRunner
    weak var scene: Scene?
    var playlist: Playlist
    var rotate: Int
    var schedule: PlaySchedule
    /// A reloaded panel entry, taken at the next item boundary.
    var pending: PanelAssignment.Entry?
    /// What the panel entry says (`playlist` is what plays now).
    var assigned: PanelAssignment

    typealias Shown = ShownItem

    var current: Shown?
    var showingPlaceholder = false
    /// The item coming in during a crossfade.
    var incoming: Crossfade?
    /// The item after the one on screen, made before its turn.
    let nextItem: NextItem
    /// The next item, loading or ready; `due` once its turn has come.
    var next: NextItem.Slot? {
        get { nextItem.slot }
        set { nextItem.slot = newValue }
    }
    /// The start of the slot the last evaluation chose its item in (wall clock).
    private var slotStart: Double?
    /// fleet: the item on screen belongs to the playlist a reload replaced
    /// (same name, other items), so it is not the item at its index.
    var currentIsStale = false
    /// When this panel needs the runner's tick next (wall clock).
    var nextEventTime: Double?
    var frame = 0
    let probe: Bool

    var outputName: String { scene?.screen?.name ?? "window" }
    var screen: Screen? { scene?.screen }

    /// The next frame the panel's scene draws, read back (ctl screenshot);
    /// false when the panel has no scene now.
    func captureNextFrame(_ handler: @escaping @MainActor (Result<CapturedFrame, SceneError>) -> Void) -> Bool {
        guard let scene else { return false }
        scene.captureNextFrame(handler)
        return true
    }
    /// `ctl pause`: the item on screen stays until `resume`; when it began holding.
    var heldSince: Double?
    /// Whether the first item (or the placeholder) has been shown.
    var hasShownFirstItem = false

    /// The web page whose late paint was logged.
    private weak var slowPageNoted: AnyObject?

    /// A first item that would reach the screen after its slot is passed over.
    var lateFirst = LateFirstItem()

    /// Set when an item's first fully visible frame is being drawn.
    var justArrived = false

    /// Its status, health and frames, as reported.
    let report = PanelReport()

    /// While it is set and its first item is ready, it is all the panel
    /// shows (every region); the schedule goes on underneath, so clearing
    /// it uncovers the item the schedule says now, already on the GPU.
    var override: PanelOverride?

    init(runner: PlayRunner, playlist: Playlist, rotate: Int, probe: Bool) {
        self.runner = runner
        self.playlist = playlist
        self.rotate = rotate
        self.probe = probe
        nextItem = NextItem(runner: runner, probe: probe)
        assigned = PanelAssignment(.init(playlist: playlist, rotate: rotate, schedule: nil))
        schedule = PlaySchedule(durations: playlist.items.map(\.duration), origin: 0)
    }

    // MARK: scene life cycle

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        self.scene = scene
        // Clock alignment: the epoch is every panel's origin, so a panel that
        // appears (or comes back) starts at the clock's item.
        schedule = PlaySchedule(
            durations: playlist.items.map(\.duration), origin: runner.config.sync ? 0 : wallSeconds())
        runner.panelConnected(self, scene)
        if runner.isHeld(outputName) { heldSince = runner.now() }
        evaluate(now: runner.now())
        // The boundary timer: a draw schedules it only when an item comes
        // on, so a panel that starts on the placeholder (every item missing,
        // an empty folder) never looked again after the files arrived.
        runner.ticker.schedule()
    }

    func sceneDidDisconnect(_ scene: Scene) {
        for media in [current?.media, incoming?.incoming.media, next?.media].compactMap({ $0 }) {
            media.release(from: runner.app)
        }
        current = nil
        incoming = nil
        next = nil
        nextEventTime = nil
        override?.release(from: runner.app)  // OVERRIDE
        override = nil
        runner.panelDisconnected(self)
    }

    func sceneDidResize(_ scene: Scene) {
        // A PDF page was rendered for the old size: the preloaded one is
        // stale; the one on screen is shown scaled until the next item.
        dropNext()
        // OVERRIDE: made again at the new size.
        override?.release(from: runner.app)
        override = nil
        runner.overrides.panelConnected(self)
        scene.setNeedsDisplay()
    }

    func sceneDidUpdateScreen(_ scene: Scene) {
        refitTile()
        scene.setNeedsDisplay()
    }

    /// A video alone on screen draws only when mpv has a new picture (a
    /// 30 fps clip holds each frame for two refreshes of 60 Hz); a
    /// crossfade, a loading next item and everything else draw every refresh.
    func sceneShouldDrawFrame(_ scene: Scene) -> Bool {
        if override != nil { return true }  // OVERRIDE
        guard incoming == nil, let current, next?.due != true else { return true }
        // A layout on an upright panel repaints only its regions that move.
        if let layout = current.media as? LayoutMedia, let rects = layout.dueRegionRects() {
            for rect in rects { scene.setNeedsDisplay(in: rect) }
            return !rects.isEmpty
        }
        return current.media.refreshIsDue()
    }

    /// A reload changed what this panel plays; it takes over at the next boundary.
    func reassign(_ fresh: PanelAssignment.Entry) {
        pending = fresh == assigned.entry ? nil : fresh
    }

    /// At connect: the screen's own assignment applies at once.
    func takeAssignmentNow() {
        guard let pending else { return }
        self.pending = nil
        adopt(pending, now: runner.now())
    }

    var sceneForReload: Scene? { scene }

    /// `activate_at`: the reload's playlist takes over now, at the item the
    /// clock gives it, rather than at the next item boundary.
    func takeReloadNow(now: Double) {
        if let pending, current != nil {
            self.pending = nil
            adopt(pending, now: now)
        }
        evaluate(now: now)
    }

    /// A layout is on screen (a reload reaches it at once: `PlayRunner.take`).
    var showsLayout: Bool { current?.media is LayoutMedia }

    // MARK: deciding what to show

    /// Size of the content as drawn (`PanelAssignment.Entry.contentSize`).
    var contentSize: (Int, Int) { assigned.entry.contentSize(onScreen: scene?.pixelSize ?? (width: 1, height: 1)) }

    /// Something good is on screen: not the placeholder, not a video that failed part-way.
    var showingGoodItem: Bool {
        guard let current, !showingPlaceholder else { return false }
        return current.media.failure == nil
    }

    /// Brings the panel to the item the schedule says for `now`.
    func evaluate(now: Double) {
        guard let scene, scene.isConnected else { return }
        if incoming != nil { return }  // the fade's last frame decides what follows
        if let current, !showingPlaceholder, let failure = current.media.failure {
            // A video that failed part-way: skipped like any bad item, and
            // the next good one comes on at once.
            if let item = item(of: current) { runner.badItems.reportBad(item, failure) }
        } else if heldSince != nil, showingGoodItem {
            nextEventTime = nil  // held: no boundary until `resume`
            return
        }
        if current == nil, let notBefore = lateFirst.wait(now: now) {
            // A first item passed over as late: nothing starts before its slot's end.
            nextEventTime = notBefore
            return
        }
        followSchedule(now: now)
        var position = schedule.position(at: now)
        // A reload waits for a boundary, and in a one-item playlist every
        // boundary is between the item and itself: the slot, not the index, tells.
        // A layout is one item of an hour: a reload of it (or away from it)
        // takes over at once, its regions having boundaries of their own.
        let sameSlot = pending == nil || (position.start == slotStart && !(current?.media is LayoutMedia))
        if let current, current.index == position.index, current.playlist == playlist.name, showingGoodItem, sameSlot,
            !currentIsStale
        {
            let change = assigned.nextChange(now: now)
            nextEventTime = min(position.end, change ?? .infinity)
            slotStart = position.start
            if let change, change <= position.end {
                preloadScheduled(at: change)
            } else {
                preloadFollowing(after: position.index)
            }
            return
        }
        if let pending, current != nil {
            // A reload takes over at an item boundary: this one.
            self.pending = nil
            adopt(pending, now: now)
            position = schedule.position(at: now)
        }
        nextEventTime = min(position.end, assigned.nextChange(now: now) ?? .infinity)
        slotStart = position.start
        let count = playlist.items.count
        for offset in 0..<count {
            // While something good is on screen, a bad item's slot keeps it
            // there; at start, or over the placeholder, the first good one shows.
            if offset > 0, showingGoodItem { break }
            let index = (position.index + offset) % count
            let item = playlist.items[index]
            if runner.badItems.knownBad(item) { continue }
            let media: any PlayMedia
            if let next, next.index == index, next.playlist == playlist.name {
                media = next.media
            } else {
                dropNext()
                media = makeMedia(item, synchronously: current == nil, scene: scene)
            }
            if runner.badItems.releaseIfFailed(media, of: item) {
                if next?.media === media { next = nil }
                continue
            }
            if !media.isReady {
                // Loading (a page rendering) or waiting for the GPU upload
                // in the next draw: the current item stays until it is ready.
                if media is WebMedia, let current, slowPageNoted !== media {
                    // A web page is the one item that can take seconds (a slow server): said once.
                    slowPageNoted = media
                    runner.messages.info(
                        "\(outputName): the web page \(item.label) has not painted by its slot; \(describe(current)) stays until it does"
                    )
                }
                next = (index, playlist.name, media, true)
                media.onChange = { [weak self] in self?.runner.ticker.tickSoon() }
                scene.setNeedsDisplay()
                return
            }
            next = nil
            begin(index: index, media: media, now: now)
            return
        }
        if !showingGoodItem {
            // A schedule's switch to another playlist whose every item fails too says so.
            if !showingPlaceholder || current?.playlist != playlist.name {
                current?.media.release(from: runner.app)
                let reason =
                    playlist.items.compactMap { runner.badItems.failureReason($0) }.last ?? "no item could be shown"
                hasShownFirstItem = true
                runner.records.placeholderShown(self, reason: reason)
                current = Shown(
                    index: -1, playlist: playlist.name,
                    media: PlaceholderMedia(message: "Every item of playlist \"\(playlist.name)\" failed: \(reason)"),
                    since: monotonicSeconds())
                showingPlaceholder = true
                scene.displayLink.isPaused = true
                scene.setNeedsDisplay()
            }
        }
    }

    func adopt(_ playlist: Playlist, rotate: Int, origin: Double) {
        // fleet: a reload that keeps the name but changes the items (one
        // poster replaced by another) must not take the old item on screen
        // for the new one at the same index.
        if playlist.name == self.playlist.name, playlist.items != self.playlist.items { currentIsStale = true }
        self.playlist = playlist
        self.rotate = rotate
        schedule = PlaySchedule(durations: playlist.items.map(\.duration), origin: origin)
        dropNext()
    }

    /// Takes a panel entry (at connect, or a reload at an item boundary):
    /// without a schedule its playlist keeps the clock it had; with one,
    /// the playlist the schedule says for now.
    func adopt(_ entry: PanelAssignment.Entry, now: Double) {
        // A schedule's playlist counted from its own start; the plain
        // playlist that replaces it goes back to the epoch (or to now). A
        // wall's tiles are one picture: they keep the epoch, whatever
        // `sync` says, so a tile that comes back shows the others' item.
        let plainOrigin =
            entry.tile != nil ? 0 : assigned.entry.schedule == nil ? schedule.origin : (runner.config.sync ? 0 : now)
        assigned = PanelAssignment(entry)
        guard let wanted = assigned.scheduled(at: now)?.playlist else {
            return adopt(entry.playlist, rotate: entry.rotate, origin: plainOrigin)
        }
        adopt(wanted, rotate: entry.rotate, origin: scheduledOrigin(of: wanted, now: now))
    }
}
