import Foundation
import Screenplay
import ScriptedCompositor
import TestHarness
import XCTest

/// wlr-output-management and wlr-output-power-management against the
/// scripted compositor: what real compositors do not produce on demand (a
/// serial that changes mid-apply, a refused configuration, panels switched
/// off and on with frame callbacks really held).
final class OutputManagementProtocolTests: ScreenplayTestCase {
    /// Two external outputs with heads (announced in the reverse order of
    /// the wl_outputs) and a disabled head with no wl_output.
    @MainActor
    static func harness() throws -> (Harness, dp1: Int32, dp2: Int32) {
        var dp1: Int32 = -1, dp2: Int32 = -1
        let h = try Harness { fixture in
            fixture.offerOutputManagement()
            dp1 = fixture.addOutput("DP-1", x: 1280, width: 1920, height: 1080)
            fixture.setHead(
                dp1, make: "Dell", model: "U2720Q", serial: "SN-DP1",
                modes: [(1920, 1080, 60000), (1280, 720, 60000), (1280, 720, 30000)], preferred: 0, current: 0)
            dp2 = fixture.addOutput("DP-2", x: 3200, width: 1024, height: 768, refreshMilliHz: 75000)
            fixture.setHead(
                dp2, make: "Dell", model: "U2720Q", serial: "SN-DP2",
                modes: [(2560, 1440, 60000), (1024, 768, 75000)], preferred: 0, current: 1)
            _ = fixture.addDisabledHead("HDMI-A-1")
        }
        return (h, dp1, dp2)
    }

    /// Each screen gets its own head by name (two identical panels told
    /// apart by serial), every mode with refresh and preferred, enabled and
    /// adaptive sync; the disabled head is listed and gets no scene.
    @MainActor
    func testHeadsAreMatchedByNameAcrossSeveralOutputs() async throws {
        let (h, _, _) = try Self.harness()
        defer { h.close() }
        let dp1 = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" })
        let dp2 = try XCTUnwrap(h.app.screens.first { $0.name == "DP-2" })
        XCTAssertEqual(dp1.serial, "SN-DP1")
        XCTAssertEqual(dp2.serial, "SN-DP2")
        XCTAssertEqual([dp1.make, dp1.model], ["Dell", "U2720Q"])
        XCTAssertEqual(
            dp1.availableModes.map(\.description),
            ["1920x1080 @ 60.000 Hz", "1280x720 @ 60.000 Hz", "1280x720 @ 30.000 Hz"])
        XCTAssertEqual(dp1.preferredMode?.description, "1920x1080 @ 60.000 Hz")
        XCTAssertEqual(dp2.availableModes.map(\.description), ["2560x1440 @ 60.000 Hz", "1024x768 @ 75.000 Hz"])
        XCTAssertEqual(dp2.preferredMode?.description, "2560x1440 @ 60.000 Hz")
        XCTAssertEqual(dp2.currentMode?.description, "1024x768 @ 75.000 Hz")
        XCTAssertTrue(dp1.isEnabled && dp2.isEnabled)
        XCTAssertEqual(dp1.adaptiveSync, false, "manager v4 reports adaptive sync")
        let eDP = try XCTUnwrap(h.app.screens.first { $0.name == "eDP-1" })
        XCTAssertNil(eDP.serial, "a head without a serial number gives none")
        XCTAssertEqual(h.app.compositorInfo.disabledHeads.map(\.name), ["HDMI-A-1"])
        XCTAssertFalse(h.app.compositorInfo.disabledHeads[0].isEnabled)

        h.register()
        try await h.settle("both external screens connect") { Set(h.log.events) == ["connect DP-1", "connect DP-2"] }
        XCTAssertEqual(h.fixture.layerSurface(on: "HDMI-A-1"), -1, "a disabled head never gets a scene")
        XCTAssertEqual(h.fixture.layerSurfaceCount, 2)
        h.assertClean()
    }

    /// The state changes after the client read its serial: the compositor
    /// cancels, Screenplay reads the new serial and retries once, and the
    /// mode is set; the scene's display link re-keys to the new refresh.
    @MainActor
    func testSerialChangedMidApplyIsRereadAndRetriedOnce() async throws {
        let (h, dp1, _) = try Self.harness()
        defer { h.close() }
        h.register()
        try await h.settle("DP-1 connects") { h.log.events.contains("connect DP-1") }
        let screen = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" })
        let scene = try XCTUnwrap(h.app.scenes.first { $0.screen === screen })
        XCTAssertEqual(scene.displayLink.duration, 1.0 / 60, accuracy: 1e-4)
        let before = h.fixture.configurationCount
        h.fixture.setConfigReply(SCRIPTED_CONFIG_CHANGE_SERIAL_ONCE)
        let mode = try await screen.setMode(ScreenModeRequest(width: 1280, height: 720, refreshHz: 30))
        XCTAssertEqual(mode?.description, "1280x720 @ 30.000 Hz")
        XCTAssertEqual(h.fixture.configurationCount - before, 3, "a cancelled test, its retry, then the apply")
        XCTAssertEqual(h.fixture.outputMode(dp1), [1280, 720, 30000])
        XCTAssertEqual(
            screen.currentMode?.description, "1280x720 @ 30.000 Hz", "the screen has it when the answer comes")
        XCTAssertEqual(scene.displayLink.duration, 1.0 / 30, accuracy: 1e-4, "the display link runs at the new refresh")
        XCTAssertEqual(
            h.fixture.lastConfigurationSerial + 1, h.fixture.headSerial, "the apply carried the re-read serial")
        h.assertClean()
    }

