/// Whether a scene draws a frame now, and what it repaints: the damage
/// asked for since the last frame (`setNeedsDisplay`), weighed with the
/// display link's refresh that came due and the delegate's answers. A
/// class, not a struct: the delegate asks for more damage from inside
/// the questions put to it.
@MainActor
final class FrameRequest {
    /// A frame to draw: `rects` inside the buffer, nil for all of it.
    struct Frame { let rects: [SceneRect]? }

    private var damage = FrameDamage()
    /// A frame was drawn: a configure that changes nothing then asks for none.
    private(set) var hasDrawn = false

    /// Repaint everything.
    func addAll() { damage.addAll() }

    /// Repaint `rect` too.
    func add(_ rect: SceneRect) { damage.add(rect) }

    /// The frame to draw now within `bounds`, or nil. A refresh that came
    /// due in `pacing` asks `shouldDrawFrame`; a frame about to be drawn
    /// asks `isReady`. A refresh that draws nothing goes back to `pacing`.
    func take(
        within bounds: SceneRect, pacing: ScenePacing, nowNs: UInt64, shouldDrawFrame: () -> Bool,
        isReady: () -> Bool
    ) -> Frame? {
        // A refresh the delegate draws on, not yet handed back to the pacing.
        var refreshTaken = false
        if pacing.takeDueRefresh(nowNs: nowNs) {
            refreshTaken = true
            // Asked every refresh, even when a redraw is due anyway: video
            // hands its repeats back to mpv here. A refresh that draws with
            // no rectangle given repaints everything (setNeedsDisplay(in:)).
            if shouldDrawFrame() {
                if damage.isEmpty { damage.addAll() }
            } else if damage.isEmpty {
                pacing.hold(nowNs: nowNs)
                refreshTaken = false
            }
        }
        let rects = damage.clipped(to: bounds)
        // Nothing changed (or only outside a buffer that shrank since): no frame.
        guard rects.map({ !$0.isEmpty }) ?? true else {
            damage = FrameDamage()
            return nil
        }
        // Content not ready yet: what was asked for waits for the delegate's
        // next setNeedsDisplay.
        guard isReady() else {
            if refreshTaken { pacing.hold(nowNs: nowNs) }
            return nil
        }
        damage = FrameDamage()
        hasDrawn = true
        return Frame(rects: rects)
    }
}
