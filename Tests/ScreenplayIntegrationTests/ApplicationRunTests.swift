import Foundation
import Screenplay
import TestHarness
import TestSupport
import XCTest

/// Shared by a keypad-like window and the TV scenes of one test.
@MainActor
final class RunModel {
    var value = 0
    var tvScenes: [Scene] = []
    var events: [String] = []
    /// Key handled -> the TV's next frame shown, in refreshes.
    var latencies: [Double] = []
    var keysWanted = 0
    var onDone: (() -> Void)?
}

@MainActor
final class RunTV: SceneDelegate {
    let model: RunModel
    init(model: RunModel) { self.model = model }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        model.tvScenes.append(scene)
        model.events.append("connect tv \(scene.screen?.name ?? "?")")
    }
    func sceneDidDisconnect(_ scene: Scene) {
        model.tvScenes.removeAll { $0 === scene }
        model.events.append("disconnect tv \(scene.screen?.name ?? "?")")
    }
    func draw(_ scene: Scene, in context: DrawingContext) throws {
        try context.clear(model.value % 2 == 0 ? RGBColor(hex: 0x000080) : RGBColor(hex: 0x808000))
    }
}

@MainActor
final class RunKeypad: SceneDelegate {
    let model: RunModel
    init(model: RunModel) { self.model = model }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) { model.events.append("connect window") }
    func sceneDidDisconnect(_ scene: Scene) { model.events.append("disconnect window") }
    func draw(_ scene: Scene, in context: DrawingContext) throws { try context.clear(RGBColor(hex: 0x202020)) }

    /// The redraw the issue asks for: the handler changes the model and
    /// asks the TV to draw; the time from here to the TV's frame is measured.
    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {
        guard event.isPressed, let tv = model.tvScenes.first else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        model.value += 1
        let refreshNs = tv.displayLink.duration * 1e9
        tv.whenNextFrameShown { [model] shown in
            model.latencies.append(Double(shown.monotonicNs &- start) / refreshNs)
            model.events.append("shown by \(shown.clock)")
            if model.latencies.count == model.keysWanted { model.onDone?() }
        }
        tv.setNeedsDisplay()
    }
}

/// Shuts the app down after 20 s, so a run() that never returns fails
/// instead of hanging the test; `fired` says whether it had to.
@MainActor
final class Watchdog {
    private(set) var fired = false
    init(_ app: Application) {
        DispatchQueue.main.asyncAfter(deadline: .now() + 20) { [weak self] in
            MainActor.assumeIsolated {
                self?.fired = !app.scenes.isEmpty
                app.shutdown()
            }
        }
    }
}

/// `Application.run()` against headless sway: it drives the app until
/// SIGTERM and returns with every scene torn down (or runs the app's own
/// stop handler first); a key handled in the window reaches the TV's screen
/// within two refreshes.
final class ApplicationRunTests: ScreenplayTestCase {
    @MainActor
    static func start(_ rig: SwayRig, _ model: RunModel) throws -> Application {
        var options = ApplicationOptions()
        options.displayName = rig.waylandDisplay
        options.builtInPatterns = ["HEADLESS-1"]
        let app = try Application(options: options)
        app.registerSceneAccessory(
            .externalNonInteractive(sceneConfiguration: SceneConfiguration(name: "tv") { RunTV(model: model) }))
        _ = try app.openWindow(configuration: SceneConfiguration(name: "keypad") { RunKeypad(model: model) })
        return app
    }

