import Dispatch
import Foundation
import Screenplay

/// An item on screen (or fading in) on a panel or in a layout's region.
struct ShownItem {
    /// Its place in its playlist; -1 for the placeholder.
    let index: Int
    /// The playlist the item belongs to: a schedule's switch may bring
    /// another playlist's item at the same index.
    let playlist: String
    let media: any PlayMedia
    /// When it came on (CLOCK_MONOTONIC seconds: a shader's time and a
    /// crossfade's progress, which a step of the wall clock leaves alone).
    let since: Double
}

/// One external screen playing a playlist: a scene delegate that shows the
/// item the schedule says, switches only to an item that is ready (so the
/// screen never shows a gap), crossfades one blended frame per refresh, and
/// asks for no frames while a static item stands.
@MainActor
final class PlayPanel: SceneDelegate {
    private unowned let runner: PlayRunner
    private weak var scene: Scene?
    private(set) var playlist: Playlist
    private(set) var rotate: Int
    private var schedule: PlaySchedule
    /// A reloaded panel entry, taken at the next item boundary.
    private var pending: PanelAssignment.Entry?
    /// What the panel entry says (`playlist` is what plays now).
    private var assigned: PanelAssignment

    private typealias Shown = ShownItem

    private var current: Shown?
    private var showingPlaceholder = false
    /// The item coming in during a crossfade.
    private var incoming: Crossfade?
    /// The next item, loading or ready; `due` once its turn has come.
    private var next: (index: Int, playlist: String, media: any PlayMedia, due: Bool)?
    /// The start of the slot the last evaluation chose its item in (wall clock).
    private var slotStart: Double?
    /// fleet: the item on screen belongs to the playlist a reload replaced
    /// (same name, other items), so it is not the item at its index.
    private var currentIsStale = false
    /// When this panel needs the runner's tick next (wall clock).
    private(set) var nextEventTime: Double?
    private var frame = 0
    private let probe: Bool

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
    private var heldSince: Double?
    /// Whether the first item (or the placeholder) has been shown.
    private(set) var hasShownFirstItem = false

