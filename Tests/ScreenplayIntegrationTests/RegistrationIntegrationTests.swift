import Foundation
import Screenplay
import TestHarness
import TestSupport
import XCTest

/// Counts connects and disconnects per screen, with the user info seen.
@MainActor
final class Recorder {
    var events: [String] = []
}

@MainActor
final class RecordingDelegate: SceneDelegate {
    let tag: String
    let recorder: Recorder
    init(tag: String, recorder: Recorder) {
        self.tag = tag
        self.recorder = recorder
    }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        recorder.events.append("connect \(tag) \(scene.screen?.name ?? "?") \(session.userInfo["who"] ?? "")")
    }
    func sceneDidDisconnect(_ scene: Scene) {
        recorder.events.append("disconnect \(tag) \(scene.screen?.name ?? "?")")
    }
    func draw(_ scene: Scene, in context: DrawingContext) throws {
        try context.clear(tag == "A" ? RGBColor(hex: 0xff0000) : RGBColor(hex: 0x0000ff))
    }
}

/// Registration semantics against a real compositor, in
/// process: enable/disable, most recent wins, unregister hands back.
final class RegistrationIntegrationTests: ScreenplayTestCase {
    @MainActor
    func testRegistrationSemanticsOnSway() async throws {
        let rig = try SwayRig.start(outputs: [
            .init(width: 800, height: 600), .init(width: 800, height: 600), .init(width: 800, height: 600),
        ])
        addTeardownBlock { rig.stop() }
        var options = ApplicationOptions()
        options.displayName = rig.waylandDisplay
        options.builtInPatterns = ["HEADLESS-1"]
        let app = try Application(options: options)
        defer { app.shutdown() }
        XCTAssertEqual(app.screens.map(\.name), ["HEADLESS-1", "HEADLESS-2", "HEADLESS-3"])
        XCTAssertEqual(app.externalScreens.map(\.name), ["HEADLESS-2", "HEADLESS-3"])
        XCTAssertEqual(app.mainScreen?.name, "HEADLESS-1")

        let recorder = Recorder()
        func config(_ tag: String) -> SceneConfiguration {
            SceneConfiguration(name: tag) { RecordingDelegate(tag: tag, recorder: recorder) }
        }
        let a = app.registerSceneAccessory(
            .externalNonInteractive(sceneConfiguration: config("A"), userInfo: ["who": "alice"]))
        XCTAssertTrue(a.isAvailable)
        try await settle { recorder.events.filter { $0.hasPrefix("connect A") }.count == 2 }
        XCTAssertEqual(Set(recorder.events), ["connect A HEADLESS-2 alice", "connect A HEADLESS-3 alice"])
        try await assertPixels(rig, ["HEADLESS-2", "HEADLESS-3"], RGB(hex: 0xff0000))

        recorder.events.removeAll()
        a.isEnabled = false
        XCTAssertEqual(Set(recorder.events), ["disconnect A HEADLESS-2", "disconnect A HEADLESS-3"])
        XCTAssertTrue(app.scenes.isEmpty)
        recorder.events.removeAll()
        a.isEnabled = true
        try await settle { recorder.events.count == 2 }

        recorder.events.removeAll()
        let b = app.registerSceneAccessory(
            .externalNonInteractive(sceneConfiguration: config("B"), userInfo: ["who": "bob"]))
        try await settle { recorder.events.filter { $0.hasPrefix("connect B") }.count == 2 }
        XCTAssertEqual(
            recorder.events.filter { $0.hasPrefix("disconnect A") }.count, 2, "the most recent registration wins")
        try await assertPixels(rig, ["HEADLESS-2", "HEADLESS-3"], RGB(hex: 0x0000ff))

        recorder.events.removeAll()
        app.unregisterSceneAccessory(b)
        try await settle { recorder.events.filter { $0.hasPrefix("connect A") }.count == 2 }
        XCTAssertEqual(recorder.events.filter { $0.hasPrefix("disconnect B") }.count, 2)
        try await assertPixels(rig, ["HEADLESS-2", "HEADLESS-3"], RGB(hex: 0xff0000))
        XCTAssertEqual(
            try rig.capture(output: "HEADLESS-1").fraction(of: RGB(hex: 0x3f3f3f)), 1.0, "never on the built-in screen")

        app.unregisterSceneAccessory(a)
        XCTAssertTrue(app.scenes.isEmpty)
    }

