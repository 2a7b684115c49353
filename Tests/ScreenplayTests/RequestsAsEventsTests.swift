import Foundation
import ScriptedCompositor
import TestHarness
import XCTest

@testable import Screenplay

/// Mode changes, power changes and power reads are requests whose answers
/// arrive in a later batch, so calling them from a handler or a draw
/// dispatches nothing inside that call; a silent panel is read by the
/// application itself while `currentStall` only reads; and keys, pointer
/// and touch of one batch arrive in the order the compositor sent them.
/// Against the scripted compositor, which answers at once and can send a
/// mix of input in one flush.
final class RequestsAsEventsTests: ScreenplayTestCase {
    /// From a draw (once) and from `onScreenChange` (once, when the draw's
    /// power switch turned the panel off): each request returns without
    /// running any handler, any completion or a second draw inside it, and
    /// every answer arrives; the screen ends in the mode and power asked
    /// for last.
    @MainActor
    func testModeAndPowerRequestsFromADrawAndFromOnScreenChangeAnswerLater() async throws {
        let (h, dp1, _) = try OutputManagementProtocolTests.harness()
        defer { h.close() }
        let probe = RequestProbe(app: h.app)
        h.app.onScreenChange = { screen in
            probe.noteHandler("onScreenChange \(screen.name)")
            guard screen.name == "DP-1", screen.powerState == .off, !probe.firedFromHandler else { return }
            probe.firedFromHandler = true
            probe.fire(
                "change", on: screen, mode: ScreenModeRequest(width: 1920, height: 1080, refreshHz: 60), power: .on)
        }
        let config = SceneConfiguration(name: "requests") { ProbeDelegate(probe: probe) }
        h.app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: config))
        try await h.settle("the six answers arrive", timeout: 10) { probe.answers.count == 6 }

        XCTAssertEqual(probe.reentered, [], "nothing ran inside a request call")
        XCTAssertEqual(
            Set(probe.answers),
            [
                // Power exchanges of one screen take turns (wlroots fails a
                // second one at once), so each read follows the switch made
                // before it.
                "draw mode 1280x720 @ 30.000 Hz", "draw power off", "draw read off",
                "change mode 1920x1080 @ 60.000 Hz", "change power on", "change read on",
            ])
        XCTAssertEqual(h.fixture.outputMode(dp1), [1920, 1080, 60000])
        XCTAssertTrue(h.fixture.powerIsOn(dp1))
        let screen = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" })
        XCTAssertEqual(screen.powerState, .on)
        XCTAssertEqual(screen.currentMode?.description, "1920x1080 @ 60.000 Hz")
        OutputManagementProtocolTests.assertCleanApartFromSlowDraws(h)
    }

    /// A screen kept after its application was released has no connection
    /// to ask on: a mode change, a power switch and a power read each
    /// answer after the call (never inside it), naming the screen and
    /// the fix, and the power read answers nil.
    @MainActor
    func testAScreenThatOutlivedItsApplicationRefusesAfterTheCall() async throws {
        weak var released: Application?
        var kept: Screen?
        do {
            let (h, _, _) = try OutputManagementProtocolTests.harness()
            kept = h.app.screens.first { $0.name == "DP-1" }
            released = h.app
            h.close()
        }
        let screen = try XCTUnwrap(kept)
        XCTAssertNil(released, "nothing keeps the application once the harness is gone")
        var answers: [String] = []
        func refusal<T>(_ result: Result<T, ScreenConfigurationError>) -> String {
            guard case let .failure(error) = result else { return "answered \(result)" }
            return "\(error.kind): \(error.description)"
        }
        screen.setMode(ScreenModeRequest(width: 1280, height: 720)) { answers.append("mode \(refusal($0))") }
        screen.setPower(.off) { answers.append("power \(refusal($0))") }
        screen.readPowerState { answers.append("read \($0.map { "\($0)" } ?? "nil")") }
        XCTAssertEqual(answers, [], "nothing answered inside the calls")
        let end = Date().addingTimeInterval(5)
        while answers.count < 3, Date() < end {
            EventPump.processEvents()
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTAssertEqual(answers.count, 3, "every request answered: \(answers)")
        XCTAssertEqual(answers.last, "read nil")
        for answer in answers.prefix(2) {
            XCTAssertTrue(answer.contains(" shutDown: "), answer)
            XCTAssertTrue(answer.contains("screen DP-1"), answer)
            XCTAssertTrue(answer.contains("keep the Application alive"), answer)
        }
    }

    /// A panel switched off by another program while nobody polls
    /// `checkStall`: `currentStall` never calls it a stall and changes
    /// nothing when asked (no power, no handler, within the call); the
    /// application reads the power by itself and learns it is off, and
    /// learns it is on again.
    @MainActor
    func testSilentPanelIsReadWithoutPollingAndCurrentStallChangesNothing() async throws {
        let (h, dp1, _) = try OutputManagementProtocolTests.harness()
        defer { h.close() }
        let scene = try await OutputManagementProtocolTests.animatedScene(h)
        let screen = try XCTUnwrap(scene.screen)
        var changes = 0
        h.app.onScreenChange = { if $0 === screen { changes += 1 } }
        h.fixture.setPower(dp1, on: false)
        let end = Date().addingTimeInterval(5)
        while screen.powerState != .off, Date() < end {
            let before = (screen.powerState, changes)
            for _ in 0..<50 { XCTAssertNil(scene.displayLink.currentStall(), "a panel switched off is no stall") }
            XCTAssertTrue(before == (screen.powerState, changes), "currentStall changed the screen or ran a handler")
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        XCTAssertEqual(screen.powerState, .off, "the application read the silent panel's power by itself")
        XCTAssertEqual(changes, 1, "onScreenChange heard the power once")
        h.fixture.setPower(dp1, on: true)
        let frames = scene.displayLink.frameCount
        try await h.settle("frames resume once the power is read again", timeout: 5) {
            scene.displayLink.frameCount > frames + 10
        }
        XCTAssertEqual(screen.powerState, .on)
        OutputManagementProtocolTests.assertCleanApartFromSlowDraws(h)
    }

    /// Keys, pointer and touch sent in one flush reach the window in the
    /// order the compositor sent them, not one device after the other.
    @MainActor
    func testKeysPointerAndTouchOfOneBatchArriveInTheOrderSent() async throws {
        let h = try Harness(xdgShell: true) { scripted_offer_seat_with_keyboard($0.handle) }
        defer { h.close() }
        let recorder = InputRecorder()
        let keys = KeyRecorder(recorder: recorder)
        _ = try h.app.openWindow(configuration: SceneConfiguration(name: "order") { keys })
        try await h.settle("the window connects") { recorder.connected }
        try h.sync()
        let c = h.fixture.handle
        XCTAssertTrue(scripted_pointer_enter(c, 0, 1, 1))
        XCTAssertTrue(scripted_key(c, 0, 30, true))  // KEY_A: gives the window keyboard focus
        XCTAssertTrue(scripted_key(c, 0, 30, false))
        try h.sync()
        recorder.events.removeAll()
        // No await between the sends: the client reads them as one batch.
        XCTAssertTrue(scripted_pointer_motion(c, 10, 10))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_DOWN, 0, 7, 20, 20))
        XCTAssertTrue(scripted_key(c, 0, 48, true))  // KEY_B
        XCTAssertTrue(scripted_pointer_button(c, 0x110, true))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_UP, 0, 7, 0, 0))
        XCTAssertTrue(scripted_key(c, 0, 48, false))
        XCTAssertTrue(scripted_pointer_motion(c, 30, 30))
        try h.sync()
        XCTAssertEqual(
            recorder.events,
            [
                "pointer moved 10.0,10.0",
                "touch began #7 20.0,20.0",
                "key b pressed",
                "pointer pressed(Screenplay.PointerButton(rawValue: 272)) 10.0,10.0",
                "touch ended #7 20.0,20.0",
                "key b released",
                "pointer moved 30.0,30.0",
            ])
        h.assertClean()
    }
}

