import Foundation
import Screenplay

/// One region of a layout on one panel: the item its playlist's clock says,
/// switched to only once the next one is ready (the region never shows a
/// gap), crossfaded one blended frame per refresh. The panel's own player
/// (`PlayPanel`) does the same for a whole panel, with schedules, holds and
/// reloads on top; a region has none of those, its layout takes them.
@MainActor
final class RegionPlayer {
    let region: LayoutRegion
    private unowned let runner: any PlayHost
    private weak var scene: Scene?
    private let schedule: PlaySchedule
    /// The region's size in pixels when the layout was made (a PDF page renders at it).
    private let size: (width: Int, height: Int)
    /// Something changed that the layout must act on: a redraw, the
    /// display link, the next boundary.
    private let changed: @MainActor () -> Void

    private var current: ShownItem?
    private var showingPlaceholder = false
    private var incoming: (shown: ShownItem, fadeSeconds: Double)?
    /// The next item, loading or ready; `due` once its turn has come.
    private var next: (index: Int, media: any PlayMedia, due: Bool)?
    private var justArrived = false
    /// The end of the slot on screen (wall clock): the region's next boundary.
    private(set) var nextEventTime: Double?
    /// Set by a draw that saw a change only an evaluation can follow up.
    private(set) var needsEvaluation = false

    init(
        region: LayoutRegion, size: (width: Int, height: Int), origin: Double, runner: any PlayHost, scene: Scene,
        changed: @escaping @MainActor () -> Void
    ) {
        self.region = region
        self.size = size
        self.runner = runner
        self.scene = scene
        self.changed = changed
        schedule = PlaySchedule(durations: region.playlist.items.map(\.duration), origin: origin)
    }

    private var items: [PlayItem] { region.playlist.items }

    /// Something is on screen in the region: an item or its placeholder.
    var hasContent: Bool { current != nil }

    /// Needs a frame every refresh: a crossfade, an item loading into its
    /// turn, or an animated item (video, shader, ticker).
    var isAnimated: Bool { incoming != nil || next?.due == true || current?.media.isAnimated == true }

    /// Whether this refresh must be drawn (a video with no new picture need not).
    func refreshIsDue() -> Bool {
        if incoming != nil || next?.due == true { return true }
        guard let current, current.media.isAnimated else { return false }
        return current.media.refreshIsDue()
    }

    private var showingGoodItem: Bool {
        guard let current, !showingPlaceholder else { return false }
        return current.media.failure == nil
    }

    /// Brings the region to the item its clock says for `now`.
    func evaluate(now: Double) {
        needsEvaluation = false
        guard let scene, incoming == nil else { return }
        if let current, !showingPlaceholder, let failure = current.media.failure {
            runner.badItems.reportBad(items[current.index], failure)
        }
        let position = schedule.position(at: now)
        nextEventTime = position.end
        if let current, current.index == position.index, showingGoodItem {
            return preloadFollowing(after: position.index)
        }
        for offset in 0..<items.count {
            if offset > 0, showingGoodItem { break }
            let index = (position.index + offset) % items.count
            let item = items[index]
            if runner.badItems.knownBad(item) { continue }
            let media: any PlayMedia
            if let next, next.index == index {
                media = next.media
            } else {
                dropNext()
                media = runner.makeMedia(
                    item, width: size.width, height: size.height, synchronously: current == nil, scene: scene)
            }
            if runner.badItems.releaseIfFailed(media, of: item) {
                if next?.media === media { next = nil }
                continue
            }
            if !media.isReady {
                // Loading, or waiting for its upload in the next draw: what is on screen stays.
                next = (index, media, true)
                media.onChange = { [weak self] in self?.changed() }
                return
            }
            next = nil
            return begin(index: index, media: media)
        }
        if !showingGoodItem, !showingPlaceholder {
            current?.media.release(from: runner.app)
            let reason = items.compactMap { runner.badItems.failureReason($0) }.last ?? "no item could be shown"
            current = ShownItem(
                index: -1, playlist: region.playlist.name,
                media: PlaceholderMedia(message: "Every item of region \"\(region.name)\" failed: \(reason)"),
                since: monotonicSeconds())
            showingPlaceholder = true
        }
    }

    /// A ready item comes on: a crossfade from a good one, else a cut.
    private func begin(index: Int, media: any PlayMedia) {
        let shown = ShownItem(index: index, playlist: region.playlist.name, media: media, since: monotonicSeconds())
        media.attach { [weak self] in self?.changed() }
        media.start()
        media.onChange = { [weak self] in self?.changed() }
        let fade = items[index].transition
        if let current, showingGoodItem, fade > 0, current.index != index {
            incoming = (shown, fade)
        } else {
            current?.media.release(from: runner.app)
            current = shown
            showingPlaceholder = false
            justArrived = true
        }
    }

