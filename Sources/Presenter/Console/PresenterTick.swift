import Foundation
import Screenplay

extension Presenter {
    /// Once a second: the console's top bar shows the wall clock and the
    /// talk timer. Only the bar is repainted, and only when what it shows
    /// changed (a clock hidden with `--no-clock` and a timer not running
    /// leave the console undrawn). With `--stats`, each scene's frames line.
    func secondPassed() {
        if let console, let delegate = console.delegate as? ConsoleDelegate, let drawn = delegate.drawnBar,
            delegate.bar(at: Double(monotonicNanoseconds()) / 1e9, date: Date()) != drawn
        {
            let bar = ConsoleLayout(width: console.pixelSize.width, height: console.pixelSize.height).bar
            console.setNeedsDisplay(in: SceneRect(x: bar.x, y: bar.y, width: bar.width, height: bar.height))
        }
        writeFrameLines()
    }

    /// A `frames` line per scene, as `present`'s other content writes:
    /// frames presented, draws and pixels repainted in the last second.
    private func writeFrameLines() {
        guard stats != nil else { return }
        let scenes = (console.map { [("console", $0)] } ?? []) + audienceScenes.values.map { ("audience", $0) }
        let now = monotonicNanoseconds()
        for (role, scene) in scenes where scene.isConnected {
            let window = scene.displayLink.takeFrameStatistics(nowNs: now)
            let redrawn = redrawCounters[ObjectIdentifier(scene), default: RedrawCounter()].take(scene)
            emit([
                "event": "frames", "role": role, "output": label(scene), "presented": window.presented,
                "draws": redrawn.draws, "redrawn_px": redrawn.redrawnPixels,
                "width": scene.pixelSize.width, "height": scene.pixelSize.height,
            ])
        }
        let live = Set(scenes.map { ObjectIdentifier($0.1) })
        redrawCounters = redrawCounters.filter { live.contains($0.key) }
    }
}
