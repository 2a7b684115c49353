import Dispatch
import Foundation
import Screenplay

/// One external screen playing a playlist: the scene delegate that ties
/// what the panel plays by the clock (`PanelProgramme`), when it changes
/// item (`ItemSequencer`), what is on screen (`PanelStage`) and its frame
/// (`PanelPainter`) to the scene's life cycle, `ctl` and overrides; it asks
/// for no frames while a static item stands.
@MainActor
final class PlayPanel: SceneDelegate {
    unowned let runner: PlayRunner
    weak var scene: Scene?
    /// Its playlist, rotation and clock, and a reload waiting for a boundary.
    let programme: PanelProgramme
    /// What is on screen and next; the sequencer and the painter change it.
    private(set) lazy var stage = PanelStage(panel: self, probe: probe)
    private(set) lazy var sequencer = ItemSequencer(panel: self)
    private lazy var painter = PanelPainter(panel: self)
    /// The playlist playing now (`PanelProgramme.playlist`).
    var playlist: Playlist { programme.playlist }
    /// When this panel needs the runner's tick next (wall clock).
    var nextEventTime: Double?
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

    /// Its status, health and frames, as reported.
    let report = PanelReport()

    /// While it is set and its first item is ready, it is all the panel
    /// shows (every region); the schedule goes on underneath, so clearing
    /// it uncovers the item the schedule says now, already on the GPU.
    var override: PanelOverride?

    init(runner: PlayRunner, playlist: Playlist, rotate: Int, probe: Bool) {
        self.runner = runner
        self.probe = probe
        programme = PanelProgramme(playlist: playlist, rotate: rotate)
    }

    // MARK: scene life cycle

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        self.scene = scene
        // Clock alignment: the epoch is every panel's origin, so a panel that
        // appears (or comes back) starts at the clock's item.
        programme.schedule = PlaySchedule(
            durations: programme.playlist.items.map(\.duration), origin: runner.config.sync ? 0 : wallSeconds())
        runner.panelConnected(self, scene)
        if runner.isHeld(outputName) { heldSince = runner.now() }
        evaluate(now: runner.now())
        // The boundary timer: a draw schedules it only when an item comes
        // on, so a panel that starts on the placeholder (every item missing,
        // an empty folder) never looked again after the files arrived.
        runner.ticker.schedule()
    }

    func sceneDidDisconnect(_ scene: Scene) {
        stage.release()
        nextEventTime = nil
        override?.release(from: runner.app)  // OVERRIDE
        override = nil
        runner.panelDisconnected(self)
    }

    func sceneDidResize(_ scene: Scene) {
        // A PDF page was rendered for the old size: the preloaded one is
        // stale; the one on screen is shown scaled until the next item.
        stage.dropNext()
        // OVERRIDE: made again at the new size.
        override?.release(from: runner.app)
        override = nil
        runner.overrides.panelConnected(self)
        // The item dropped may be the one the panel waits to show (a panel
        // just plugged in gets its mode after it connected, often while its
        // first item still loads): made again now at the new size. Without
        // this the panel stayed grey until its slot's end, a minute for a
        // long video.
        evaluate(now: runner.now())
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
        guard stage.incoming == nil, let current = stage.current, stage.next?.due != true else { return true }
        // A layout on an upright panel repaints only its regions that move.
        if let layout = current.media as? LayoutMedia, let rects = layout.dueRegionRects() {
            for rect in rects { scene.setNeedsDisplay(in: rect) }
            return !rects.isEmpty
        }
        return current.media.refreshIsDue()
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws { try painter.draw(scene, in: context) }

    /// Brings the panel to the item the schedule says for `now`.
    func evaluate(now: Double) { sequencer.evaluate(now: now) }

    // MARK: reloads

    /// A reload changed what this panel plays; it takes over at the next boundary.
    func reassign(_ fresh: PanelAssignment.Entry) {
        programme.pending = fresh == programme.assigned.entry ? nil : fresh
    }

    /// At connect: the screen's own assignment applies at once.
    func takeAssignmentNow() { sequencer.takePending(now: runner.now()) }

    var sceneForReload: Scene? { scene }

    /// `activate_at`: the reload's playlist takes over now, at the item the
    /// clock gives it, rather than at the next item boundary.
    func takeReloadNow(now: Double) {
        if stage.current != nil { sequencer.takePending(now: now) }
        evaluate(now: now)
    }

    /// A layout is on screen (a reload reaches it at once: `PlayRunner.take`).
    var showsLayout: Bool { stage.current?.media is LayoutMedia }

    /// Size of the content as drawn (`PanelAssignment.Entry.contentSize`).
    var contentSize: (Int, Int) { programme.contentSize(onScreen: scene?.pixelSize ?? (width: 1, height: 1)) }
}
