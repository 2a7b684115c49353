import EventLoop
import Rendering

extension Application {
    /// Runs after each batch of events, outside libwayland's dispatch (the
    /// listeners only recorded what happened): screens appear, change and
    /// go, keys, pointer and touch reach their windows in the order the
    /// compositor sent them, mode and power requests hand over their
    /// answers, registrations changed by any of those handlers take effect,
    /// then every scene applies what its own events left (closed, entered
    /// outputs, presentation feedback, configures), the scenes that are to
    /// close are closed once that walk is over, and, last, each draws what
    /// is due. Any handler may shut the application down; nothing runs
    /// after that.
    func handleBatch() {
        guard !isShutDown, !isHandlingBatch else { return }
        isHandlingBatch = true
        defer { isHandlingBatch = false }
        // The proxies the listeners only asked for: made and dropped here.
        compositor.settle()
        // A handler may dispatch again (`roundtrip()`), so take events
        // until none are left.
        var events = compositor.takeEvents()
        while !events.isEmpty {
            for event in events {
                guard !isShutDown else { return }
                switch event {
                case .outputReady(let output): outputReady(output)
                case .outputChanged(let output): outputChanged(output)
                case .outputRemoved(let output): outputRemoved(output)
                case .globalRemoved(let info): globalRemoved(info)
                case .headsChanged: headsChanged()
                }
            }
            guard !isShutDown else { return }
            compositor.releaseRemovedOutputs()
            compositor.settle()
            events = compositor.takeEvents()
        }
        for record in compositor.seat?.takeInput() ?? [] {
            switch record {
            case .key(let event): InputRouting(scenes: scenes).deliver(event)
            case .pointer(let event): InputRouting(scenes: scenes).deliver(event)
            case .touch(let event): InputRouting(scenes: scenes).deliver(event)
            }
            guard !isShutDown else { return }
        }
        screenRequests.advance(self)
        guard !isShutDown else { return }
        while needsReconcile, !isShutDown {
            needsReconcile = false
            reconcile()
        }
        var closing: [Scene] = []
        for scene in scenes where !isShutDown {
            if scene.changes.applyPendingState() == .close { closing.append(scene) }
        }
        for scene in closing where !isShutDown { close(scene) }
        for scene in scenes where !isShutDown { scene.drawIfNeeded() }
        if !isShutDown { screenRequests.updatePanelWatch(self) }
    }

    /// Makes the scenes match the registrations and screens: at once, or
    /// at the end of the batch being handled (a handler's change must not
    /// tear down scenes while the batch still walks them).
    func requestReconcile() {
        if isHandlingBatch { needsReconcile = true } else { CurrentContext.preserving { reconcile() } }
    }

    /// Handles a batch soon even if no event arrives (a draw asked for
    /// from a timer, a frame callback's skip timer): through the same path
    /// as events, so queued events are dispatched first.
    func scheduleRender() {
        guard !renderScheduled else { return }
        renderScheduled = true
        MainEventLoop.shared.soon { [weak self] in
            guard let self else { return }
            self.renderScheduled = false
            self.connection.dispatchPending()
        }
    }
}