/// Makes requests and records what happens while they are being made.
@MainActor
final class RequestProbe {
    let app: Application
    /// What a request's completion handed back: "LABEL mode M", "LABEL power P", "LABEL read P".
    var answers: [String] = []
    /// Handlers, completions or draws that ran inside a request call.
    var reentered: [String] = []
    var firedFromHandler = false
    var firedFromDraw = false
    private var inside = false

    init(app: Application) { self.app = app }

    func noteHandler(_ what: String) {
        if inside { reentered.append(what) }
    }

    /// A mode change, a power switch and a power read of `screen`.
    func fire(_ label: String, on screen: Screen, mode: ScreenModeRequest, power: ScreenPowerState) {
        inside = true
        defer { inside = false }
        screen.setMode(mode) { [self] result in
            noteHandler("\(label) mode completion")
            answers.append("\(label) mode " + ((try? result.get()).map { "\($0)" } ?? "failed: \(result)"))
        }
        screen.setPower(power) { [self] result in
            noteHandler("\(label) power completion")
            answers.append("\(label) power " + ((try? result.get()).map { "\(power)" } ?? "failed: \(result)"))
        }
        screen.readPowerState { [self] state in
            noteHandler("\(label) read completion")
            answers.append("\(label) read \(state.map { "\($0)" } ?? "nil")")
        }
    }
}

/// Draws, and from its fifth frame on DP-1 makes the probe's requests once.
@MainActor
private final class ProbeDelegate: SceneDelegate {
    let probe: RequestProbe
    private var frames = 0
    init(probe: RequestProbe) { self.probe = probe }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) { scene.displayLink.isPaused = false }
    func draw(_ scene: Scene, in context: DrawingContext) throws {
        probe.noteHandler("draw")
        try context.clear(RGBColor(hex: 0x203040))
        frames += 1
        guard frames >= 5, let screen = scene.screen, screen.name == "DP-1", !probe.firedFromDraw else { return }
        probe.firedFromDraw = true
        probe.fire("draw", on: screen, mode: ScreenModeRequest(width: 1280, height: 720, refreshHz: 30), power: .off)
    }
}

/// Keys in the same log as the pointer and touch of an `InputRecorder`.
@MainActor
private final class KeyRecorder: SceneDelegate {
    let recorder: InputRecorder
    init(recorder: InputRecorder) { self.recorder = recorder }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) { recorder.scene(scene, willConnectTo: session) }
    func draw(_ scene: Scene, in context: DrawingContext) throws { try recorder.draw(scene, in: context) }
    func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {
        recorder.scene(scene, didReceivePointer: event)
    }
    func scene(_ scene: Scene, didReceiveTouch event: TouchEvent) { recorder.scene(scene, didReceiveTouch: event) }
    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {
        recorder.events.append("key \(event.keysym) \(event.isPressed ? "pressed" : "released")")
    }
}
