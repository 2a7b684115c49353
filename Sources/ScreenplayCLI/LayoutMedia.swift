import Dispatch
import Foundation
import Screenplay

/// A layout on one panel, played as the panel's one item: every region
/// draws into its rectangle of the panel's frame (one scene, one display
/// link), so rotation, schedule switches and crossfades between a layout
/// and a playlist are the panel's as for any item. The link runs while
/// some region animates and pauses when all are static.
@MainActor
final class LayoutMedia: PlayMedia {
    let layout: Layout
    private(set) var failure: String?
    var onChange: (() -> Void)?
    private unowned let runner: PlayRunner
    private weak var scene: Scene?
    private let probe: Bool
    private var regions: [RegionPlayer] = []
    private var redraw: (@MainActor () -> Void)?
    private var animationChanged: (@MainActor () -> Void)?
    /// Counts timers set, so only the newest one acts.
    private var timerGeneration = 0
    private var released = false
    /// A region asked for a frame (a clock's minute, an item ready) since the last draw.
    private var redrawAsked = false
    /// On screen (its turn came): from then on a region's change is the
    /// layout's own business, not the panel's.
    private var started = false
    private var frame = 0
    private(set) var probeValues: [String: Any] = [:]

    /// Checks the layout against the panel (`width` x `height`, after
    /// rotation) first: a region past the edge fails the layout, which the
    /// panel reports and shows as its placeholder (or, after a reload,
    /// keeps the layout it had).
    init(_ layout: Layout, width: Int, height: Int, runner: PlayRunner, scene: Scene, probe: Bool) {
        self.layout = layout
        self.runner = runner
        self.scene = scene
        self.probe = probe
        if let misfit = layout.misfit(width: width, height: height) {
            failure = misfit
            return
        }
        let origin = runner.config.sync ? 0 : wallSeconds()
        regions = layout.regions.map { region in
            let rect = region.rect(width: width, height: height)
            return RegionPlayer(
                region: region, size: (rect.width, rect.height), origin: origin, runner: runner, scene: scene
            ) { [weak self] in self?.regionChanged() }
        }
        evaluateRegions()
    }

    var isReady: Bool { failure == nil && regions.allSatisfy(\.hasContent) }
    var isAnimated: Bool { regions.contains(where: \.isAnimated) }
    /// A static layout draws whenever asked, as any static item; one with
    /// an animated region skips a refresh only when no region needs it
    /// (a video region with no new picture, nothing else changing).
    func refreshIsDue() -> Bool {
        guard isAnimated, !redrawAsked else { return true }
        return regions.contains { $0.refreshIsDue() }
    }

    func attach(redraw: @escaping @MainActor () -> Void) { self.redraw = redraw }
    func attachAnimationChange(_ animationChanged: @escaping @MainActor () -> Void) {
        self.animationChanged = animationChanged
    }

    /// On screen now: the regions catch up with their clocks (it may have
    /// been preloaded ahead of a schedule's change) and keep their own time.
    func start() {
        started = true
        evaluateRegions()
    }

    func prepare(in context: DrawingContext) {
        for region in regions { region.prepare(in: context) }
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        self.frame += 1
        redrawAsked = false
        for region in regions { region.prepare(in: context) }
        try context.clear(layout.background)
        let output = scene?.screen?.name ?? "window"
        for region in regions {
            try region.draw(in: context, background: layout.background, frame: self.frame, output: output)
        }
        if probe { probeValues = ["regions": try probeRegions(context)] }
        if regions.contains(where: \.needsEvaluation) {
            DispatchQueue.main.async { MainActor.assumeIsolated { [weak self] in self?.evaluateRegions() } }
        }
    }

    /// Each region's centre pixel as drawn (`SCREENPLAY_PLAY_PROBE=1`):
    /// the per-frame proof that no region showed black or a stale item.
    private func probeRegions(_ context: DrawingContext) throws -> [String: String] {
        var colours: [String: String] = [:]
        for region in regions {
            let rect = region.region.rect(width: context.pixelWidth, height: context.pixelHeight)
            let rgba = try context.readPixels(
                x: rect.x + rect.width / 2, y: rect.y + rect.height / 2, width: 1, height: 1)
            colours[region.region.name] = String(format: "%02x%02x%02x", rgba[0], rgba[1], rgba[2])
        }
        return colours
    }

    func release(from app: Application?) {
        released = true
        timerGeneration += 1
        for region in regions { region.release() }
        regions = []
    }

    func wallClockStepped() {
        for region in regions { region.wallClockStepped() }
        evaluateRegions()
    }

    /// The regions in `ctl status`.
    func status(now: Double) -> [[String: Any]] { regions.map { $0.status(now: now) } }

    /// Every region to its clock's item, then one timer for the earliest boundary.
    private func evaluateRegions() {
        guard !released else { return }
        let now = runner.now()
        for region in regions { region.evaluate(now: now) }
        regionChanged()
        guard let at = regions.compactMap(\.nextEventTime).min() else { return }
        timerGeneration += 1
        let generation = timerGeneration
        DispatchQueue.main.asyncAfter(deadline: .now() + max(0, at - runner.now())) {
            MainActor.assumeIsolated { [weak self] in
                guard let self, self.timerGeneration == generation else { return }
                self.evaluateRegions()
            }
        }
    }

    /// A region began or ended a crossfade, or an item became ready: the
    /// panel redraws and runs or pauses its display link.
    private func regionChanged() {
        if !started { onChange?() }
        redrawAsked = true
        animationChanged?()
        redraw?()
    }
}
