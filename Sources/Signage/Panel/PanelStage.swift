import Dispatch
import Foundation
import Screenplay

/// What is on a panel's screen and what comes next: the item shown (or the
/// placeholder), the one fading in over it, the one made before its turn
/// (`NextItem`); and each change of them: a cut or a crossfade begun and
/// ended, the first item taken on in the frame it is ready in or passed
/// over as late (`LateFirstItem`), an item's proof-of-play line once its
/// frame shows. Which item comes when is `ItemSequencer`'s.
@MainActor
final class PanelStage {
    private unowned let panel: PlayPanel
    private var runner: PlayRunner { panel.runner }
    private var programme: PanelProgramme { panel.programme }

    private(set) var current: ShownItem?
    private(set) var showingPlaceholder = false
    /// The item coming in during a crossfade.
    private(set) var incoming: Crossfade?
    /// The item after the one on screen, made before its turn.
    let nextItem: NextItem
    /// The next item, loading or ready; `due` once its turn has come.
    var next: NextItem.Slot? {
        get { nextItem.slot }
        set { nextItem.slot = newValue }
    }
    /// fleet: the item on screen belongs to the playlist a reload replaced
    /// (same name, other items), so it is not the item at its index.
    var currentIsStale = false
    /// A first item that would reach the screen after its slot is passed over.
    var lateFirst = LateFirstItem()
    /// Set when an item's first fully visible frame is being drawn.
    var justArrived = false

    init(panel: PlayPanel, probe: Bool) {
        self.panel = panel
        nextItem = NextItem(runner: panel.runner, probe: probe)
    }

    /// Something good is on screen: not the placeholder, not a video that failed part-way.
    var showingGoodItem: Bool {
        guard let current, !showingPlaceholder else { return false }
        return current.media.failure == nil
    }

    /// Releases the next item, made for a size or playlist that no longer holds.
    func dropNext() { nextItem.drop() }

