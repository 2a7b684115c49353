import Foundation
import Screenplay

extension Presenter {
    /// Once a second: the console's top bar shows the wall clock and the
    /// talk timer. Only the bar is repainted, and only when what it shows
    /// changed (a clock hidden with `--no-clock` and a timer not running
    /// leave the console undrawn). The tool writes each scene's frames line.
    func secondPassed() {
        if let console, let delegate = console.delegate as? ConsoleDelegate, let drawn = delegate.drawnBar,
            delegate.bar(at: Double(monotonicNanoseconds()) / 1e9, date: Date()) != drawn
        {
            let bar = ConsoleLayout(width: console.pixelSize.width, height: console.pixelSize.height).bar
            console.setNeedsDisplay(in: SceneRect(x: bar.x, y: bar.y, width: bar.width, height: bar.height))
        }
    }
}
