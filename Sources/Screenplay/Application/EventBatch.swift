import EventLoop
import Rendering
import WaylandClient

/// What one batch of the compositor's events does to the application, in
/// the order the events came: screens appear, change and go, input reaches
/// its windows, requests hand over their answers, registrations take
/// effect, and the scenes apply their own events and draw.
@MainActor
struct EventBatch {
    unowned let app: Application

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
    func handle() {
        guard !app.isShutDown, !app.isHandlingBatch else { return }
        app.isHandlingBatch = true
        defer { app.isHandlingBatch = false }
        // The proxies the listeners only asked for: made and dropped here.
        app.compositor.settle()
        // A handler may dispatch again (`roundtrip()`), so take events
        // until none are left.
        var events = app.compositor.takeEvents()
        while !events.isEmpty {
            for event in events {
                guard !app.isShutDown else { return }
                switch event {
                case .outputReady(let output): outputReady(output)
                case .outputChanged(let output): outputChanged(output)
                case .outputRemoved(let output): outputRemoved(output)
                case .globalRemoved(let info): globalRemoved(info)
                case .headsChanged: headsChanged()
                }
            }
            guard !app.isShutDown else { return }
            app.compositor.releaseRemovedOutputs()
            app.compositor.settle()
            events = app.compositor.takeEvents()
        }
        for record in app.compositor.seat?.takeInput() ?? [] {
            switch record {
            case .key(let event): InputRouting(scenes: app.scenes).deliver(event)
            case .pointer(let event): InputRouting(scenes: app.scenes).deliver(event)
            case .touch(let event): InputRouting(scenes: app.scenes).deliver(event)
            }
            guard !app.isShutDown else { return }
        }
        app.screenRequests.advance(app)
        guard !app.isShutDown else { return }
        while app.needsReconcile, !app.isShutDown {
            app.needsReconcile = false
            SceneReconcile(app: app).run()
        }
        var closing: [Scene] = []
        for scene in app.scenes where !app.isShutDown {
            if scene.changes.applyPendingState() == .close { closing.append(scene) }
        }
        for scene in closing where !app.isShutDown { app.close(scene) }
        for scene in app.scenes where !app.isShutDown { scene.drawIfNeeded() }
        if !app.isShutDown { app.screenRequests.updatePanelWatch(app) }
    }

    /// Handles a batch soon even if no event arrives (a draw asked for
    /// from a timer, a frame callback's skip timer): through the same path
    /// as events, so queued events are dispatched first.
    static func schedule(for app: Application) {
        guard !app.renderScheduled else { return }
        app.renderScheduled = true
        MainEventLoop.shared.soon { [weak app] in
            guard let app else { return }
            app.renderScheduled = false
            app.connection.dispatchPending()
        }
    }

    private func outputReady(_ output: Output) {
        guard let screen = app.screenRegistry.add(output, heads: app.compositor.outputManager) else { return }
        screen.application = app
        app.onScreenConnect?(screen)
        app.requestReconcile()
    }

    private func outputChanged(_ output: Output) {
        guard let screen = app.screenRegistry.update(output) else { return }
        for scene in app.scenes { scene.changes.screenChanged(screen) }
        app.onScreenChange?(screen)
        app.requestReconcile()
    }

    private func outputRemoved(_ output: Output) {
        guard let screen = app.screenRegistry.remove(output) else { return }
        if let scene = app.accessories.takeScene(onScreen: screen.id) { app.remove(scene) }
        for scene in app.scenes { scene.surface.forget(outputNamed: screen.id) }
        app.onScreenDisconnect?(screen)
        app.requestReconcile()
    }

    /// The output manager published a new state: give each screen its head
    /// and drop scenes on heads now disabled.
    private func headsChanged() {
        let changed = app.screenRegistry.takeHeads(from: app.compositor.outputManager)
        guard !changed.isEmpty else { return }
        for screen in changed { app.onScreenChange?(screen) }
        app.requestReconcile()
    }

    private func globalRemoved(_ info: GlobalInfo) {
        guard info.interface == "zwlr_layer_shell_v1" else { return }
        app.report(
            SceneError(
                screen: nil,
                reason:
                    "the compositor withdrew zwlr_layer_shell_v1; shown scenes stay until their screens go, new screens get none",
                fix: "restart the compositor's layer-shell support or restart Screenplay"))
    }
}

extension Application {
    /// Makes the scenes match the registrations and screens: at once, or
    /// at the end of the batch being handled (a handler's change must not
    /// tear down scenes while the batch still walks them).
    func requestReconcile() {
        if isHandlingBatch {
            needsReconcile = true
        } else {
            CurrentContext.preserving { SceneReconcile(app: self).run() }
        }
    }
}
