import Dispatch
import Foundation
import Screenplay

/// An override on one panel: its items in turn (each its duration, a cut
/// between them, the next one decoded before its turn), drawn in place of
/// whatever the panel's schedule shows, which goes on underneath.
@MainActor
final class PanelOverride {
    /// The request it shows (which panels, until when).
    let entry: OverrideEntry
    /// Its items, resolved when it began.
    let content: OverrideContent
    private unowned let runner: any PlayHost
    private weak var scene: Scene?
    private var current: (index: Int, media: any PlayMedia, since: Double)?
    private var next: (index: Int, media: any PlayMedia)?
    /// The item on screen has not been logged in proof of play yet.
    private var announce = false
    private var wake: DispatchWorkItem?
    private let size: (Int, Int)

    /// The override this one replaced, drawn until this one's first item
    /// is ready (a video's first frame), so the panel does not drop back
    /// to the schedule in between.
    var covering: PanelOverride?

    /// Whether the override (or the one it replaced) is on screen; until
    /// then the panel shows what it showed.
    var isShowing: Bool { current != nil || covering?.isShowing == true }
    /// Its item on screen needs a frame every refresh (video, shader).
    var isAnimated: Bool { current.map { $0.media.isAnimated } ?? covering?.isAnimated ?? false }

    /// Loads the first item for a panel whose content is `size` (width,
    /// height as drawn); one that fails at once (a corrupt picture) is
    /// named by `failure`.
    init(entry: OverrideEntry, content: OverrideContent, runner: any PlayHost, scene: Scene, size: (Int, Int)) {
        self.entry = entry
        self.content = content
        self.runner = runner
        self.scene = scene
        self.size = size
        load(0)
    }

    /// Why its first item cannot be shown, known at once.
    var failure: String? {
        guard current == nil else { return nil }
        guard let next else { return "every item of it failed before (the log says why); fix the files and ask again" }
        return next.media.failure
    }

    /// Makes the media of the first item from `start` on that has not
    /// failed before (none: the override keeps what it shows).
    private func load(_ start: Int) {
        guard let scene else { return }
        let count = content.items.count
        guard
            let index = (0..<count).map({ (start + $0) % count }).first(where: {
                !runner.badItems.knownBad(content.items[$0])
            })
        else { return }
        var item = content.items[index]
        if case var .text(text) = item.source, entry.kind == .text {
            // Large on any panel: an eighth of its height, with a margin.
            text.size = max(16, size.1 / 8)
            text.padding = size.1 / 20
            item.source = .text(text)
        }
        let media = runner.makeMedia(
            item, width: size.0, height: size.1, synchronously: current == nil, scene: scene)
        media.onChange = { [weak self] in self?.scene?.setNeedsDisplay() }
        next = (index, media)
    }

    /// At the start of each of the panel's draws: uploads what is coming
    /// and brings it on once it is ready and its turn has come.
    func prepare(in context: DrawingContext) {
        guard scene != nil else { return }
        covering?.prepare(in: context)
        if let current, next == nil, content.items.count > 1 { load((current.index + 1) % content.items.count) }
        guard let next else { return }
        next.media.prepare(in: context)
        if let failure = next.media.failure {
            // Skipped as a playlist's bad item is; the one after is tried next.
            runner.badItems.reportBad(content.items[next.index], failure)
            next.media.release(from: runner.app)
            self.next = nil
            if current == nil { load((next.index + 1) % content.items.count) }
            return
        }
        guard next.media.isReady else { return }
        if let current {
            let item = content.items[current.index]
            guard monotonicSeconds() >= current.since + item.duration else { return }
            current.media.release(from: runner.app)
        }
        self.next = nil
        covering?.release(from: runner.app)
        covering = nil
        next.media.attach { [weak self] in self?.scene?.setNeedsDisplay() }
        next.media.start()
        current = (next.index, next.media, monotonicSeconds())
        announce = true
        if content.items.count > 1 {
            // A static item draws no frames: a wake at its end brings the next.
            let work = DispatchWorkItem { [weak self] in
                MainActor.assumeIsolated { self?.scene?.setNeedsDisplay() }
            }
            wake?.cancel()
            wake = work
            DispatchQueue.main.asyncAfter(deadline: .now() + content.items[next.index].duration, execute: work)
        }
    }

    /// Draws the item on screen; its first frame is logged in proof of
    /// play as an override once it is shown.
    func draw(in context: DrawingContext, frame: Int) throws {
        guard let current, let scene else { return try covering?.draw(in: context, frame: frame) ?? () }
        try current.media.draw(in: context, seconds: monotonicSeconds() - current.since, frame: frame)
        guard announce else { return }
        announce = false
        let (name, index, item) = (content.name, current.index, content.items[current.index])
        scene.whenNextFrameShown { [weak runner, scene] shown in
            runner?.records.itemShown(
                output: scene.screen?.name ?? "window", playlist: name, index: index, item: item, shown: shown,
                override: true)
        }
    }

    /// For `ctl status`: what, since and until in `zone`'s local time.
    func status(in zone: TimeZone) -> [String: Any] {
        let clock = SignageSchedule(entries: [], fallback: .playlist(""), timeZone: zone)
        return [
            "kind": entry.kind.rawValue, "what": entry.what, "label": entry.label, "output": entry.output ?? NSNull(),
            "since": clock.localISO8601(entry.since), "until": entry.until.map(clock.localISO8601) ?? NSNull(),
            "until_unix": entry.until ?? NSNull(), "showing": isShowing,
            "item": current.map { content.items[$0.index].label } ?? NSNull(),
        ]
    }

    /// Frees every item's media.
    func release(from app: Application?) {
        wake?.cancel()
        covering?.release(from: app)
        covering = nil
        for media in [current?.media, next?.media].compactMap({ $0 }) { media.release(from: app) }
        current = nil
        next = nil
    }
}