    /// Calls `body` on the main queue once `condition` holds (checked every 20 ms).
    @MainActor
    static func when(_ condition: @escaping @MainActor () -> Bool, _ body: @escaping @MainActor () -> Void) {
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(20)) {
            MainActor.assumeIsolated { condition() ? body() : Self.when(condition, body) }
        }
    }

    // XCTest on Linux runs synchronous tests on the main thread but cannot
    // call a @MainActor test method: each test enters the actor itself, and
    // stays synchronous so run() drains the main queue from the outside.
    func testRunReturnsOnSIGTERMWithEverySceneTornDown() throws {
        try MainActor.assumeIsolated { try Self.runReturnsOnSIGTERM() }
    }

    func testKeyInTheWindowReachesTheTVWithinTwoRefreshes() throws {
        try MainActor.assumeIsolated { try Self.keyReachesTheTV() }
    }

    func testStopSignalHandlerTearsDownFirstAndTheDeadlineEndsWithRun() throws {
        try MainActor.assumeIsolated { try Self.stopSignalHandlerTearsDownFirst() }
    }

    func testWorkPostedToTheMainQueueRunsWhileRunDrivesTheApp() throws {
        try MainActor.assumeIsolated { try Self.mainQueueWorkRuns(waitsInRunLoop: true) }
    }

    /// The `screenplay` tool's way (`waitsInRunLoop: false`): the same
    /// work but `RunLoop.main`'s runs, and a Foundation timer does not.
    func testWorkPostedToTheMainQueueRunsWhenRunWaitsInOnePoll() throws {
        try MainActor.assumeIsolated { try Self.mainQueueWorkRuns(waitsInRunLoop: false) }
    }

    /// `run()` drives Screenplay's loop: blocks posted to the main queue
    /// from another thread, a main-queue timer source, a main-actor task
    /// and (waiting in `RunLoop.main`) a Foundation timer on it still run
    /// while it drives the scenes, each once.
    @MainActor
    private static func mainQueueWorkRuns(waitsInRunLoop: Bool) throws {
        let rig = try SwayRig.start(outputs: [.init(width: 800, height: 600), .init(width: 800, height: 600)])
        defer { rig.stop() }
        let model = RunModel()
        let app = try start(rig, model)
        let ran = RunModel()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        var foundationTimer: Timer?
        var scheduledAt: Date?
        when({ model.events.count == 2 }) {
            scheduledAt = Date()
            Thread.detachNewThread {
                DispatchQueue.main.async { MainActor.assumeIsolated { ran.events.append("block from a thread") } }
            }
            timer.schedule(deadline: .now() + .milliseconds(50))
            timer.setEventHandler { MainActor.assumeIsolated { ran.events.append("timer source") } }
            timer.resume()
            Task { @MainActor in ran.events.append("main-actor task") }
            foundationTimer = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: false) { _ in
                MainActor.assumeIsolated { ran.events.append("Foundation timer") }
            }
        }
        var expected: Set = ["block from a thread", "timer source", "main-actor task"]
        if waitsInRunLoop { expected.insert("Foundation timer") }
        // Past the Foundation timer's time either way, so one that fires is seen.
        let pastTheTimer = { scheduledAt.map { Date().timeIntervalSince($0) > 0.5 } ?? false }
        when({ ran.events.count >= expected.count && pastTheTimer() }) {
            // A frame after all three: the scenes still draw.
            model.tvScenes.first?.setNeedsDisplay()
            model.tvScenes.first?.whenNextFrameShown { _ in app.shutdown() }
        }
        let watchdog = Watchdog(app)
        try app.run(RunOptions(waitsInRunLoop: waitsInRunLoop))
        timer.cancel()
        foundationTimer?.invalidate()
        XCTAssertFalse(
            watchdog.fired, "run() returned because of the watchdog: ran \(ran.events), events \(model.events)")
        XCTAssertEqual(Set(ran.events), expected)
        XCTAssertEqual(ran.events.count, expected.count, "each ran once: \(ran.events)")
    }

    @MainActor
    private static func runReturnsOnSIGTERM() throws {
        let rig = try SwayRig.start(outputs: [
            .init(width: 800, height: 600), .init(width: 800, height: 600), .init(width: 800, height: 600),
        ])
        defer { rig.stop() }
        let model = RunModel()
        let app = try start(rig, model)
        when({ model.events.count == 3 }) { kill(getpid(), SIGTERM) }
        let watchdog = Watchdog(app)
        try app.run()
        XCTAssertFalse(watchdog.fired, "run() returned because of the watchdog, not because of SIGTERM")
        XCTAssertEqual(
            Set(model.events.prefix(3)), ["connect window", "connect tv HEADLESS-2", "connect tv HEADLESS-3"])
        XCTAssertEqual(
            Set(model.events.dropFirst(3)),
            ["disconnect window", "disconnect tv HEADLESS-2", "disconnect tv HEADLESS-3"],
            "SIGTERM tears every scene down: \(model.events)")
        XCTAssertTrue(app.scenes.isEmpty)
        XCTAssertThrowsError(try app.roundtrip(), "the connection is closed after run returns")
    }

    /// `RunOptions.onStopSignal` runs on the main queue instead of
    /// `shutdown()`: the app's own teardown comes before the scenes go, and
    /// `run` returns once it calls `shutdown()`. The teardown deadline is
    /// dropped when `run` returns: the process lives on past it.
    @MainActor
    private static func stopSignalHandlerTearsDownFirst() throws {
        let rig = try SwayRig.start(outputs: [.init(width: 800, height: 600), .init(width: 800, height: 600)])
        defer { rig.stop() }
        let model = RunModel()
        let app = try start(rig, model)
        var options = RunOptions()
        options.onStopSignal = { signal in
            model.events.append("stop \(signal), \(app.scenes.count) scenes")
            app.shutdown()
        }
        let deadline = 1.0
        options.teardownDeadline = TeardownDeadline(seconds: deadline) { "deadline passed: \($0)" }
        when({ model.events.count == 2 }) { kill(getpid(), SIGINT) }
        let watchdog = Watchdog(app)
        try app.run(options)
        XCTAssertFalse(watchdog.fired, "run() returned because of the watchdog, not because of SIGINT")
        XCTAssertEqual(
            model.events.dropFirst(2).first, "stop SIGINT, 2 scenes", "the handler runs first: \(model.events)")
        XCTAssertEqual(
            Set(model.events.dropFirst(3)), ["disconnect window", "disconnect tv HEADLESS-2"],
            "shutdown() in the handler tears every scene down: \(model.events)")
        // Had the deadline stayed armed, the process would _exit here.
        Thread.sleep(forTimeInterval: deadline + 1)
    }

    @MainActor
    private static func keyReachesTheTV() throws {
        let rig = try SwayRig.start(outputs: [.init(width: 800, height: 600), .init(width: 800, height: 600)])
        defer { rig.stop() }
        try rig.attachKeyboard()
        try rig.focusOutput("HEADLESS-1")
        let model = RunModel()
        model.keysWanted = 6
        let app = try start(rig, model)
        model.onDone = { app.shutdown() }
        let environment = rig.clientEnvironment
        let keys = model.keysWanted
        when({ model.events.count == 2 }) {
            // wtype from another thread: the main thread runs the app.
            Thread.detachNewThread {
                // The first call's keyboard appears with its key; later ones come once the app listens.
                for _ in 0..<keys {
                    _ = try? runProcess("wtype", ["-s", "200", "a"], environment: environment, timeout: 5)
                }
            }
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 30) { MainActor.assumeIsolated { app.shutdown() } }
        try app.run()
        XCTAssertEqual(model.latencies.count, model.keysWanted, "every key reached the TV: \(model.events)")
        // The end is the frame callback's arrival (sway gives no
        // presentation time), so a loaded machine adds its scheduling to one
        // key or another: the typical key is on the TV within two refreshes,
        // and none waits for a later batch.
        let sorted = model.latencies.sorted()
        XCTAssertLessThanOrEqual(sorted[sorted.count / 2], 2, "median key to the TV's frame, in refreshes: \(sorted)")
        XCTAssertLessThanOrEqual(sorted.last ?? 0, 6, "a key to the TV's frame, in refreshes: \(sorted)")
    }
}
