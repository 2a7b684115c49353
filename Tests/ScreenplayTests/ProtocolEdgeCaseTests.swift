import Foundation
import Screenplay
import ScriptedCompositor
import TestHarness
import XCTest

/// Protocol edge cases real compositors rarely produce on
/// demand, produced by the scripted compositor (Tests/ScriptedCompositor) and
/// met by Screenplay in process. Each ends in a defined behaviour: no crash,
/// no protocol error, no lost connection, nothing on a wrong output.
final class ProtocolEdgeCaseTests: ScreenplayTestCase {
    /// (a) An output removed before its `done` never becomes a Screen and
    /// never gets a scene; a complete output afterwards does.
    @MainActor
    func testOutputRemovedBeforeDoneIsNeverAScreen() async throws {
        let h = try Harness()
        defer { h.close() }
        let reg = h.register()
        let partial = h.fixture.addOutput("DP-1", x: 1280, width: 1024, height: 768, sendDone: false)
        try h.sync()
        XCTAssertEqual(h.fixture.outputResourceCount(partial), 2, "the client bound its wl_output and xdg_output")
        XCTAssertEqual(h.app.screens.map(\.name), ["eDP-1"], "no done, no Screen")
        XCTAssertFalse(reg.isAvailable)

        h.fixture.removeOutput(partial)
        try h.sync()
        XCTAssertEqual(
            h.fixture.outputResourceCount(partial), 0, "the client released both objects of the dropped output")
        XCTAssertEqual(h.app.screens.map(\.name), ["eDP-1"])
        XCTAssertEqual(h.log.screenEvents, [], "a never-reported output is neither connected nor disconnected")
        XCTAssertEqual(h.fixture.layerSurfaceCount, 0)
        XCTAssertTrue(h.app.scenes.isEmpty)

        // The same path still works for an output that completes.
        _ = h.fixture.addOutput("DP-2", x: 1280, width: 1024, height: 768)
        try await h.settle("DP-2 connects") { h.log.events == ["connect DP-2"] }
        XCTAssertEqual(h.log.screenEvents, ["screen+ DP-2"])
        XCTAssertEqual(h.fixture.layerSurfaceOutput(0), "DP-2")
        h.assertClean()
    }

    /// (b) `wl_surface.enter` naming an output that was never announced as a
    /// screen, or one already removed, is ignored: the scene stays keyed to
    /// its own screen and its layer surface to its own output.
    @MainActor
    func testEnterForUnannouncedOrRemovedOutputIsIgnored() async throws {
        let h = try Harness()
        defer { h.close() }
        let dp1 = h.fixture.addOutput("DP-1", x: 1280, width: 1024, height: 768)
        try h.sync()
        h.register()
        try await h.settle("DP-1 connects") { h.log.events == ["connect DP-1"] }
        let scene = try XCTUnwrap(h.app.scenes.first)
        let dp1ID = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" }?.id)
        let layer = h.fixture.layerSurface(on: "DP-1")
        XCTAssertGreaterThanOrEqual(layer, 0)

        // An output the client bound but that never completed.
        let partial = h.fixture.addOutput("DP-2", x: 2304, width: 800, height: 600, sendDone: false)
        try h.sync()
        XCTAssertTrue(h.fixture.sendEnter(layer: layer, output: partial))
        try h.sync()
        XCTAssertEqual(scene.enteredScreenIDs, [], "enter for an output that is no Screen is ignored")
        XCTAssertEqual(scene.screen?.id, dp1ID)

        // Control: a real enter is heard, so the ignoring above is not deafness.
        XCTAssertTrue(h.fixture.sendEnter(layer: layer, output: dp1))
        try h.sync()
        XCTAssertEqual(scene.enteredScreenIDs, [dp1ID])

        // An output removed in the same batch as the enter that names it.
        let dp3 = h.fixture.addOutput("DP-3", x: 2304, y: 600, width: 800, height: 600)
        try await h.settle("DP-3 connects") { h.log.events.contains("connect DP-3") }
        XCTAssertTrue(h.fixture.removeOutputThenEnter(output: dp3, layer: layer))
        try h.sync()
        XCTAssertEqual(scene.enteredScreenIDs, [dp1ID], "enter for a removed output is ignored")
        XCTAssertEqual(scene.screen?.id, dp1ID)
        XCTAssertTrue(scene.isConnected)
        XCTAssertEqual(h.app.scenes.map { $0.screen?.name }, ["DP-1"], "DP-3's scene went with DP-3")
        XCTAssertEqual(h.log.events, ["connect DP-1", "connect DP-3", "disconnect DP-3"])
        XCTAssertEqual(h.app.screens.map(\.name), ["eDP-1", "DP-1"])
        XCTAssertTrue(h.fixture.layerSurfaceIsLive(layer))
        XCTAssertEqual(h.fixture.layerSurfaceOutput(layer), "DP-1", "the layer surface was asked for on its own output")
        h.assertClean()
    }

