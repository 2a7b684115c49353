import Dispatch
import Foundation
import Screenplay

/// A panel's frame: the item on screen, a crossfade's blend, or the
/// override over them, turned for a panel mounted rotated and cut to a
/// wall's tile; the changes a frame brings are the stage's (`PanelStage`),
/// and an evaluation follows a draw that needs one.
@MainActor
final class PanelPainter {
    private unowned let panel: PlayPanel
    /// Frames drawn so far: a shader's frame number, the override's.
    private var frame = 0
    /// The video picture last reported shown (`SCREENPLAY_PLAY_PICTURES`).
    private var reportedSerial: Int?

    init(panel: PlayPanel) { self.panel = panel }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        frame += 1
        panel.override?.prepare(in: context)  // OVERRIDE
        let stage = panel.stage
        let now = panel.runner.now()
        let elapsedNow = monotonicSeconds()
        let evaluation: () -> Void = { [weak panel = self.panel] in panel?.evaluate(now: panel?.runner.now() ?? now) }
        var evaluates = stage.prepareNext(in: context, scene: scene, now: now, elapsed: elapsedNow)
        if stage.endFade(at: elapsedNow, scene: scene) { evaluates = true }
        if let fade = stage.incoming, let from = stage.current {
            // The item coming in is the one a stuck draw most likely belongs to.
            scene.contentDescription = panel.programme.describe(fade.incoming)
            try paint(context) { try fade.draw(over: from, in: $0, at: elapsedNow, frame: self.frame) }
            return finishFrame(scene, context, evaluates ? evaluation : nil)
        }
        if stage.passOverLateFirst(now: now, scene: scene) {
            try paint(context) { try $0.clear(RGBColor(hex: 0x404040)) }
            return finishFrame(scene, context) {}  // the runner's tick, at the boundary
        }
        if let current = stage.current {
            scene.contentDescription = panel.programme.describe(current)
            try paint(context) { c in
                try current.media.draw(in: c, seconds: elapsedNow - current.since, frame: self.frame)
            }
            if stage.noteArrival(scene: scene) { evaluates = true }
        } else {
            // Nothing ready yet (never black: a neutral grey).
            try paint(context) { try $0.clear(RGBColor(hex: 0x404040)) }
        }
        finishFrame(scene, context, evaluates ? evaluation : nil)
    }

    /// Draws through a turned layer on a panel mounted rotated; while an
    /// override shows, it is drawn instead of `body`.
    private func paint(_ context: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        if let override = panel.override, override.isShowing {
            // OVERRIDE: the whole panel shows it; the schedule goes on underneath.
            panel.hasShownFirstItem = true
            panel.scene?.contentDescription = "the override \(override.entry.label)"
            return try turned(context) { try override.draw(in: $0, frame: frame) }
        }
        try turned(context, body)
    }

    /// Turns the content back on a panel mounted rotated; a wall's tile shows its part of the canvas.
    private func turned(_ context: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        let programme = panel.programme
        func part(_ on: DrawingContext) throws {
            try programme.assigned.entry.tile.map { try $0.draw(on: on, body) } ?? body(on)
        }
        // The panel hangs turned clockwise: the content turns back (and a
        // tile also undoes its output's turn: `turnsUndoingTheOutput`).
        let turns = panel.turnsUndoingTheOutput - programme.rotate / 90
        if turns % 4 == 0 { return try part(context) }
        try context.drawLayer(quarterTurnsClockwise: turns, part)
    }

    /// A video picture new to this panel: a `picture` line once the
    /// frame showing it reaches the screen, with its frame number.
    private func notePicture(_ scene: Scene) {
        guard panel.override?.isShowing != true,
            let picture = (panel.stage.current?.media as? VideoMedia)?.drawnPicture, picture.serial != reportedSerial
        else { return }
        let (serial, videoFrame) = picture
        reportedSerial = serial
        let output = panel.outputName, records = panel.runner.records
        scene.whenNextFrameShown {
            records.pictureShown(output: output, serial: serial, videoFrame: videoFrame, shown: $0)
        }
    }

    private func finishFrame(_ scene: Scene, _ context: DrawingContext, _ afterDraw: (() -> Void)?) {
        // OVERRIDE: an animated override (video, shader) keeps frames coming
        // whatever the item underneath asked for.
        if panel.override?.isAnimated == true { scene.displayLink.isPaused = false }
        if panel.runner.tracksPictures { notePicture(scene) }
        if panel.probe {
            panel.runner.records.probeFrame(
                output: panel.outputName, context: context, values: panel.stage.current?.media.probeValues ?? [:])
        }
        if let afterDraw {
            // The panel is kept until then: the evaluation runs even if its scene went meanwhile.
            let panel: PlayPanel = panel
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    afterDraw(); panel.runner.ticker.schedule()
                }
            }
        }
    }
}
