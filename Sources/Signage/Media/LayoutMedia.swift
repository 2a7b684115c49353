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
    private unowned let runner: any PlayHost
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
    /// The panel's pixels are the layout's (an upright panel): a region's
    /// change repaints its own rectangle only. A turned panel draws through
    /// a turned layer, so there any change repaints the whole panel.
    private let damagesRegions: Bool
    /// Each region's rectangle in the panel's pixels.
    private var rects: [SceneRect] = []
    /// The panel's size the rectangles were worked out for: after a resize
    /// (until the layout is made again) only whole repaints are right.
    private let size: (width: Int, height: Int)
    private var rectsHold: Bool {
        guard damagesRegions, let scene else { return false }
        return scene.pixelSize.width == size.width && scene.pixelSize.height == size.height
    }

    /// Checks the layout against the panel (`width` x `height`, after
    /// rotation) first: a region past the edge fails the layout, which the
    /// panel reports and shows as its placeholder (or, after a reload,
    /// keeps the layout it had).
    init(
        _ layout: Layout, width: Int, height: Int, runner: any PlayHost, scene: Scene, probe: Bool,
        damagesRegions: Bool = false
    ) {
        self.layout = layout
        self.runner = runner
        self.scene = scene
        self.probe = probe
        self.damagesRegions = damagesRegions
        size = (width, height)
        if let misfit = layout.misfit(width: width, height: height) {
            failure = misfit
            return
        }
        let origin = runner.config.sync ? 0 : wallSeconds()
        rects = layout.regions.map { region in
            let rect = region.rect(width: width, height: height)
            return SceneRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        }
        regions = layout.regions.enumerated().map { index, region in
            RegionPlayer(
                region: region, size: (rects[index].width, rects[index].height), origin: origin, runner: runner,
                scene: scene
            ) { [weak self] in self?.regionChanged(index) }
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
        // Every region is opaque over its rectangle (its background, or an
        // item that fills it): what regions cover needs no clear, and a
        // region hidden within this repaint by those above it (a photo
        // under an opaque ticker band) needs no drawing.
        let covers = rectsHold && rects.count == regions.count
        if !covers || !context.redrawRect.isCovered(by: rects) { try context.clear(layout.background) }
        let output = scene?.screen?.name ?? "window"
        for (index, region) in regions.enumerated() {
            // Outside this frame's repaint a region's drawing would be clipped
            // away: a static photo under a moving ticker costs nothing.
            if covers, rects[index].intersection(context.redrawRect).isCovered(by: rects[(index + 1)...]) { continue }
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

    /// The rectangles of the regions that want this refresh (an animated
    /// one whose next frame is due, a crossfade), for the panel to damage;
    /// nil when the whole panel must be repainted (a turned panel).
    func dueRegionRects() -> [SceneRect]? {
        guard rectsHold, !redrawAsked else { return nil }
        return regions.indices.filter { regions[$0].isAnimated && regions[$0].refreshIsDue() }.map { rects[$0] }
    }

    /// A region began or ended a crossfade, or an item became ready: the
    /// panel redraws (that region's rectangle, on an upright panel once the
    /// layout is on screen) and runs or pauses its display link.
    private func regionChanged(_ index: Int? = nil) {
        if !started { onChange?() }
        animationChanged?()
        if started, rectsHold, let index, index < rects.count, let scene {
            scene.setNeedsDisplay(in: rects[index])
            return
        }
        redrawAsked = true
        redraw?()
    }
}