    /// (c) `closed` before the first configure tears the scene down without
    /// any delegate call; the registration stays and the next reconcile (a
    /// screen arriving) connects scenes again, the closed screen's included.
    @MainActor
    func testClosedBeforeFirstConfigure() async throws {
        let h = try Harness()
        defer { h.close() }
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 1024, height: 768)
        h.fixture.setInitialReply(SCRIPTED_CLOSE)
        try h.sync()
        let reg = h.register()
        try await h.settle("the closed layer surface is destroyed") {
            h.fixture.layerSurfaceCount == 1 && h.fixture.liveLayerSurfaceCount == 0
        }
        try h.sync()
        XCTAssertTrue(h.app.scenes.isEmpty, "the closed scene is gone")
        XCTAssertEqual(h.log.events, [], "no willConnect and no didDisconnect for a scene never configured")
        XCTAssertEqual(h.fixture.sentSerials(0), [], "closed came instead of any configure")
        XCTAssertEqual(h.fixture.layerSurfaceCount, 1, "no retry loop against a compositor that closes")
        XCTAssertTrue(h.app.presentedRegistration === reg, "the registration stays")
        XCTAssertTrue(reg.isAvailable)

        h.fixture.setInitialReply(SCRIPTED_CONFIGURE_OUTPUT_SIZE)
        _ = h.fixture.addOutput("DP-2", x: 2304, width: 800, height: 600)
        try await h.settle("both screens connect") { Set(h.log.events) == ["connect DP-1", "connect DP-2"] }
        XCTAssertEqual(h.fixture.liveLayerSurfaceCount, 2)
        h.assertClean()
    }

    /// (c2) Every scene closed in the same batch goes, and a scene that stays
    /// keeps drawing: a closed scene answers the batch with `.close` and
    /// the application closes it after walking its scenes, so no scene is
    /// torn down while the batch still walks them.
    @MainActor
    func testScenesClosedInOneBatchAllGoAfterTheWalk() async throws {
        let h = try Harness()
        defer { h.close() }
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 1024, height: 768)
        _ = h.fixture.addOutput("DP-2", x: 2304, width: 800, height: 600)
        h.fixture.setInitialReply(SCRIPTED_CLOSE)
        try h.sync()
        _ = h.register()
        try await h.settle("both closed layer surfaces are destroyed") {
            h.fixture.layerSurfaceCount == 2 && h.fixture.liveLayerSurfaceCount == 0
        }
        try h.sync()
        XCTAssertTrue(h.app.scenes.isEmpty, "both closed scenes are gone")
        XCTAssertEqual(h.log.events, [], "no delegate call for scenes never configured")

        h.fixture.setInitialReply(SCRIPTED_CONFIGURE_OUTPUT_SIZE)
        _ = h.fixture.addOutput("DP-3", x: 3104, width: 640, height: 480)
        try await h.settle("all three screens connect") {
            Set(h.log.events) == ["connect DP-1", "connect DP-2", "connect DP-3"]
        }
        XCTAssertEqual(h.app.scenes.count, 3)
        h.assertClean()
    }

    /// (d) A 0x0 configure ("you choose") gives the scene its screen's
    /// logical size, and buffers at that size times the scale.
    @MainActor
    func testZeroSizeConfigureUsesTheLogicalSize() async throws {
        let h = try Harness()
        defer { h.close() }
        // 1600x900 logical: not Scene's 1280x720 default for an unknown screen.
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 3200, height: 1800, scale: 2)
        h.fixture.setInitialReply(SCRIPTED_CONFIGURE_SIZE, 0, 0)
        try h.sync()
        h.register()
        try await h.settle("DP-1 connects") { h.log.events == ["connect DP-1"] }
        let scene = try XCTUnwrap(h.app.scenes.first)
        XCTAssertEqual(h.app.screens.last?.bounds.width, 1600)
        XCTAssertTrue(scene.size == (1600, 900), "size \(scene.size)")
        XCTAssertTrue(scene.pixelSize == (3200, 1800), "pixel size \(scene.pixelSize)")
        let layer = h.fixture.layerSurface(on: "DP-1")
        XCTAssertEqual(h.fixture.ackedSerials(layer), h.fixture.sentSerials(layer))
        XCTAssertEqual(h.fixture.sentSerials(layer).count, 1)
        try await h.settle("a buffer is committed") { h.fixture.lastBufferSize(layer) != Size(0, 0) }
        XCTAssertEqual(h.fixture.lastBufferSize(layer), Size(3200, 1800))
        h.assertClean()
    }

    /// (e) A mode with refresh 0: the screen says 0 mHz, the display link
    /// runs at the 60 Hz fallback (and keeps drawing), where a 75 Hz screen's
    /// link follows its mode.
    @MainActor
    func testRefreshZeroFallsBackToSixtyHertz() async throws {
        let h = try Harness()
        defer { h.close() }
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 1024, height: 768, refreshMilliHz: 0)
        _ = h.fixture.addOutput("DP-2", x: 2304, width: 800, height: 600, refreshMilliHz: 75_000)
        try h.sync()
        let screen = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" })
        XCTAssertEqual(screen.refreshMilliHz, 0)
        XCTAssertEqual(screen.maximumFramesPerSecond, 60)
        XCTAssertEqual(screen.availableModes.map(\.width), [1024], "the one mode the output lists")
        XCTAssertTrue(screen.nativeSize == (1024, 768), "native size \(screen.nativeSize)")
        h.register()
        try await h.settle("both connect") { h.log.events.count == 2 }
        let zero = try XCTUnwrap(h.app.scenes.first { $0.screen?.name == "DP-1" })
        let normal = try XCTUnwrap(h.app.scenes.first { $0.screen?.name == "DP-2" })
        XCTAssertEqual(zero.displayLink.duration, 1.0 / 60, accuracy: 1e-6)
        XCTAssertEqual(zero.displayLink.durationSource.rawValue, "fallback")
        XCTAssertEqual(normal.displayLink.duration, 1.0 / 75, accuracy: 1e-6)
        XCTAssertEqual(normal.displayLink.durationSource.rawValue, "outputMode")

        zero.displayLink.isPaused = false
        try await h.settle("the link keeps drawing") { zero.displayLink.frameCount >= 5 }
        zero.displayLink.isPaused = true
        XCTAssertEqual(zero.displayLink.duration, 1.0 / 60, accuracy: 1e-6)
        h.assertClean()
    }

    /// (f) Two configures before any ack: acks stay in order and end with
    /// the last serial, and the first buffer already has the last size.
    @MainActor
    func testSecondConfigureBeforeAckLastWins() async throws {
        let h = try Harness()
        defer { h.close() }
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 1024, height: 768)
        h.fixture.setInitialReply(SCRIPTED_CONFIGURE_TWICE, 800, 600, 1000, 700)
        try h.sync()
        h.register()
        try await h.settle("DP-1 connects") { h.log.events.contains("connect DP-1") }
        try h.sync()
        XCTAssertEqual(
            h.log.events, ["connect DP-1"], "connected once, at the last size: no resize from a superseded configure")
        let scene = try XCTUnwrap(h.app.scenes.first)
        let layer = h.fixture.layerSurface(on: "DP-1")
        let sent = h.fixture.sentSerials(layer)
        XCTAssertEqual(sent.count, 2)
        let acked = h.fixture.ackedSerials(layer)
        XCTAssertEqual(acked, [sent[1]], "only the last configure is acked (layer shell lets a client drop the rest)")
        XCTAssertTrue(scene.size == (1000, 700), "size \(scene.size)")
        try await h.settle("a buffer is committed") { h.fixture.firstBufferSize(layer) != Size(0, 0) }
        XCTAssertEqual(h.fixture.firstBufferSize(layer), Size(1000, 700), "no frame at the superseded size")

        // A later configure still resizes.
        let third = h.fixture.configure(layer: layer, width: 900, height: 500)
        try await h.settle("the resize lands") { h.fixture.lastBufferSize(layer) == Size(900, 500) }
        XCTAssertEqual(h.fixture.ackedSerials(layer).last, third)
        XCTAssertTrue(scene.size == (900, 500))
        XCTAssertTrue(h.log.events.contains("resize DP-1 900x500"))
        h.assertClean()
    }

    /// (g) zwlr_layer_shell_v1 withdrawn while in use: the shown scene keeps
    /// working (configures acked, frames drawn), the withdrawal is reported,
    /// and a new screen gets no surface (no xdg_wm_base to fall back to
    /// either), which is reported too.
    @MainActor
    func testLayerShellWithdrawnWhileInUse() async throws {
        let h = try Harness()
        defer { h.close() }
        _ = h.fixture.addOutput("DP-1", x: 1280, width: 1024, height: 768)
        try h.sync()
        h.register()
        try await h.settle("DP-1 connects") { h.log.events == ["connect DP-1"] }
        let scene = try XCTUnwrap(h.app.scenes.first)
        let layer = h.fixture.layerSurface(on: "DP-1")
        XCTAssertTrue(h.app.compositorInfo.hasLayerShell)

        h.fixture.removeLayerShell()
        try h.sync()
        XCTAssertFalse(h.app.compositorInfo.hasLayerShell)
        XCTAssertEqual(h.log.errors.count, 1)
        XCTAssertTrue(h.log.errors.first?.contains("withdrew zwlr_layer_shell_v1") == true, "\(h.log.errors)")

        let serial = h.fixture.configure(layer: layer, width: 640, height: 480)
        try await h.settle("the existing scene still resizes") { h.fixture.lastBufferSize(layer) == Size(640, 480) }
        XCTAssertEqual(h.fixture.ackedSerials(layer).last, serial)
        XCTAssertTrue(scene.isConnected)

        _ = h.fixture.addOutput("DP-2", x: 2304, width: 800, height: 600)
        try await h.settle("DP-2 is a screen") { h.app.screens.contains { $0.name == "DP-2" } }
        try h.sync()
        XCTAssertEqual(h.app.scenes.count, 1, "no scene for DP-2")
        XCTAssertTrue(h.app.scenes.first === scene)
        XCTAssertEqual(h.fixture.layerSurfaceCount, 1, "no layer surface asked for DP-2")
        XCTAssertTrue(
            h.log.errors.contains {
                $0.contains("screen DP-2") && $0.contains("neither zwlr_layer_shell_v1 nor xdg_wm_base")
            },
            "\(h.log.errors)")
        XCTAssertEqual(h.log.events, ["connect DP-1", "resize DP-1 640x480"])
        h.assertClean(allowSceneErrors: true)
    }

    /// The fixtures' committed scanner output (the scripted compositor's
    /// server side, the virtual pointer client) matches the XML.
    func testFixtureProtocolCodeIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("test-protocols-\(getpid())")
        let freshPointer = FileManager.default.temporaryDirectory.appendingPathComponent(
            "test-pointer-protocol-\(getpid())")
        try FileManager.default.createDirectory(at: freshPointer, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: fresh)
            try? FileManager.default.removeItem(at: freshPointer)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [
            root.appendingPathComponent("scripts/generate-test-protocols.sh").path, fresh.path, freshPointer.path,
        ]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "scripts/generate-test-protocols.sh failed")
        let files = try FileManager.default.contentsOfDirectory(atPath: fresh.path)
        XCTAssertEqual(files.count, 12)
        for file in files {
            let want = try Data(contentsOf: fresh.appendingPathComponent(file))
            let have = try? Data(contentsOf: root.appendingPathComponent("Tests/ScriptedCompositor/protocols/\(file)"))
            XCTAssertEqual(have, want, "\(file) is stale: run scripts/generate-test-protocols.sh and commit the result")
        }
        let pointerFiles = try FileManager.default.contentsOfDirectory(atPath: freshPointer.path)
        XCTAssertEqual(pointerFiles.count, 2)
        for file in pointerFiles {
            let want = try Data(contentsOf: freshPointer.appendingPathComponent(file))
            let have = try? Data(contentsOf: root.appendingPathComponent("Tests/VirtualPointer/\(file)"))
            XCTAssertEqual(have, want, "\(file) is stale: run scripts/generate-test-protocols.sh and commit the result")
        }
    }
}