    /// A configuration the compositor refuses is an error naming the mode
    /// and the answer, and changes nothing; a mode the screen does not list
    /// is refused before anything is sent, with the list.
    @MainActor
    func testRefusedConfigurationAndUnlistedModeAreClearErrors() async throws {
        let (h, dp1, _) = try Self.harness()
        defer { h.close() }
        let screen = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" })
        h.fixture.setConfigReply(SCRIPTED_CONFIG_FAIL)
        let refused = await Self.failure { () async throws(ScreenConfigurationError) in
            _ = try await screen.setMode(ScreenModeRequest(width: 1280, height: 720))
        }
        XCTAssertEqual(refused?.kind, .refused)
        XCTAssertTrue(refused?.description.contains("1280x720") == true, "\(String(describing: refused))")
        XCTAssertTrue(refused?.description.contains("answered `failed`") == true, "\(String(describing: refused))")
        XCTAssertEqual(h.fixture.outputMode(dp1), [1920, 1080, 60000])
        let sent = h.fixture.configurationCount
        let unlisted = await Self.failure { () async throws(ScreenConfigurationError) in
            _ = try await screen.setMode(ScreenModeRequest(width: 800, height: 600))
        }
        XCTAssertEqual(unlisted?.kind, .notListed)
        XCTAssertTrue(
            unlisted?.description.contains("1920x1080 @ 60.000 Hz") == true, "\(String(describing: unlisted))")
        XCTAssertEqual(h.fixture.configurationCount, sent, "nothing sent for an unlisted mode")
        h.assertClean()
    }

