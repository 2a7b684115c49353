import EventLoop
import Rendering

extension Scene {
    /// Draws if a frame is due or content changed: the step after
    /// `applyPendingState` for every scene of the batch. Repaints only what
    /// changed where the driver tells the back buffer's age: this frame's
    /// damage and that of the frames the buffer missed (`DamageHistory`),
    /// scissored; the compositor hears this frame's damage.
    func drawIfNeeded() {
        guard !isTornDown, isConnected, let window = sceneSurface.window else { return }
        // A panel switched off shows nothing: ask for no frames until it is back.
        if displayLink.isPanelOff {
            pacing.dropDueRefresh()
            return
        }
        let now = monotonicNanoseconds()
        // A refresh the delegate draws on, not yet handed back to the pacing.
        var refreshTaken = false
        if pacing.takeDueRefresh(nowNs: now) {
            refreshTaken = true
            // Asked every refresh, even when a redraw is due anyway: video
            // hands its repeats back to mpv here. A refresh that draws with
            // no rectangle given repaints everything (setNeedsDisplay(in:)).
            if delegate.sceneShouldDrawFrame(self) {
                if pendingDamage.isEmpty { pendingDamage.addAll() }
            } else if pendingDamage.isEmpty {
                pacing.hold(nowNs: now)
                refreshTaken = false
            }
        }
        let bounds = SceneRect(x: 0, y: 0, width: window.pixelWidth, height: window.pixelHeight)
        let damage = pendingDamage.clipped(to: bounds)
        // Nothing changed (or only outside a buffer that shrank since): no frame.
        guard damage.map({ !$0.isEmpty }) ?? true else {
            pendingDamage = FrameDamage()
            return
        }
        // Content not ready yet: what was asked for waits for the delegate's
        // next setNeedsDisplay.
        guard delegate.sceneIsReadyToDraw(self) else {
            if refreshTaken { pacing.hold(nowNs: now) }
            return
        }
        pendingDamage = FrameDamage()
        hasDrawn = true
        pacing.willDraw(on: surface, nowNs: now) { [weak self] shownNs in
            self?.feedback.pacedFrameShown(atNs: shownNs)
        }
        let feedbackToken = feedback.requestFeedback(on: surface, nowNs: now)
        drawWatch?.begin(
            screen: screen?.name ?? "window", content: contentDescription ?? session.configuration.name ?? "scene")
        isDrawing = true
        defer {
            isDrawing = false
            drawWatch?.end()
        }
        do {
            var target: any RenderTarget = window
            // Through wl_shm GL comes up at the frame's first GL call (the
            // DrawingContext's), so a frame presented as it is needs none.
            // Only a scene with a web page waits for that: any other brings
            // GL up before its delegate decides what to draw, so the time
            // from that decision to the frame shown does not include loading
            // the driver (play's proof of play at start).
            if !window.hasGraphicsContext, webPageCount == 0 { try window.makeCurrent() }
            window.beginFrame(damage: damage?.map(\.pixelRect))
            let graphics = window.presentsThroughShm ? nil : try host.graphics.resources()
            if graphics != nil { try window.makeCurrent() }
            lastBufferAge = window.bufferAge()
            if let graphics, !graphics.context.offersBufferAge,
                let copy = try retainedFrame.target(
                    damageShare: RetainedFrame.share(of: damage, in: bounds), width: window.pixelWidth,
                    height: window.pixelHeight,
                    context: graphics.context)
            {
                (target, lastBufferAge) = copy
            }
            let repaint = damageHistory.repaint(damage, bufferAge: lastBufferAge, bounds: bounds)
            target.clip = repaint == bounds ? nil : repaint.pixelRect
            // Scissor off again however the draw ends: an app's own GL
            // outside a frame and the next scene must not find it on.
            defer {
                target.clip = nil
                if window.hasGraphicsContext { applyClip(target) }
            }
            let shared = host.graphics
            let context = DrawingContext(
                target: target, resources: { [shared] in try graphics ?? shared.resources() }, redrawRect: repaint)
            drawCount += 1
            redrawnPixels += repaint.area
            do {
                try delegate.draw(self, in: context)
            } catch {
                host.report(error)
            }
            // A capture reads the drawn buffer: a held page frame is drawn for it.
            if !captures.isEmpty { context.settle() }
            // Resolved with the frame's own watchers (presentation feedback
            // where it comes, else the frame callback) by trackShown below.
            for action in context.afterShown { feedback.shownWatchers.append { _ in action() } }
            if let held = context.takeHeldFrame() {
                feedback.trackShown(feedbackToken: feedbackToken, surface: surface)
                try window.present(staged: held)
                framesPresentedAsIs += 1
            } else {
                if let error = context.settleError { host.report(error) }
                if let graphics, let copy = target as? OffscreenTarget {
                    try retainedFrame.draw(copy, into: window, quads: graphics.quads())
                }
                feedback.trackShown(feedbackToken: feedbackToken, surface: surface)
                // The whole buffer is this frame now: outside the repaint it
                // still holds what the frames it missed drew. (Reads are not
                // scissored.)
                captures.deliver(from: window, screen: screen?.name)
                try window.present(damage: damage?.map(\.pixelRect))
            }
            for action in context.afterPresent { action() }
            if !displayLink.isPaused,
                let warning = warnings.frameTook(
                    monotonicNanoseconds() - now, refreshSeconds: displayLink.duration, screen: screen?.name)
            {
                host.report(warning)
            }
        } catch {
            host.report(
                SceneError(
                    screen: screen?.name, reason: "cannot present a frame: \(error)", fix: "see `screenplay doctor`"))
        }
    }

    /// The shared context, for a window that asks when it first draws
    /// with GL, perhaps long after: the connection's graphics then, not
    /// now's. WindowSurface calls it on the main thread, drawing.
    func graphicsWhenDrawn() -> () throws -> GraphicsContext {
        { [weak self] in
            nonisolated(unsafe) var made: GraphicsContext?
            try MainActor.assumeIsolated {
                guard let self, !self.isTornDown else { throw RenderingError.destroyed(what: "scene") }
                made = try self.host.graphics.context()
            }
            guard let made else { throw RenderingError.destroyed(what: "GraphicsContext") }
            return made
        }
    }
}
