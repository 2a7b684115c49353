import Dispatch
import EventLoop
import Foundation
import Rendering
import WaylandClient

/// The app's link to the display server, as `UIApplication` and
/// `UIScreen.screens` together: it owns the Wayland connection (on the main
/// thread), turns outputs into `Screen`s, and connects a scene on every
/// external screen while an accessory registration is presented.
@MainActor
public final class Application {
    /// The options the application was made with.
    public let options: ApplicationOptions
    /// The connection now; replaced when `CompositorLossBehavior.reconnect`
    /// reconnects.
    private(set) var connection: Connection
    private(set) var compositor: Compositor
    private var classifier: ScreenClassifier
    /// Complete screens, in announcement order.
    public private(set) var screens: [Screen] = []
    /// Every scene now: accessory scenes and windows.
    public private(set) var scenes: [Scene] = []
    private var accessoryScenes: [UInt32: Scene] = [:]
    private var registrations: [SceneAccessoryRegistration] = []
    private var stack = RegistrationStack()
    private var nextSerial = 0
    private var graphicsContext: GraphicsContext?
    private var sharedResources: GraphicsResources?
    private var renderScheduled = false
    private var lastAvailability = false
    private(set) var isShutDown = false
    /// The registration whose scenes are shown now (see `reconcile`).
    private var presentedSerial: Int?
    private var warnedFallback = false
    private let memoryTrimmer = MemoryTrimmer()
    /// True while the events of a batch are handled (`handleBatch`):
    /// registration changes made by handlers then wait for its end.
    private var isHandlingBatch = false
    /// A reconcile asked for while a batch was being handled.
    private var needsReconcile = false
    /// Mode and power requests in flight (ScreenRequests.swift).
    let screenRequests = ScreenRequests()

    /// Hears a new screen, after classification.
    public var onScreenConnect: ((Screen) -> Void)?
    /// Hears a changed screen (mode, scale, transform, position).
    public var onScreenChange: ((Screen) -> Void)?
    /// Hears a removed screen, after its scenes were torn down.
    public var onScreenDisconnect: ((Screen) -> Void)?
    /// Hears every failure that did not stop the app (a scene that could
    /// not be shown, a draw that threw).
    public var onSceneError: ((any Error) -> Void)?
    /// Hears the compositor going away; every scene is already torn down
    /// and every screen reported gone. What follows is
    /// `ApplicationOptions.whenCompositorGoes`.
    public var onConnectionLost: ((ApplicationError) -> Void)?
    /// Hears a reconnect (`CompositorLossBehavior.reconnect`): the new
    /// compositor's screens are known, and the windows that were open
    /// are opening again with their delegates.
    public var onReconnect: (() -> Void)?
    /// True while `run()` drains the main queue.
    var isRunning = false
    /// Why `run()` is to throw once it returns.
    var runError: ApplicationError?

    /// Connects and waits until every output is described.
    public init(options: ApplicationOptions = .init()) throws(ApplicationError) {
        self.options = options
        classifier = ScreenClassifier(
            builtInPatterns: ScreenClassifier.environmentPatterns(ProcessInfo.processInfo.environment)
                + options.builtInPatterns)
        (connection, compositor) = try Self.link(options)
        try attachLink()
    }

    /// A connection and an unstarted compositor for `options`.
    private static func link(_ options: ApplicationOptions) throws(ApplicationError) -> (Connection, Compositor) {
        let connection: Connection
        do {
            connection = try Connection(name: options.displayName)
        } catch {
            throw ApplicationError(kind: .noCompositor, description: error.description)
        }
        var limits = Compositor.VersionLimits()
        limits.output = options.maxOutputVersion
        limits.xdgOutputManager = options.maxXdgOutputVersion
        limits.layerShell = options.maxLayerShellVersion
        return (connection, Compositor(connection: connection, limits: limits))
    }