    init(runner: PlayRunner, playlist: Playlist, rotate: Int, probe: Bool) {
        self.runner = runner
        self.playlist = playlist
        self.rotate = rotate
        self.probe = probe
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

    func sceneDidUpdateScreen(_ scene: Scene) { scene.setNeedsDisplay() }

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
    func reassign(playlist: Playlist, rotate: Int, schedule: PanelSchedule?) {
        let fresh = PanelAssignment.Entry(playlist: playlist, rotate: rotate, schedule: schedule)
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

    /// A layout is on screen (`PlayRunner.reload` brings a reload to it at once).
    var showsLayout: Bool { current?.media is LayoutMedia }

    // MARK: deciding what to show

    /// Size of the content as drawn (turned panels swap width and height).
    private var contentSize: (Int, Int) {
        let size = scene?.pixelSize ?? (width: 1, height: 1)
        return rotate % 180 == 0 ? (size.width, size.height) : (size.height, size.width)
    }

    /// Something good is on screen: not the placeholder, not a video that failed part-way.
    private var showingGoodItem: Bool {
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
                    log(
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

    private func adopt(_ playlist: Playlist, rotate: Int, origin: Double) {
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
    private func adopt(_ entry: PanelAssignment.Entry, now: Double) {
        // A schedule's playlist counted from its own start; the plain
        // playlist that replaces it goes back to the epoch (or to now).
        let plainOrigin = assigned.entry.schedule == nil ? schedule.origin : (runner.config.sync ? 0 : now)
        assigned = PanelAssignment(entry)
        guard let wanted = assigned.scheduled(at: now)?.playlist else {
            return adopt(entry.playlist, rotate: entry.rotate, origin: plainOrigin)
        }
        adopt(wanted, rotate: entry.rotate, origin: scheduledOrigin(of: wanted, now: now))
    }

    // MARK: schedules

    /// Where a playlist the schedule brings starts. Clock-aligned panels
    /// count from the moment it took over (item 1 at 22:00:00), the same
    /// instant for every panel and box, and for a panel that comes back
    /// in the middle; a playlist that has played for longer than the look
    /// back (`SignageSchedule.horizonDays`) keeps the epoch, as without a
    /// schedule. Other panels start it when it comes.
    private func scheduledOrigin(of wanted: Playlist, now: Double) -> Double {
        guard runner.config.sync else { return wanted.name == playlist.name ? schedule.origin : now }
        return assigned.runStart(at: now)
    }

    /// At the boundary second of a schedule's change: the playlist it
    /// names from now, its first item coming in with its usual crossfade
    /// (`begin`), preloaded before the change where it could be.
    private func followSchedule(now: Double) {
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
    private func preloadScheduled(at change: Double) {
        guard next == nil, incoming == nil, let upcoming = assigned.scheduled(at: change)?.playlist, let scene else {
            return
        }
        guard upcoming.name != playlist.name, let item = upcoming.items.first, !runner.badItems.knownBad(item) else {
            return
        }
        let media = makeMedia(item, synchronously: false, scene: scene)
        if runner.badItems.releaseIfFailed(media, of: item) { return }
        next = (0, upcoming.name, media, false)
        media.onChange = { [weak self] in self?.scene?.setNeedsDisplay() }
        if !media.isReady { scene.setNeedsDisplay() }
    }

    /// An item's media at the panel's content size; a layout's regions
    /// play on this panel's runner and report to its proof of play.
    private func makeMedia(_ item: PlayItem, synchronously: Bool, scene: Scene) -> any PlayMedia {
        let size = contentSize
        if case let .layout(layout) = item.source {
            return LayoutMedia(
                layout, width: size.0, height: size.1, runner: runner, scene: scene, probe: probe,
                damagesRegions: rotate == 0)
        }
        return item.makeMedia(width: size.0, height: size.1, synchronously: synchronously, scene: scene)
    }

    private func dropNext() {
        next?.media.release(from: runner.app)
        next = nil
    }

    /// Starts showing a ready item: a crossfade from what is on screen, or a
    /// cut (the first item, the placeholder going, a 0-second transition).
    private func begin(index: Int, media: any PlayMedia, now: Double) {
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
    private func start(_ media: any PlayMedia) {
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

    /// The web page whose late paint was logged.
    private weak var slowPageNoted: AnyObject?

    /// A first item that would reach the screen after its slot is passed over.
    private var lateFirst = LateFirstItem()

    /// Set when an item's first fully visible frame is being drawn.
    private var justArrived = false

    /// Loads the item after `index` so it is decoded and uploaded before its turn.
    private func preloadFollowing(after index: Int) {
        let following = (index + 1) % playlist.items.count
        guard next == nil, following != index, incoming == nil else { return }
        let item = playlist.items[following]
        guard !runner.badItems.knownBad(item), let scene else { return }
        let media = makeMedia(item, synchronously: false, scene: scene)
        if runner.badItems.releaseIfFailed(media, of: item) { return }
        next = (following, playlist.name, media, false)
        media.onChange = { [weak self] in
            guard let self, let scene = self.scene else { return }
            scene.setNeedsDisplay()  // the upload, in the next draw
        }
        if !media.isReady { scene.setNeedsDisplay() }
    }

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
        let stall = PanelHealth.stall(of: scene)
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
    var health: PanelHealth {
        let label = current.flatMap {
            $0.playlist == playlist.name && playlist.items.indices.contains($0.index)
                ? playlist.items[$0.index].label : nil
        }
        return PanelHealth(
            output: outputName,
            showing: override.map { "\($0.entry.label) (override)" } ?? (showingPlaceholder ? "(placeholder)" : label),
            stalledSeconds: PanelHealth.stall(of: scene))
    }

    /// Scene draws already counted in a frames line.
    private var reportedDraws = 0

    /// The scene's frames since the last call, and its stall events, for `--stats`.
    /// The change is "stalled" or "resumed" (each reported once). `draws`
    /// counts every draw, also those of a static item (a clock's minute, a
    /// text file edited) that the display link, paused then, does not count
    /// as presented frames.
    func drainStatistics() -> (presented: Int, draws: Int, videoFrames: Int, stallChange: String?)? {
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
        return (presented, draws, VideoFrameTally.take(scene), change)
    }

    // MARK: override (`ctl override`, PlayOverride.swift)

    /// While it is set and its first item is ready, it is all the panel
    /// shows (every region); the schedule goes on underneath, so clearing
    /// it uncovers the item the schedule says now, already on the GPU.
    private(set) var override: PanelOverride?

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

    // MARK: drawing

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        frame += 1
        override?.prepare(in: context)  // OVERRIDE
        let now = runner.now()
        let elapsedNow = monotonicSeconds()
        var afterDraw: (() -> Void)?
        if let next {
            next.media.prepare(in: context)
            if next.media.failure != nil || next.media.isReady, next.due {
                afterDraw = { [weak self] in self?.evaluate(now: self?.runner.now() ?? now) }
                // The very first item: on screen in this same frame, unless
                // it became ready after its slot (`LateFirstItem`). The
                // evaluation after this draw brings the clock's item instead.
                if current == nil, next.media.isReady,
                    lateFirst.isLate(next.index, in: schedule, now: now, scene: scene)
                {
                    if let end = lateFirst.passOver(next.index, in: schedule, now: now) { nextEventTime = end }
                } else if current == nil, next.media.isReady, lateFirst.allowsStart(now: now) {
                    self.next = nil
                    current = Shown(index: next.index, playlist: next.playlist, media: next.media, since: elapsedNow)
                    start(next.media)
                    next.media.onChange = { [weak self] in self?.runner.ticker.tickSoon() }
                    justArrived = true
                    scene.displayLink.isPaused = !next.media.isAnimated
                }
            }
        }
        if let fade = incoming, let from = current {
            if fade.progress(at: elapsedNow) >= 1 {
                from.media.release(from: runner.app)
                current = fade.incoming
                incoming = nil
                justArrived = true
                scene.displayLink.isPaused = !fade.incoming.media.isAnimated
                afterDraw = { [weak self] in self?.evaluate(now: self?.runner.now() ?? now) }
            } else {
                // The item coming in is the one a stuck draw most likely belongs to.
                scene.contentDescription = describe(fade.incoming)
                try paint(context) { try fade.draw(over: from, in: $0, at: elapsedNow, frame: self.frame) }
                finishFrame(scene, context, afterDraw)
                return
            }
        }
        if let current, justArrived, !hasShownFirstItem, !showingPlaceholder, current.playlist == playlist.name,
            lateFirst.isLate(current.index, in: schedule, now: now, scene: scene)
        {
            // The first item, chosen when the scene connected, is drawn only
            // now that GL is up: its frame would reach the screen after its
            // slot and show it in the next item's. Nothing of it is shown;
            // the clock's next item comes at its boundary.
            justArrived = false
            current.media.release(from: runner.app)
            self.current = nil
            if let end = lateFirst.passOver(current.index, in: schedule, now: now) { nextEventTime = end }
            try paint(context) { try $0.clear(RGBColor(hex: 0x404040)) }
            finishFrame(scene, context) {}  // the runner's tick, at the boundary
            return
        }
        if let current {
            scene.contentDescription = describe(current)
            try paint(context) { c in
                try current.media.draw(in: c, seconds: elapsedNow - current.since, frame: self.frame)
            }
            // OVERRIDE: an item hidden by an override is logged once it is uncovered.
            if justArrived, override?.isShowing != true, current.index >= 0, let item = item(of: current) {
                justArrived = false
                let (name, index) = (current.playlist, current.index)
                scene.whenNextFrameShown { [weak self] shown in
                    guard let self else { return }
                    self.hasShownFirstItem = true
                    self.runner.records.itemShown(
                        output: self.outputName, playlist: name, index: index, item: item, shown: shown)
                }
                afterDraw = afterDraw ?? { [weak self] in self?.evaluate(now: self?.runner.now() ?? now) }
            }
        } else {
            // Nothing ready yet (never black: a neutral grey).
            try paint(context) { try $0.clear(RGBColor(hex: 0x404040)) }
        }
        finishFrame(scene, context, afterDraw)
    }

    /// Names what is drawn for messages about the draw (a stuck one is
    /// remembered by this label: `HungItems`).
    private func describe(_ shown: Shown) -> String {
        guard shown.index >= 0 else { return "the placeholder" }
        return item(of: shown)?.label ?? "an item of playlist \"\(shown.playlist)\""
    }

    /// The item a shown one is, looked up in its own playlist: during a
    /// schedule's switch the outgoing item belongs to the playlist before.
    private func item(of shown: Shown) -> PlayItem? {
        let items =
            shown.playlist == playlist.name ? playlist.items : assigned.items(ofPlaylist: shown.playlist)
        guard let items, items.indices.contains(shown.index) else { return nil }
        return items[shown.index]
    }

    /// Draws through a turned layer on a panel mounted rotated; while an
    /// override shows, it is drawn instead of `body`.
    private func paint(_ context: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        if let override, override.isShowing {
            // OVERRIDE: the whole panel shows it; the schedule goes on underneath.
            hasShownFirstItem = true
            scene?.contentDescription = "the override \(override.entry.label)"
            return try turned(context) { try override.draw(in: $0, frame: frame) }
        }
        try turned(context, body)
    }

    /// Turns the content back on a panel mounted rotated.
    private func turned(_ context: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        if rotate == 0 { return try body(context) }
        // The panel hangs turned clockwise: the content turns back.
        try context.drawLayer(quarterTurnsClockwise: -(rotate / 90), body)
    }

    private func finishFrame(_ scene: Scene, _ context: DrawingContext, _ afterDraw: (() -> Void)?) {
        // OVERRIDE: an animated override (video, shader) keeps frames coming
        // whatever the item underneath asked for.
        if override?.isAnimated == true { scene.displayLink.isPaused = false }
        if probe {
            runner.records.probeFrame(output: outputName, context: context, values: current?.media.probeValues ?? [:])
        }
        if let afterDraw {
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    afterDraw(); self.runner.ticker.schedule()
                }
            }
        }
    }
}
