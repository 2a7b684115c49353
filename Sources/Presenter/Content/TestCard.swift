import Foundation
import Screenplay

extension ContentDelegate {
    /// Edges and corners marked, so a cropped or shifted picture shows,
    /// and what the screen says of itself.
    func drawTestCard(_ scene: Scene, _ c: DrawingContext) throws {
        let w = c.pixelWidth, h = c.pixelHeight
        try c.clear(RGBColor(hex: 0x202020))
        let edge = RGBColor(hex: 0xffff00)
        try c.fill(x: 0, y: 0, width: w, height: 1, color: edge)
        try c.fill(x: 0, y: h - 1, width: w, height: 1, color: edge)
        try c.fill(x: 0, y: 0, width: 1, height: h, color: edge)
        try c.fill(x: w - 1, y: 0, width: 1, height: h, color: edge)
        let s = 64
        try c.fill(x: 0, y: 0, width: s, height: s, color: RGBColor(hex: 0xff0000))
        try c.fill(x: w - s, y: 0, width: s, height: s, color: RGBColor(hex: 0x00ff00))
        try c.fill(x: 0, y: h - s, width: s, height: s, color: RGBColor(hex: 0x0000ff))
        try c.fill(x: w - s, y: h - s, width: s, height: s, color: RGBColor(hex: 0xffffff))
        let screen = scene.screen
        let lines = [
            (screen?.name ?? "window", 0.07),
            (screen?.displayDescription ?? "", 0.03),
            ("\(w)x\(h) pixels · scale \(screen?.scale ?? 1) · \(screen?.transform.description ?? "normal")", 0.03),
            (screen?.currentMode.map { "mode \($0)" } ?? "mode unknown", 0.03),
            (refreshLine(scene), 0.025),
        ]
        try c.drawText(lines: lines.map { ($0.0, Int(Double(h) * $0.1)) }, color: .white)
    }

    /// The refresh as known when the card is drawn. The card is drawn once
    /// per change of size, never again to show a count of its own frames
    /// (that redraw was itself the only frame there was to count); `--stats`
    /// counts the frames presented.
    private func refreshLine(_ scene: Scene) -> String {
        String(
            format: "refresh %.2f Hz (%@) · frames presented: --stats", 1 / scene.displayLink.duration,
            scene.displayLink.durationSource.rawValue)
    }
}