    /// Hooks the event flow to the connection and binds the globals: at
    /// start, and again after a reconnect. Whatever EGL context the app had
    /// current (its own window's) is current again after each batch.
    private func attachLink() throws(ApplicationError) {
        let connection = self.connection
        connection.addAfterDispatch { [weak self, weak connection] in
            guard let self, self.connection === connection else { return }
            CurrentContext.preserving { self.handleBatch() }
        }
        connection.onLost { [weak self, weak connection] error in
            guard let self, self.connection === connection else { return }
            CurrentContext.preserving { self.lost(error) }
        }
        do {
            try compositor.start()
        } catch {
            throw ApplicationError(kind: .connectionLost, description: error.description)
        }
        connection.startEventSource()
    }

    /// Where the connection went, for messages.
    public var socketDescription: String { connection.socketDescription }
    /// Whether external scenes use wlr-layer-shell.
    public var hasLayerShell: Bool { compositor.layerShell != nil }

    /// Screens that get external-display scenes.
    public var externalScreens: [Screen] { screens.filter(isTarget) }
    /// The screen that keeps the app's controls: the built-in panel, else
    /// the main screen of the classification.
    public var mainScreen: Screen? { screens.first { !$0.classification.isExternal } ?? screens.first }

    func screen(withID id: UInt32) -> Screen? { screens.first { $0.id == id } }

    // MARK: the event flow

