import Foundation
import Screenplay
import ScriptedCompositor
import TestHarness
import XCTest

/// Events flow one way: listeners only record, and the application acts
/// after each batch, outside libwayland's dispatch. A handler (a delegate
/// method, a screen callback) that changes a registration, closes
/// everything or shuts the application down does so safely, and what it
/// asked for takes effect once the batch is handled. `scripts/sanitize.sh`
/// runs these under AddressSanitizer + LeakSanitizer, which would catch a
/// callback running on a destroyed proxy.
final class EventFlowTests: ScreenplayTestCase {
    /// A delegate that runs `onConnect` inside `scene(_:willConnectTo:)` and
    /// logs every later call, so a call after the disconnect shows.
    @MainActor
    final class HandlerDelegate: SceneDelegate {
        let log: EdgeLog
        let onConnect: (Scene) -> Void
        var disconnected = false
        init(log: EdgeLog, onConnect: @escaping (Scene) -> Void) {
            self.log = log
            self.onConnect = onConnect
        }
        func scene(_ scene: Scene, willConnectTo session: SceneSession) {
            log.events.append("connect \(scene.screen?.name ?? "?")")
            onConnect(scene)
        }
        func sceneDidDisconnect(_ scene: Scene) {
            disconnected = true
            log.events.append("disconnect \(scene.screen?.name ?? "?")")
        }
        func draw(_ scene: Scene, in context: DrawingContext) throws {
            if disconnected { log.events.append("draw after disconnect") }
            try context.clear(RGBColor(hex: 0x336699))
        }
    }

    @MainActor
    func testRegistrationDisabledInsideWillConnectTakesEffectAfterTheBatch() async throws {
        let h = try Harness()
        defer { h.close() }
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 640, height: 360)
        try h.sync()
        let log = h.log
        var registration: SceneAccessoryRegistration?
        var scenesSeenInHandler = -1
        let config = SceneConfiguration(name: "flow") {
            HandlerDelegate(log: log) { [weak app = h.app] scene in
                // Inside the handler the scene is still there: the change
                // waits for the end of the batch.
                registration?.isEnabled = false
                scenesSeenInHandler = app?.scenes.count ?? -1
                XCTAssertTrue(scene.isConnected)
            }
        }
        registration = h.app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: config))
        try await h.settle("the scene connects and goes") { h.log.events.contains("disconnect DP-1") }
        try h.sync()
        XCTAssertEqual(scenesSeenInHandler, 1, "the scene stays while its handler runs")
        XCTAssertEqual(h.log.events, ["connect DP-1", "disconnect DP-1"], "no draw after the disconnect")
        XCTAssertTrue(h.app.scenes.isEmpty)
        XCTAssertEqual(h.fixture.liveLayerSurfaceCount, 0, "the layer surface was destroyed")
        XCTAssertFalse(registration?.isEnabled ?? true)
        h.assertClean()
    }

    @MainActor
    func testOutputRemovedInTheBatchOfItsConfigureIsTornDownNotConfigured() async throws {
        let h = try Harness()
        defer { h.close() }
        let dp1 = h.fixture.addOutput("DP-1", x: 1280, width: 640, height: 360)
        try h.sync()
        h.register()
        try await h.settle("DP-1 connects") { h.log.events == ["connect DP-1"] }
        let layer = h.fixture.layerSurface(on: "DP-1")
        let ackedBefore = h.fixture.ackedSerials(layer)
        let serial = scripted_remove_output_then_configure(h.fixture.handle, dp1, layer, 320, 200)
        XCTAssertNotEqual(serial, 0)
        try h.sync()
        XCTAssertEqual(
            h.log.events, ["connect DP-1", "disconnect DP-1"], "no resize from the configure of a removed output")
        XCTAssertEqual(h.fixture.ackedSerials(layer), ackedBefore, "the configure of a scene already gone is not acked")
        XCTAssertTrue(h.app.scenes.isEmpty)
        XCTAssertEqual(h.app.screens.map(\.name), ["eDP-1"])
        h.assertClean()
    }

    @MainActor
    func testOutputCompletedAndRemovedInOneBatchIsNeverReported() async throws {
        let h = try Harness()
        defer { h.close() }
        h.register()
        let dp1 = h.fixture.addOutput("DP-1", x: 1280, width: 640, height: 360, sendDone: false)
        try h.sync()
        XCTAssertEqual(h.fixture.outputResourceCount(dp1), 2, "bound, but not complete")
        // done and global_remove go out back to back; the client, held on
        // this thread, reads them as one batch.
        scripted_send_output_done(h.fixture.handle, dp1)
        h.fixture.removeOutput(dp1)
        try h.sync()
        XCTAssertEqual(
            h.log.screenEvents, [], "a screen that came and went in one batch is neither connected nor disconnected")
        XCTAssertEqual(h.fixture.layerSurfaceCount, 0, "no scene was made for it")
        XCTAssertEqual(h.fixture.outputResourceCount(dp1), 0, "its proxies were released")
        h.assertClean()
    }

    @MainActor
    func testShutdownInsideAHandlerStopsEverythingSafely() async throws {
        let h = try Harness()
        let log = h.log
        let config = SceneConfiguration(name: "flow") {
            HandlerDelegate(log: log) { [weak app = h.app] _ in app?.shutdown() }
        }
        h.app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: config))
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 640, height: 360)
        try await h.settle("the compositor sees the client go") { h.fixture.clientCount == 0 }
        XCTAssertEqual(h.log.events, ["connect DP-1", "disconnect DP-1"], "torn down once, never drawn after")
        XCTAssertTrue(h.app.scenes.isEmpty)
        XCTAssertThrowsError(try h.app.roundtrip(), "the connection is closed")
        XCTAssertEqual(h.fixture.protocolErrorCount, 0, h.fixture.lastProtocolError)
        h.app.shutdown()  // idempotent
        h.fixture.stop()
    }

    @MainActor
    func testShutdownFromAScreenCallbackStopsTheRestOfTheBatch() async throws {
        let h = try Harness()
        var connected: [String] = []
        h.app.onScreenConnect = { [weak app = h.app] screen in
            connected.append(screen.name)
            app?.shutdown()
        }
        // Two outputs in one batch: the second is never handled.
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 640, height: 360)
        _ = h.fixture.addOutput("DP-2", x: 1920, width: 640, height: 360)
        try await h.settle("the compositor sees the client go") { h.fixture.clientCount == 0 }
        XCTAssertEqual(connected, ["DP-1"])
        XCTAssertEqual(h.fixture.protocolErrorCount, 0, h.fixture.lastProtocolError)
        h.fixture.stop()
    }
}
