import Foundation
import Screenplay

/// What a panel tells of itself: its entry in `ctl status`, its health for
/// the service manager's status and watchdog, and its frames for `--stats`
/// (it keeps how many of the scene's draws were already reported).
@MainActor
final class PanelReport {
    /// Scene draws already counted in a frames line.
    private var reportedDraws = 0

    /// `panel` in `ctl status`.
    func status(of panel: PlayPanel, now: Double) -> [String: Any] {
        let playlist = panel.playlist
        let index = panel.stage.current.flatMap { $0.playlist == playlist.name ? $0.index : nil }
        let item = index.flatMap { playlist.items.indices.contains($0) ? playlist.items[$0].label : nil }
        let position = panel.programme.schedule.position(at: now)
        // A layout's own slot (an hour) means nothing to a reader: its regions say theirs.
        let layout = panel.stage.current?.media as? LayoutMedia
        let left: Any =
            panel.heldSince != nil || index != position.index || layout != nil
            ? NSNull() : max(0, position.end - now)
        let scene = panel.scene
        let stall = scene?.displayLink.stallWhilePanelIsOn()
        return [
            "output": panel.outputName, "playlist": playlist.name,
            "index": index.map { $0 >= 0 ? $0 + 1 : 0 } as Any? ?? NSNull(),
            "item": item as Any? ?? (panel.stage.showingPlaceholder ? "(placeholder)" : NSNull()), "seconds_left": left,
            "paused": panel.heldSince != nil, "stalled": stall != nil, "stalled_seconds": stall as Any? ?? NSNull(),
            // Whether the panel asks for a frame every refresh now (something animates).
            "display_link_running": scene.map { !$0.displayLink.isPaused } ?? false,
            "items": playlist.items.count, "schedule": panel.programme.assigned.status(now: now) as Any? ?? NSNull(),
            "regions": layout?.status(now: now) as Any? ?? NSNull(),
            "override": panel.override?.status(in: panel.runner.config.timeZone) as Any? ?? NSNull(),  // OVERRIDE
        ]
    }

    /// `panel` for the service manager's status and watchdog.
    func health(of panel: PlayPanel) -> SignagePanelHealth {
        let playlist = panel.playlist
        let label = panel.stage.current.flatMap {
            $0.playlist == playlist.name && playlist.items.indices.contains($0.index)
                ? playlist.items[$0.index].label : nil
        }
        return SignagePanelHealth(
            output: panel.outputName,
            showing: panel.override.map { "\($0.entry.label) (override)" }
                ?? (panel.stage.showingPlaceholder ? "(placeholder)" : label),
            stalledSeconds: panel.scene?.displayLink.stallWhilePanelIsOn())
    }

    /// The scene's frames since the last call, and its stall events, for `--stats`.
    /// The change is "stalled" or "resumed" (each reported once). `draws`
    /// counts every draw, also those of a static item (a clock's minute, a
    /// text file edited) that the display link, paused then, does not count
    /// as presented frames.
    func frames(of panel: PlayPanel) -> SignagePanelFrames? {
        guard let scene = panel.scene else { return nil }
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
        return SignagePanelFrames(
            output: panel.outputName, scene: scene, presented: presented, draws: draws,
            videoFrames: VideoFrameTally.take(scene), stallChange: change)
    }
}