    /// `present --mode` with a mode a screen does not list exits 64 with
    /// that screen's list, before any scene and without sending a
    /// configuration (the `screenplay` binary against the fixture).
    @MainActor
    func testPresentRefusesAnUnlistedModeWithTheList() throws {
        let (h, _, _) = try Self.harness()
        defer { h.close() }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("screenplay").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return XCTFail("\(binary) is missing: swift build first")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["present", "--mode", "800x600", "color", "000000"]
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = h.fixture.socketPath
        environment["SCREENPLAY_BUILTIN"] = "eDP-1"
        p.environment = environment
        let stderr = Pipe()
        p.standardError = stderr
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 64, text)
        XCTAssertTrue(text.contains("does not list this mode"), text)
        XCTAssertTrue(text.contains("1920x1080 @ 60.000 Hz (preferred)"), text)
        XCTAssertEqual(h.fixture.configurationCount, 0)
        XCTAssertEqual(h.fixture.layerSurfaceCount, 0, "no scene before the mode is settled")
    }

    /// Switched off through Screenplay: the scene's frames stop (the
    /// compositor holds its callbacks), no stall is reported however long
    /// it lasts, and frames resume when it is switched on, without a
    /// `resumed` either.
    @MainActor
    func testPowerOffStopsFramesWithoutStallAndOnResumes() async throws {
        let (h, dp1, _) = try Self.harness()
        defer { h.close() }
        let scene = try await Self.animatedScene(h)
        let screen = try XCTUnwrap(scene.screen)
        let read = await screen.readPowerState()
        XCTAssertEqual(read, .on)

        try await screen.setPower(.off)
        XCTAssertFalse(h.fixture.powerIsOn(dp1))
        XCTAssertEqual(screen.powerState, .off)
        try await assertFramesStopWithoutStall(scene, h)

        try await screen.setPower(.on)
        let resumedAt = scene.displayLink.frameCount
        try await h.settle("frames resume") { scene.displayLink.frameCount > resumedAt + 10 }
        XCTAssertNil(scene.displayLink.checkStall(), "no resumed for a panel switched on")
        h.fixture.setPowerRefuses(true)
        let refused = await Self.failure { () async throws(ScreenConfigurationError) in
            try await screen.setPower(.off)
        }
        XCTAssertEqual(refused?.kind, .refused)
        XCTAssertTrue("\(String(describing: refused))".contains("answered `failed`"), "\(String(describing: refused))")
        Self.assertCleanApartFromSlowDraws(h)
    }

    /// Switched off by another program: the silence looks like a stall, so
    /// Screenplay asks the compositor, which says off: no stall. While off
    /// it asks no frames and reads the power again once a second; when the
    /// panel is back on, frames resume.
    @MainActor
    func testPanelSwitchedOffElsewhereIsNoStall() async throws {
        let (h, dp1, _) = try Self.harness()
        defer { h.close() }
        let scene = try await Self.animatedScene(h)
        h.fixture.setPower(dp1, on: false)
        try await assertFramesStopWithoutStall(scene, h)
        XCTAssertEqual(scene.screen?.powerState, .off, "the panel watch read the power")
        h.fixture.setPower(dp1, on: true)
        let before = scene.displayLink.frameCount
        try await h.settle("frames resume once the power is read again", timeout: 5) {
            XCTAssertNil(scene.displayLink.checkStall())
            return scene.displayLink.frameCount > before + 10
        }
        XCTAssertEqual(scene.screen?.powerState, .on)
        Self.assertCleanApartFromSlowDraws(h)
    }

    /// The error `body` threw, nil when it returned.
    @MainActor
    static func failure(_ body: () async throws(ScreenConfigurationError) -> Void) async -> ScreenConfigurationError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// A 1080p clear in software on a loaded machine can exceed a refresh;
    /// that warning is about drawing speed, not about power.
    @MainActor
    static func assertCleanApartFromSlowDraws(_ h: Harness, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(h.log.errors.filter { !$0.contains("each frame takes") }, [], file: file, line: line)
        h.assertClean(allowSceneErrors: true, file: file, line: line)
    }

    @MainActor
    static func animatedScene(_ h: Harness) async throws -> Scene {
        let config = SceneConfiguration(name: "animated") { AnimatedDelegate() }
        h.app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: config))
        try await h.settle("DP-1 animates") {
            (h.app.scenes.first { $0.screen?.name == "DP-1" }?.displayLink.frameCount ?? 0) > 10
        }
        return try XCTUnwrap(h.app.scenes.first { $0.screen?.name == "DP-1" })
    }

    /// Over a second (four times the stall threshold): at most the frame
    /// already asked for, and checkStall never says stalled.
    @MainActor
    private func assertFramesStopWithoutStall(_ scene: Scene, _ h: Harness) async throws {
        try await Task.sleep(nanoseconds: 100_000_000)
        let stoppedAt = scene.displayLink.frameCount
        for _ in 0..<20 {
            try await Task.sleep(nanoseconds: 50_000_000)
            XCTAssertNil(scene.displayLink.checkStall(), "a panel that is off is no stall")
        }
        XCTAssertLessThanOrEqual(scene.displayLink.frameCount, stoppedAt + 1, "frames stopped while the panel is off")
    }
}

@MainActor
final class AnimatedDelegate: SceneDelegate {
    func scene(_ scene: Scene, willConnectTo session: SceneSession) { scene.displayLink.isPaused = false }
    func draw(_ scene: Scene, in context: DrawingContext) throws {
        try context.clear(RGBColor(hex: scene.displayLink.frameCount % 2 == 0 ? 0x202020 : 0x404040))
    }
}

extension ScriptedFixture {
    func offerOutputManagement() { scripted_offer_output_management(handle) }
    func setHead(
        _ output: Int32, make: String, model: String, serial: String, modes: [(Int32, Int32, Int32)], preferred: Int32,
        current: Int32
    ) {
        let flat = modes.flatMap { [$0.0, $0.1, $0.2] }
        scripted_set_head(handle, output, make, model, serial, flat, Int32(modes.count), preferred, current)
    }
    func addDisabledHead(_ name: String) -> Int32 { scripted_add_disabled_head(handle, name) }
    func retireAndReannounceHeads(_ output: Int32) { scripted_retire_and_reannounce_heads(handle, output) }
    func setConfigReply(_ reply: scripted_config_reply) { scripted_set_config_reply(handle, reply) }
    var configurationCount: Int32 { scripted_configuration_count(handle) }
    var lastConfigurationSerial: UInt32 { scripted_last_configuration_serial(handle) }
    var headSerial: UInt32 { scripted_head_serial(handle) }
    func outputMode(_ output: Int32) -> [Int32] {
        var w: Int32 = 0, h: Int32 = 0, r: Int32 = 0
        scripted_output_mode(handle, output, &w, &h, &r)
        return [w, h, r]
    }
    func powerIsOn(_ output: Int32) -> Bool { scripted_power_is_on(handle, output) }
    func setPower(_ output: Int32, on: Bool) { scripted_set_power(handle, output, on) }
    func setPowerRefuses(_ refuses: Bool) { scripted_set_power_refuses(handle, refuses) }
}