    /// `wl_output` v2/v3 and xdg-output v1/v2 still give named,
    /// complete screens.
    @MainActor
    func testOldProtocolVersionsStillDescribeScreens() async throws {
        let rig = try SwayRig.start(outputs: [.init(width: 800, height: 600), .init(width: 1024, height: 768)])
        addTeardownBlock { rig.stop() }
        for (wl, xdg) in [(UInt32(2), UInt32(1)), (3, 2), (4, 3), (3, 1)] {
            var options = ApplicationOptions()
            options.displayName = rig.waylandDisplay
            options.maxOutputVersion = wl
            options.maxXdgOutputVersion = xdg
            let app = try Application(options: options)
            defer { app.shutdown() }
            XCTAssertEqual(app.screens.count, 2, "wl_output v\(wl), xdg-output v\(xdg)")
            let second = app.screens.last
            XCTAssertEqual(second?.currentMode?.width, 1024)
            XCTAssertEqual(second?.bounds.x, 800, "logical position from xdg-output v\(xdg)")
            if xdg >= 2 || wl >= 4 {
                XCTAssertEqual(second?.name, "HEADLESS-2", "connector name with wl_output v\(wl), xdg-output v\(xdg)")
            } else {
                XCTAssertEqual(second?.name, "headless headless", "no name event at all: make and model")
            }
        }
    }

    /// A mode change is heard three ways: the application's screen change,
    /// the scene's display link re-keying to the new refresh, and the scene
    /// keeping its session's identifier (configuration name @ screen).
    @MainActor
    func testModeChangeIsHeardByTheAppAndTheDisplayLink() async throws {
        let rig = try SwayRig.start(outputs: [
            .init(width: 800, height: 600), .init(width: 1280, height: 720, refreshHz: 60),
        ])
        addTeardownBlock { rig.stop() }
        var options = ApplicationOptions()
        options.displayName = rig.waylandDisplay
        options.builtInPatterns = ["HEADLESS-1"]
        let app = try Application(options: options)
        defer { app.shutdown() }
        let recorder = Recorder()
        var changes: [String] = []
        app.onScreenChange = { changes.append("\($0.name) \($0.currentMode?.width ?? 0)") }
        let config = SceneConfiguration(name: "change") { RecordingDelegate(tag: "A", recorder: recorder) }
        app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: config))
        try await settle { recorder.events == ["connect A HEADLESS-2 "] }
        let scene = try XCTUnwrap(app.scenes.first)
        XCTAssertEqual(scene.session.persistentIdentifier, "change@HEADLESS-2")
        var durations: [Double] = []
        scene.displayLink.onDurationChange = { durations.append($0) }

        try rig.setMode("HEADLESS-2", .init(width: 1024, height: 768, refreshHz: 30))
        try await settle { changes.contains("HEADLESS-2 1024") && !durations.isEmpty }
        XCTAssertEqual(durations.last ?? 0, 1.0 / 30, accuracy: 0.002, "re-keyed to 30 Hz")
    }

    @MainActor
    private func settle(timeout: TimeInterval = 10, _ condition: () -> Bool) async throws {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > end { return XCTFail("timed out waiting") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    @MainActor
    private func assertPixels(
        _ rig: SwayRig, _ outputs: [String], _ color: RGB, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        for name in outputs {
            let end = Date().addingTimeInterval(5)
            var fraction = 0.0
            while Date() < end {
                fraction = (try? rig.capture(output: name).fraction(of: color, tolerance: 1)) ?? 0
                if fraction == 1 { break }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            XCTAssertEqual(fraction, 1.0, "\(name) should be \(color)", file: file, line: line)
        }
    }
}