    /// Runs after each batch of events, outside libwayland's dispatch (the
    /// listeners only recorded what happened): screens appear, change and
    /// go, keys, pointer and touch reach their windows in the order the
    /// compositor sent them, mode and power requests hand over their
    /// answers, registrations changed by any of those handlers take effect,
    /// then every scene applies what its own events left (closed, entered
    /// outputs, presentation feedback, configures) and, last, draws what is
    /// due. Any handler may shut the application down; nothing runs after
    /// that.
    private func handleBatch() {
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
            case .key(let event): deliverKey(event)
            case .pointer(let event): deliverPointer(event)
            case .touch(let event): deliverTouch(event)
            }
            guard !isShutDown else { return }
        }
        screenRequests.advance(self)
        guard !isShutDown else { return }
        while needsReconcile, !isShutDown {
            needsReconcile = false
            reconcile()
        }
        for scene in scenes where !isShutDown { scene.applyPendingState() }
        for scene in scenes where !isShutDown { scene.drawIfNeeded() }
        if !isShutDown { screenRequests.updatePanelWatch(self) }
    }

    /// Makes the scenes match the registrations and screens: at once, or
    /// at the end of the batch being handled (a handler's change must not
    /// tear down scenes while the batch still walks them).
    func requestReconcile() {
        if isHandlingBatch { needsReconcile = true } else { CurrentContext.preserving { reconcile() } }
    }

    private func isTarget(_ screen: Screen) -> Bool {
        guard screen.isConnected else { return false }
        return targetReason(screen).isTarget
    }

    /// Why `screen` does or does not get an external scene, in words.
    public func targetReason(_ screen: Screen) -> (isTarget: Bool, reason: String) {
        if !screen.isEnabled {
            return (false, "the compositor has this output disabled (its output-management head says so)")
        }
        let (admitted, reason) = options.targets.admits(screen.classification)
        guard admitted else { return (false, reason) }
        if let filter = options.screenFilter, !filter(screen) {
            return (false, "excluded by --output")
        }
        return (true, reason)
    }

    // MARK: screens

    private func outputReady(_ output: Output) {
        guard let info = output.info else { return }
        let screen = Screen(output: output, info: info, classification: .init(kind: .external, reason: ""))
        screen.head = head(for: screen)
        screens.append(screen)
        reclassify()
        onScreenConnect?(screen)
        requestReconcile()
    }

    private func outputChanged(_ output: Output) {
        guard let screen = screens.first(where: { $0.output === output }), let info = output.info else { return }
        screen.update(info)
        reclassify()
        for scene in scenes { scene.screenChanged(screen) }
        onScreenChange?(screen)
        requestReconcile()
    }

    private func outputRemoved(_ output: Output) {
        guard let index = screens.firstIndex(where: { $0.output === output }) else { return }
        let screen = screens.remove(at: index)
        screen.isConnected = false
        if let scene = accessoryScenes.removeValue(forKey: screen.id) { remove(scene) }
        for scene in scenes { scene.surface.forget(outputNamed: screen.id) }
        reclassify()
        onScreenDisconnect?(screen)
        requestReconcile()
    }

    /// Makes `screen` the only built-in screen and every other one external,
    /// overriding the connector rules, `SCREENPLAY_BUILTIN` and the options:
    /// for when the guess was wrong ("which screen is the projector?").
    /// Accessory scenes move at once.
    public func markAsOnlyBuiltIn(_ screen: Screen) {
        classifier = ScreenClassifier(builtInPatterns: [screen.name])
        reclassify()
        requestReconcile()
    }

    func reclassify() {
        // Patterns see the same make, model and serial as `ScreenPattern`
        // matching a `Screen` does (`--output`, `ctl`): the head's, where the
        // compositor offers output management; wl_output has no serial.
        let kinds = classifier.classify(
            screens.map { screen in
                var info = screen.info
                info.make = screen.make
                info.model = screen.model
                info.serial = screen.serial
                return info
            })
        for (screen, kind) in zip(screens, kinds) { screen.classification = kind }
    }

    private func globalRemoved(_ info: GlobalInfo) {
        guard info.interface == "zwlr_layer_shell_v1" else { return }
        report(
            SceneError(
                screen: nil,
                reason:
                    "the compositor withdrew zwlr_layer_shell_v1; shown scenes stay until their screens go, new screens get none",
                fix: "restart the compositor's layer-shell support or restart Screenplay"))
    }

    // MARK: registrations

    /// Registers content for external screens; the most recent registration
    /// is presented while it is enabled.
    @discardableResult
    public func registerSceneAccessory(_ accessory: SceneAccessory) -> SceneAccessoryRegistration {
        nextSerial += 1
        let registration = SceneAccessoryRegistration(accessory: accessory, application: self, serial: nextSerial)
        registrations.append(registration)
        stack.register(registration.serial)
        registrationsChanged()
        return registration
    }

    /// Stops offering the content; its scenes are disconnected and the
    /// registration before it (if any) takes over.
    public func unregisterSceneAccessory(_ registration: SceneAccessoryRegistration) {
        registrations.removeAll { $0 === registration }
        stack.unregister(registration.serial)
        registration.application = nil
        registrationsChanged()
    }

    /// The registration presented now.
    public var presentedRegistration: SceneAccessoryRegistration? {
        guard let serial = stack.presented else { return nil }
        return registrations.first { $0.serial == serial }
    }

    func registrationsChanged() {
        for r in registrations { stack.setEnabled(r.serial, r.isEnabled) }
        requestReconcile()
    }

    /// Asks `ApplicationOptions.screenFilter` again for every screen: call it
    /// when what the filter depends on changed (a reloaded configuration),
    /// so screens it now takes get scenes and screens it drops lose theirs.
    public func reevaluateScreens() { requestReconcile() }

    /// Makes the set of accessory scenes match (presented registration ×
    /// target screens).
    func reconcile() {
        guard !isShutDown else { return }
        let presented = presentedRegistration
        if presented?.serial != presentedSerial {
            for scene in accessoryScenes.values { remove(scene) }
            accessoryScenes.removeAll()
            presentedSerial = presented?.serial
        }
        let targets = externalScreens
        for (id, scene) in accessoryScenes where !targets.contains(where: { $0.id == id }) {
            accessoryScenes[id] = nil
            remove(scene)
        }
        if let presented, compositor.connection.failure == nil {
            for screen in targets where accessoryScenes[screen.id] == nil {
                connectScene(for: presented, on: screen)
            }
        }
        let available = !targets.isEmpty
        if available != lastAvailability {
            lastAvailability = available
            for r in registrations { r.onAvailabilityChange?(available) }
        }
        connection.flush()
    }

    private func connectScene(for registration: SceneAccessoryRegistration, on screen: Screen) {
        if compositor.layerShell == nil && !warnedFallback {
            warnedFallback = true
            let why =
                options.maxLayerShellVersion == 0
                ? "layer shell is turned off (fullscreen window asked for)"
                : "the compositor has no zwlr_layer_shell_v1 (GNOME has none)"
            report(
                SceneError(
                    screen: nil, reason: "warning: \(why), so external scenes are fullscreen windows instead",
                    fix:
                        "they may take keyboard focus, show in task switchers, and the compositor may place them on another screen than asked"
                ))
        }
        let configuration = registration.accessory.sceneConfiguration
        let session = SceneSession(
            role: .externalDisplayNonInteractive, configuration: configuration,
            userInfo: registration.accessory.userInfo, identifier: "\(configuration.name ?? "scene")@\(screen.name)")
        do {
            let scene = try Scene(
                host: self, session: session, delegate: configuration.delegateFactory(), screen: screen,
                layer: configuration.layer.layer)
            accessoryScenes[screen.id] = scene
            scenes.append(scene)
        } catch {
            report(error)
        }
    }

    /// Opens an ordinary interactive window (role `application`).
    public func openWindow(configuration: SceneConfiguration) throws -> Scene {
        let session = SceneSession(
            role: .application, configuration: configuration, userInfo: [:],
            identifier: "\(configuration.name ?? "window")")
        let scene = try Scene(
            host: self, session: session, delegate: configuration.delegateFactory(), screen: nil, layer: .top)
        scenes.append(scene)
        connection.flush()
        return scene
    }

    /// Closes a window or scene the app made.
    public func close(_ scene: Scene) {
        accessoryScenes = accessoryScenes.filter { $0.value !== scene }
        CurrentContext.preserving { remove(scene) }
    }

    private func remove(_ scene: Scene) {
        scenes.removeAll { $0 === scene }
        scene.tearDown()
        connection.flush()
        memoryTrimmer.schedule()
    }

    func report(_ error: any Error) {
        if let onSceneError {
            onSceneError(error)
        } else {
            try? FileHandle.standardError.write(contentsOf: Data("screenplay: \(error)\n".utf8))
        }
    }

    // MARK: rendering

    func graphics() throws -> GraphicsContext {
        if let graphicsContext { return graphicsContext }
        let context = try GraphicsContext(waylandDisplay: connection.display)
        graphicsContext = context
        return context
    }

    /// Brings up EGL/GLES on this connection and describes the driver, so
    /// `doctor` can say whether rendering will work before any scene exists.
    public func graphicsDescription() throws -> String {
        let context = try CurrentContext.preserving { try graphics() }
        return
            "\(context.renderer), \(context.version), GLES \(context.glesMajorVersion), \(context.isOpaqueConfig ? "opaque" : "alpha") config"
    }

    /// The resources if any scene has drawn, without bringing up EGL.
    var sharedResourcesIfAny: GraphicsResources? { sharedResources }

    func resources() throws -> GraphicsResources {
        if let sharedResources { return sharedResources }
        let made = GraphicsResources(context: try graphics())
        sharedResources = made
        return made
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

    // MARK: shutdown

    private func lost(_ error: ConnectionError) {
        let appError = ApplicationError(
            kind: error.kind == .protocolError ? .protocolError : .connectionLost, description: error.description)
        // Windows come back after a reconnect with the same session and delegate.
        let windows = scenes.filter { $0.session.role == .application }.map { ($0.session, $0.delegate) }
        screenRequests.abandonAll("the connection to the compositor was lost (\(error.description))")
        tearDownEverything()
        forgetScreens()
        onConnectionLost?(appError)
        guard !isShutDown else { return }
        switch options.whenCompositorGoes {
        case .stop:
            if isRunning {
                runError = appError
                shutdown()
            }
        case let .reconnect(interval):
            releaseLink()
            // Every surface, decoder and the EGL display went at once.
            memoryTrimmer.schedule()
            reconnect(every: interval, windows: windows, attempt: 0)
        }
    }

    /// The screens went with the connection: each is reported gone, and
    /// registrations hear they have nothing to show on.
    private func forgetScreens() {
        let gone = screens
        screens.removeAll()
        for screen in gone {
            screen.isConnected = false
            onScreenDisconnect?(screen)
        }
        if lastAvailability {
            lastAvailability = false
            for r in registrations { r.onAvailabilityChange?(false) }
        }
    }

    /// Frees what belonged to the lost connection: GL objects and the EGL
    /// display made on it, every proxy, the connection itself.
    private func releaseLink() {
        sharedResources?.destroy()
        sharedResources = nil
        graphicsContext?.destroy()
        graphicsContext = nil
        compositor.destroy()
        connection.disconnect()
    }

    /// Tries the same socket every `interval` (a timer of the main event
    /// loop, no busy loop) until a compositor answers, then shows the
    /// registrations on its screens and reopens the windows.
    private func reconnect(every interval: Duration, windows: [(SceneSession, any SceneDelegate)], attempt: Int) {
        let delayNs = UInt64(
            clamping: interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        MainEventLoop.shared.after(ns: delayNs) { [weak self] in
            guard let self, !self.isShutDown else { return }
            guard let (connection, compositor) = try? Self.link(self.options) else {
                return self.reconnect(every: interval, windows: windows, attempt: attempt + 1)
            }
            self.connection = connection
            self.compositor = compositor
            do {
                try self.attachLink()
            } catch {
                // It went again during the set-up: start over.
                compositor.destroy()
                connection.disconnect()
                return self.reconnect(every: interval, windows: windows, attempt: attempt + 1)
            }
            for (session, delegate) in windows { self.reopen(session, delegate: delegate) }
            self.onReconnect?()
            self.requestReconcile()
        }
    }

    private func tearDownEverything() {
        for scene in scenes { scene.tearDown() }
        scenes.removeAll()
        accessoryScenes.removeAll()
    }

    private func reopen(_ session: SceneSession, delegate: any SceneDelegate) {
        do {
            scenes.append(try Scene(host: self, session: session, delegate: delegate, screen: nil, layer: .top))
            connection.flush()
        } catch {
            report(error)
        }
    }

    /// Tears every scene down and closes the connection (a `run()` in
    /// progress then returns). Idempotent.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        screenRequests.abandonAll("the application shut down")
        CurrentContext.preserving {
            tearDownEverything()
            releaseLink()
        }
    }

    /// Blocks until the compositor has answered everything sent so far,
    /// dispatching its events on this thread: a nested pump, so it is for
    /// tests only (package access) and never called from a handler or a
    /// draw; apps get every answer as an event in a later batch.
    package func roundtrip() throws {
        do { try connection.roundtrip() } catch {
            throw ApplicationError(kind: .connectionLost, description: error.description)
        }
        connection.dispatchPending()
    }
}

/// What a scene needs from its owner, and no more.
extension Application: SceneHost {
    func sceneNeedsRender() { scheduleRender() }

    func sceneDidClose(_ scene: Scene) {
        // Since wlroots 0.19 a lost output closes its layer surfaces: the
        // scene goes, the registration stays, and a returning screen gets a
        // new scene through reconcile().
        close(scene)
    }

    func flush() { connection.flush() }

    func sceneFreedMemory() { memoryTrimmer.schedule() }

    var drawWatch: DrawWatch? { options.drawWatch }
}