    /// Starts showing a ready item: a crossfade from what is on screen, or a
    /// cut (the first item, the placeholder going, a 0-second transition).
    func begin(index: Int, media: any PlayMedia) {
        guard let scene = panel.scene else { return }
        let playlist = programme.playlist
        let item = playlist.items[index]
        let shown = ShownItem(index: index, playlist: playlist.name, media: media, since: monotonicSeconds())
        currentIsStale = false  // fleet: what comes on is the adopted playlist's
        start(media, index: index)
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
    private func start(_ media: any PlayMedia, index: Int) {
        if programme.assigned.entry.tile != nil, let video = media as? VideoMedia, video.loops {
            // A wall's tiles on several boxes each decode it: the clock places
            // it. Only a looping one: a clip played once starts at its
            // beginning, as on a panel, whenever its box starts it.
            let playlist = programme.playlist.name
            video.slotStart = { [weak self] in self?.slotStart(of: index, in: playlist) }
        }
        media.attach { [weak self] in self?.panel.scene?.setNeedsDisplay() }
        media.attachAnimationChange({ [weak self, weak media] in
            // Only the item alone on screen decides; a crossfade's end does otherwise.
            guard let self, let scene = self.panel.scene, self.incoming == nil, let current = self.current,
                current.media === media
            else { return }
            // An animated override over it keeps its frames coming (PanelPainter.finishFrame).
            scene.displayLink.isPaused = !current.media.isAnimated && self.panel.override?.isAnimated != true
        })
        media.start()
    }

    /// The wall-clock start of item `index`'s slot while the clock says
    /// it; nil once another item's slot has begun (this one plays on until that one is ready).
    private func slotStart(of index: Int, in playlist: String) -> Double? {
        guard programme.playlist.name == playlist else { return nil }
        let position = programme.schedule.position(at: runner.now())
        return position.index == index ? position.start : nil
    }

    /// Every item of the playlist failed: a placeholder says so (once, and
    /// again for a schedule's switch to another playlist that fails too).
    func showPlaceholder(scene: Scene) {
        let playlist = programme.playlist
        guard !showingPlaceholder || current?.playlist != playlist.name else { return }
        current?.media.release(from: runner.app)
        let reason = playlist.items.compactMap { runner.badItems.failureReason($0) }.last ?? "no item could be shown"
        panel.hasShownFirstItem = true
        runner.records.placeholderShown(panel, reason: reason)
        current = ShownItem(
            index: -1, playlist: playlist.name,
            media: PlaceholderMedia(message: "Every item of playlist \"\(playlist.name)\" failed: \(reason)"),
            since: monotonicSeconds())
        showingPlaceholder = true
        scene.displayLink.isPaused = true
        scene.setNeedsDisplay()
    }

    // MARK: changes a frame brings

    /// Uploads what the next item needs in this frame; true once its turn
    /// has come and it is ready (or failed), so an evaluation follows the
    /// draw. The very first item comes on in this same frame, unless it
    /// became ready after its slot (`LateFirstItem`): the evaluation after
    /// the draw brings the clock's item instead.
    func prepareNext(in context: DrawingContext, scene: Scene, now: Double, elapsed: Double) -> Bool {
        guard let next else { return false }
        next.media.prepare(in: context)
        guard next.media.failure != nil || next.media.isReady, next.due else { return false }
        if current == nil, next.media.isReady,
            lateFirst.isLate(next.index, in: programme.schedule, now: now, scene: scene)
        {
            if let end = lateFirst.passOver(next.index, in: programme.schedule, now: now) { panel.nextEventTime = end }
        } else if current == nil, next.media.isReady, lateFirst.allowsStart(now: now) {
            self.next = nil
            current = ShownItem(index: next.index, playlist: next.playlist, media: next.media, since: elapsed)
            start(next.media, index: next.index)
            next.media.onChange = { [weak self] in self?.runner.ticker.tickSoon() }
            justArrived = true
            scene.displayLink.isPaused = !next.media.isAnimated
        }
        return true
    }

    /// A crossfade whose time is over leaves its item alone on screen; true
    /// when one ended now (what follows is the evaluation's to decide).
    func endFade(at elapsed: Double, scene: Scene) -> Bool {
        guard let fade = incoming, let from = current, fade.progress(at: elapsed) >= 1 else { return false }
        from.media.release(from: runner.app)
        current = fade.incoming
        incoming = nil
        justArrived = true
        scene.displayLink.isPaused = !fade.incoming.media.isAnimated
        return true
    }

    /// The first item, chosen when the scene connected, is drawn only now
    /// that GL is up: when its frame would reach the screen after its slot
    /// and show it in the next item's, nothing of it is shown and the
    /// clock's next item comes at its boundary. True when it was passed over.
    func passOverLateFirst(now: Double, scene: Scene) -> Bool {
        guard let current, justArrived, !panel.hasShownFirstItem, !showingPlaceholder,
            current.playlist == programme.playlist.name,
            lateFirst.isLate(current.index, in: programme.schedule, now: now, scene: scene)
        else { return false }
        justArrived = false
        current.media.release(from: runner.app)
        self.current = nil
        if let end = lateFirst.passOver(current.index, in: programme.schedule, now: now) { panel.nextEventTime = end }
        return true
    }

    /// The item just on screen, drawn in this frame and not hidden by an
    /// override (OVERRIDE: one uncovered is logged then), gets its
    /// proof-of-play line once the frame shows; true when it did, so an
    /// evaluation follows the draw.
    func noteArrival(scene: Scene) -> Bool {
        guard let current, justArrived, panel.override?.isShowing != true, current.index >= 0,
            let item = programme.item(of: current)
        else { return false }
        justArrived = false
        let (name, index) = (current.playlist, current.index)
        scene.whenNextFrameShown { [weak panel = self.panel] shown in
            guard let panel else { return }
            panel.hasShownFirstItem = true
            panel.runner.records.itemShown(
                output: panel.outputName, playlist: name, index: index, item: item, shown: shown)
        }
        return true
    }

    // MARK: the scene going, the clock stepping

    /// Every item's media released (the scene went).
    func release() {
        for media in [current?.media, incoming?.incoming.media, next?.media].compactMap({ $0 }) {
            media.release(from: runner.app)
        }
        current = nil
        incoming = nil
        next = nil
    }

    /// The wall clock was stepped: a clock item shows the new time.
    func wallClockStepped() {
        for media in [current?.media, incoming?.incoming.media].compactMap({ $0 }) { media.wallClockStepped() }
    }
}