    /// The item after `index`, decoded and uploaded before its turn.
    private func preloadFollowing(after index: Int) {
        let following = (index + 1) % items.count
        guard next == nil, following != index, incoming == nil, let scene else { return }
        let item = items[following]
        guard !runner.badItems.knownBad(item) else { return }
        let media = runner.makeMedia(
            item, width: size.width, height: size.height, synchronously: false, scene: scene)
        if runner.badItems.releaseIfFailed(media, of: item) { return }
        next = (following, media, false)
        media.onChange = { [weak self] in self?.changed() }
        // One frame uploads it now, not at its turn (a frame late then).
        if !media.isReady { changed() }
    }

    private func dropNext() {
        next?.media.release(from: runner.app)
        next = nil
    }

    /// Uploads what the next item needs (in the panel's frame, before the
    /// region is drawn) and takes the first item on in the same frame.
    func prepare(in context: DrawingContext) {
        guard let next else { return }
        next.media.prepare(in: context)
        guard next.due, next.media.isReady || next.media.failure != nil else { return }
        if current == nil, next.media.isReady {
            self.next = nil
            begin(index: next.index, media: next.media)
        } else {
            needsEvaluation = true
        }
    }

    /// Draws the region into its rectangle of `context` (the panel as the
    /// viewer sees it): its background, its item, the item fading in.
    func draw(in context: DrawingContext, background: RGBColor, frame: Int, output: String) throws {
        let now = monotonicSeconds()
        var progress = 0.0
        if let fade = incoming, let from = current {
            progress = (now - fade.shown.since) / fade.fadeSeconds
            if progress >= 1 {
                from.media.release(from: runner.app)
                current = fade.shown
                incoming = nil
                justArrived = true
                needsEvaluation = true
            }
        }
        if let drawn = incoming?.shown ?? current, drawn.index >= 0 {
            // A draw that never returns is remembered by this label
            // (HungItems): the region's item is skipped after the restart.
            scene?.contentDescription = items[drawn.index].label
        }
        let rect = region.rect(width: context.pixelWidth, height: context.pixelHeight)
        if incoming == nil, let current,
            try current.media.draw(
                in: context, rect: SceneRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
                seconds: now - current.since, frame: frame)
        {
            // Drawn alone into its rectangle (a video, its last picture kept).
        } else {
            try drawThroughLayer(
                context, rect: rect, background: region.background ?? background, now: now, progress: progress,
                frame: frame)
        }
        if justArrived, let current, current.index >= 0 {
            justArrived = false
            let (item, index, playlist, name) = (items[current.index], current.index, region.playlist.name, region.name)
            scene?.whenNextFrameShown { [weak runner] shown in
                runner?.records.itemShown(
                    output: output, playlist: playlist, index: index, item: item, shown: shown, region: name)
            }
        }
    }

    /// The region's background, its item and an incoming item's fade, in a
    /// layer of the region's size, so whatever fills its target stays in
    /// the rectangle.
    private func drawThroughLayer(
        _ context: DrawingContext, rect: (x: Int, y: Int, width: Int, height: Int), background: RGBColor,
        now: Double, progress: Double, frame: Int
    ) throws {
        try context.drawRegion(x: rect.x, y: rect.y, width: rect.width, height: rect.height) { c in
            try c.clear(background)
            guard let current else { return }
            try current.media.draw(in: c, seconds: now - current.since, frame: frame)
            if let fade = incoming {
                try c.drawLayer(opacity: max(0, progress)) { layer in
                    try fade.shown.media.draw(in: layer, seconds: now - fade.shown.since, frame: frame)
                }
            }
        }
    }

    /// The region in `ctl status`: its item and the seconds it has left.
    func status(now: Double) -> [String: Any] {
        let position = schedule.position(at: now)
        let index = current.flatMap { $0.index >= 0 ? $0.index : nil }
        return [
            "name": region.name, "playlist": region.playlist.name, "items": items.count,
            "index": index.map { $0 + 1 } as Any? ?? NSNull(),
            "item": index.map { items[$0].label } as Any? ?? (showingPlaceholder ? "(placeholder)" : NSNull()),
            "seconds_left": index == position.index ? max(0, position.end - now) : NSNull() as Any,
        ]
    }

    /// The wall clock was stepped: a clock item shows the new time.
    func wallClockStepped() {
        for media in [current?.media, incoming?.shown.media].compactMap({ $0 }) { media.wallClockStepped() }
    }

    func release() {
        for media in [current?.media, incoming?.shown.media, next?.media].compactMap({ $0 }) {
            media.release(from: runner.app)
        }
        current = nil
        incoming = nil
        next = nil
    }
}
