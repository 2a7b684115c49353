import Foundation
import Screenplay
import ScreenplayGLES
import TestHarness
import TestSupport
import XCTest

/// An EGL context of the test's own (as SDL's would be): a surfaceless Mesa
/// display, an OpenGL ES context and a 16x16 pbuffer as its draw and read
/// surface, current on the main thread.
@MainActor
final class ForeignEGL {
    let display: EGLDisplay
    let context: EGLContext
    let surface: EGLSurface

    init() throws {
        guard
            let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil),
            display != screenplay_gles_no_display(), eglInitialize(display, nil, nil) == EGLBoolean(EGL_TRUE)
        else { throw RigError("no surfaceless EGL display for the test's own context") }
        eglBindAPI(EGLenum(EGL_OPENGL_ES_API))
        let wanted: [EGLint] = [
            EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_RED_SIZE, 8, EGL_NONE,
        ]
        var config: EGLConfig?
        var count: EGLint = 0
        guard eglChooseConfig(display, wanted, &config, 1, &count) == EGLBoolean(EGL_TRUE), count == 1,
            let config,
            let context = eglCreateContext(
                display, config, screenplay_gles_no_context(), [EGL_CONTEXT_MAJOR_VERSION, 2, EGL_NONE]),
            let surface = eglCreatePbufferSurface(display, config, [EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE]),
            eglMakeCurrent(display, surface, surface, context) == EGLBoolean(EGL_TRUE)
        else { throw RigError("cannot make the test's own EGL context current: EGL error \(eglGetError())") }
        self.display = display
        self.context = context
        self.surface = surface
    }

    /// What is not as the test left it, in words (empty when all is).
    func changes() -> [String] {
        var changed: [String] = []
        if eglGetCurrentDisplay() != display { changed.append("display") }
        if eglGetCurrentContext() != context { changed.append("context") }
        if eglGetCurrentSurface(EGL_DRAW) != surface { changed.append("draw surface") }
        if eglGetCurrentSurface(EGL_READ) != surface { changed.append("read surface") }
        if eglQueryAPI() != EGLenum(EGL_OPENGL_ES_API) { changed.append("bound API") }
        return changed
    }

    func destroy() {
        eglMakeCurrent(
            display, screenplay_gles_no_surface(), screenplay_gles_no_surface(), screenplay_gles_no_context())
        eglDestroySurface(display, surface)
        eglDestroyContext(display, context)
    }
}

/// An application on the rig's sway (HEADLESS-1 built-in) with one
/// registration, and an app's own loop to drive it.
enum OwnLoopRig {
    @MainActor
    static func app(_ rig: SwayRig, _ delegate: @escaping @MainActor @Sendable () -> any SceneDelegate) throws
        -> Application
    {
        var options = ApplicationOptions()
        options.displayName = rig.waylandDisplay
        options.builtInPatterns = ["HEADLESS-1"]
        let app = try Application(options: options)
        app.registerSceneAccessory(
            .externalNonInteractive(sceneConfiguration: SceneConfiguration(delegateFactory: delegate)))
        return app
    }

    /// The app's loop: poll Screenplay's descriptor (at most 50 ms, a game's
    /// tick), `processEvents()`, then `each`, until `condition` or `seconds`.
    @MainActor
    static func drive(
        _ app: Application, seconds: Double, until condition: () -> Bool, each: () -> Void = {}
    ) {
        let end = Date().addingTimeInterval(seconds)
        var descriptor = pollfd(fd: EventPump.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while Date() < end, !condition() {
            _ = poll(&descriptor, 1, EventPump.timeoutMilliseconds(atMost: 50))
            EventPump.processEvents()
            each()
        }
    }
}

/// User and system CPU time of this process so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Whether a block sent to the main queue ran.
@MainActor
final class MainQueueProbe {
    var ran = false
}

/// Draws red at 30 frames a second and counts its frames.
@MainActor
final class PacedRed: SceneDelegate {
    static var frames: [String: Int] = [:]
    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        scene.displayLink.preferredFramesPerSecond = 30
        scene.displayLink.isPaused = false
    }
    func draw(_ scene: Scene, in context: DrawingContext) throws {
        Self.frames[scene.screen?.name ?? "?", default: 0] += 1
        try context.clear(RGBColor(hex: 0xc00000))
    }
}

