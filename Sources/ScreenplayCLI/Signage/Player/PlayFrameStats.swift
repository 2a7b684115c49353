import Dispatch
import Foundation
import Screenplay

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
        stats: StatsWriter, app: @escaping @MainActor () -> Application?, panels: @escaping @MainActor () -> [PlayPanel]
    ) {
        timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.write(to: stats, app: app(), panels: panels()) }
        }
        timer.resume()
    }

    func stop() { timer.cancel() }

    private func write(to stats: StatsWriter, app: Application?, panels: [PlayPanel]) {
        ticks += 1
        if ticks % 10 == 0, let objects = app?.graphicsObjects {
            stats.write([
                "event": "graphics", "picture_textures": objects.pictureTextures,
                "shader_programs": objects.shaderPrograms, "text_blocks": objects.textBlocks,
            ])
        }
        for panel in panels {
            guard let (presented, draws, videoFrames, change) = panel.drainStatistics() else { continue }
            let redrawn = panel.sceneForReload.map { redraws[panel.outputName, default: .init()].take($0) }
            stats.write([
                "event": "frames", "output": panel.outputName, "presented": presented, "draws": draws,
                "redrawn_px": redrawn?.redrawnPixels ?? 0, "as_is": redrawn?.presentedAsIs ?? 0,
                "video_frames": videoFrames,
            ])
            if change == "stalled" { warn("\(panel.outputName) shows no frames (stalled)") }
            if change == "resumed" { log("\(panel.outputName) shows frames again") }
            if let change { stats.write(["event": change, "output": panel.outputName]) }
        }
    }
}
