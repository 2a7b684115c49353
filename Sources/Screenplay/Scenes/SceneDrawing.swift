import EventLoop
import Rendering

extension Scene {
    /// Draws if a frame is due or content changed: the step after
    /// `applyPendingState` for every scene of the batch. `FrameRequest`
    /// decides whether a frame is drawn and what changed; `FrameDrawer`
    /// draws and presents it, repainting only what changed where the
    /// driver tells the back buffer's age.
    func drawIfNeeded() {
        guard !isTornDown, isConnected, let window = sceneSurface.window else { return }
        // A panel switched off shows nothing: ask for no frames until it is back.
        if displayLink.isPanelOff {
            pacing.dropDueRefresh()
            return
        }
        let now = monotonicNanoseconds()
        let bounds = SceneRect(x: 0, y: 0, width: window.pixelWidth, height: window.pixelHeight)
        guard
            let frame = frameRequest.take(
                within: bounds, pacing: pacing, nowNs: now, shouldDrawFrame: { delegate.sceneShouldDrawFrame(self) },
                isReady: { delegate.sceneIsReadyToDraw(self) })
        else { return }
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
        // Mesa's software swap may have taken a spare buffer while the
        // compositor held both, and keeps it: a new swap window, then a trim.
        if pacing.takeHeldFrame(), window.dropSwapWindow() { host.sceneFreedMemory() }
        do {
            let outlets = FrameDrawer.Outlets(
                graphics: host.graphics, feedback: feedback, captures: captures, surface: surface,
                screenName: screen?.name, report: host.report)
            // Only a scene with a web page leaves GL to the frame's first GL
            // call: a frame presented as it is then needs none.
            try frames.draw(
                frame.rects, of: window, bringUpGL: webPageCount == 0, feedbackToken: feedbackToken, outlets
            ) { context in
                try delegate.draw(self, in: context)
            }
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