/// Bring your own loop: an app that never calls `run()` and never drains
/// the main queue, only polls `EventPump.fileDescriptor` and calls
/// `processEvents()`, gets its scenes drawn, hot-plugs handled and timers
/// honoured, and finds its own EGL context current after every call.
final class OwnLoopTests: ScreenplayTestCase {
    // Synchronous on purpose: the test owns the main thread as a game's loop
    // would, so nothing drains the main queue while it runs.
    func testAnAppsOwnLoopDrivesScenesHotplugAndTimersAndKeepsItsEGLContext() throws {
        try MainActor.assumeIsolated { try Self.ownLoop() }
    }

    @MainActor
    private static func ownLoop() throws {
        let rig = try SwayRig.start(outputs: [.init(width: 640, height: 480), .init(width: 640, height: 480)])
        defer { rig.stop() }
        let mainQueue = MainQueueProbe()
        DispatchQueue.main.async { MainActor.assumeIsolated { mainQueue.ran = true } }
        let mine = try ForeignEGL()
        defer { mine.destroy() }

        PacedRed.frames = [:]
        let app = try OwnLoopRig.app(rig) { PacedRed() }
        defer { app.shutdown() }
        XCTAssertEqual(mine.changes(), [], "Application() left the app's EGL context as it was")

        var calls = 0
        var wrongAfter: [String] = []
        /// The app's loop, checking its EGL context after each call.
        func loop(seconds: Double, until condition: () -> Bool = { false }) {
            OwnLoopRig.drive(app, seconds: seconds, until: condition) {
                calls += 1
                let changed = mine.changes()
                if !changed.isEmpty, wrongAfter.count < 5 { wrongAfter.append(changed.joined(separator: ", ")) }
            }
        }
        func shows(_ output: String) -> Bool {
            ((try? rig.capture(output: output))?.fraction(of: RGB(hex: 0xc00000), tolerance: 1) ?? 0) == 1
        }

        loop(seconds: 10) { (PacedRed.frames["HEADLESS-2"] ?? 0) >= 1 }
        loop(seconds: 5) { shows("HEADLESS-2") }
        XCTAssertTrue(shows("HEADLESS-2"), "the external scene is on the screen, drawn from the app's loop")

        // Timers: at 30 fps on a 60 Hz output every other refresh is skipped
        // and asked again by a timer of Screenplay's loop. Unhonoured, the
        // link would stop at the first skip.
        let before = PacedRed.frames["HEADLESS-2"] ?? 0
        loop(seconds: 2)
        let paced = (PacedRed.frames["HEADLESS-2"] ?? 0) - before
        XCTAssertGreaterThanOrEqual(paced, 20, "30 fps for 2 s from the app's loop (a loaded machine drops some)")
        XCTAssertLessThanOrEqual(paced, 66, "30 fps, not every refresh: the skip timers pace it")

        // Hot-plug: a new output gets its scene, drawn.
        let added = try rig.addOutput()
        loop(seconds: 10) { shows(added) }
        XCTAssertTrue(shows(added), "the hot-plugged \(added) shows the scene: \(PacedRed.frames)")
        XCTAssertEqual(Set(app.externalScreens.map(\.name)), ["HEADLESS-2", added])

        // An app that sleeps without processing (its own work, a blocking
        // call) while frame callbacks keep the descriptor readable costs no
        // CPU: the main-queue source that also watches the descriptor waits
        // for a main queue nobody drains instead of spinning.
        let cpuBefore = processCPUSeconds()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertLessThan(processCPUSeconds() - cpuBefore, 0.3, "CPU seconds while the app's loop slept for 1 s")

        XCTAssertEqual(wrongAfter, [], "after processEvents() the app's EGL state must be its own (\(calls) calls)")
        XCTAssertFalse(mainQueue.ran, "the test never drained the main queue: everything came through the descriptor")
        app.shutdown()
        XCTAssertEqual(mine.changes(), [], "shutdown() left the app's EGL context as it was")
    }
}
