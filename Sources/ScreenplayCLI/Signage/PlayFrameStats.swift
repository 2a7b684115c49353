import Dispatch
import Foundation
import Presenter
import Screenplay
import Signage

/// With `--stats`: a `frames` line per panel once a second,
/// `stalled`/`resumed` lines (also on stderr) when a panel's frames stop
/// or come back, and a `graphics` line every ten seconds (the GL objects
/// held, which stay flat however many items a playlist loads). Made only
/// with `--stats`: without it no timer runs, and a static item costs nothing.
@MainActor
final class PlayFrameStats {
    private let timer: any DispatchSourceTimer
    /// Repainted pixels per output since the last frames line.
    private var redraws: [String: RedrawCounter] = [:]
    private var ticks = 0

    init(
        stats: StatsWriter, app: @escaping @MainActor () -> Application?, player: SignagePlayer
    ) {
        timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self, weak player] in
            MainActor.assumeIsolated {
                guard let player else { return }
                self?.write(to: stats, app: app(), panels: player.takeFrameStatistics())
            }
        }
        timer.resume()
    }

    func stop() { timer.cancel() }

    private func write(to stats: StatsWriter, app: Application?, panels: [SignagePanelFrames]) {
        ticks += 1
        if ticks % 10 == 0, let objects = app?.graphicsObjects {
            stats.write([
                "event": "graphics", "picture_textures": objects.pictureTextures,
                "shader_programs": objects.shaderPrograms, "text_blocks": objects.textBlocks,
            ])
        }
        for panel in panels {
            let change = panel.stallChange
            let redrawn = redraws[panel.output, default: .init()].take(panel.scene)
            stats.write([
                "event": "frames", "output": panel.output, "presented": panel.presented, "draws": panel.draws,
                "redrawn_px": redrawn.redrawnPixels, "as_is": redrawn.presentedAsIs, "copied": redrawn.copied,
                "read_back": redrawn.readBack, "video_frames": panel.videoFrames,
            ])
            if change == "stalled" { warn("\(panel.output) shows no frames (stalled)") }
            if change == "resumed" { log("\(panel.output) shows frames again") }
            if let change { stats.write(["event": change, "output": panel.output]) }
        }
    }
}
