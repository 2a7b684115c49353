import Foundation
import ScriptedCompositor
import TestHarness
import XCTest

@testable import Screenplay

/// Records the input a window gets, in words.
@MainActor
final class InputRecorder: SceneDelegate {
    var events: [String] = []
    var connected = false
    func scene(_ scene: Scene, willConnectTo session: SceneSession) { connected = true }
    func draw(_ scene: Scene, in context: DrawingContext) throws { try context.clear(RGBColor(hex: 0x203040)) }
    func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {
        events.append("pointer \(event.kind) \(event.x),\(event.y)")
    }
    func scene(_ scene: Scene, didReceiveTouch event: TouchEvent) {
        events.append("touch \(event.kind) #\(event.id) \(event.x),\(event.y)")
    }
}

/// Pointer and touch on an application window, from a scripted compositor
/// with a seat: positions arrive in the window's device pixels (scaled when
/// the window is on a scale-2 screen), touch points keep their ids, and
/// the pointer gets the arrow cursor on enter.
final class InputTests: ScreenplayTestCase {
    @MainActor
    func window(_ h: Harness) async throws -> (Scene, InputRecorder) {
        let recorder = InputRecorder()
        let scene = try h.app.openWindow(configuration: SceneConfiguration(name: "keypad") { recorder })
        try await h.settle("the window connects") { recorder.connected }
        try h.sync()
        return (scene, recorder)
    }

    @MainActor
    func testPointerEventsArriveInDevicePixelsAndFollowTheScale() async throws {
        let h = try Harness(xdgShell: true) { fixture in
            scripted_offer_seat(fixture.handle)
            _ = fixture.addOutput("HDMI-A-1", x: 1280, width: 2560, height: 1440, scale: 2)
        }
        defer { h.close() }
        let (scene, recorder) = try await window(h)
        XCTAssertEqual(scene.contentScale, 1)

        XCTAssertTrue(scripted_pointer_enter(h.fixture.handle, 0, 10.5, 20.25))
        try h.sync()
        XCTAssertEqual(recorder.events, ["pointer entered 10.5,20.25"])
        XCTAssertGreaterThanOrEqual(scripted_cursor_sets(h.fixture.handle), 1, "the arrow cursor is set on enter")

        // The window moves onto the scale-2 screen: positions double.
        var enter: [Int32] = [1]
        XCTAssertTrue(scripted_send_toplevel_outputs(h.fixture.handle, 0, &enter, 1))
        try h.sync()
        XCTAssertEqual(scene.contentScale, 2)
        recorder.events.removeAll()
        XCTAssertTrue(scripted_pointer_motion(h.fixture.handle, 100, 50))
        XCTAssertTrue(scripted_pointer_button(h.fixture.handle, 0x110, true))
        XCTAssertTrue(scripted_pointer_button(h.fixture.handle, 0x111, false))
        XCTAssertTrue(scripted_pointer_scroll(h.fixture.handle, 15))
        XCTAssertTrue(scripted_pointer_leave(h.fixture.handle))
        try h.sync()
        XCTAssertEqual(
            recorder.events,
            [
                "pointer moved 200.0,100.0",
                "pointer pressed(Screenplay.PointerButton(rawValue: 272)) 200.0,100.0",
                "pointer released(Screenplay.PointerButton(rawValue: 273)) 200.0,100.0",
                "pointer scrolled(dx: 0.0, dy: 30.0) 200.0,100.0",
                "pointer left 200.0,100.0",
            ])
        h.assertClean()
    }

    @MainActor
    func testTouchPointsKeepTheirIdsAndCancelEndsThemAll() async throws {
        let h = try Harness(xdgShell: true) { scripted_offer_seat($0.handle) }
        defer { h.close() }
        let (_, recorder) = try await window(h)
        let c = h.fixture.handle
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_DOWN, 0, 3, 10, 10))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_DOWN, 0, 4, 20, 20))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_MOTION, 0, 3, 30, 40))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_UP, 0, 3, 0, 0))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_MOTION, 0, 4, 25, 26))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_CANCEL, 0, 0, 0, 0))
        // After the cancel a new touch starts afresh.
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_DOWN, 0, 4, 5, 6))
        XCTAssertTrue(scripted_touch(c, SCRIPTED_TOUCH_UP, 0, 4, 0, 0))
        try h.sync()
        XCTAssertEqual(
            recorder.events,
            [
                "touch began #3 10.0,10.0",
                "touch began #4 20.0,20.0",
                "touch moved #3 30.0,40.0",
                "touch ended #3 30.0,40.0",
                "touch moved #4 25.0,26.0",
                "touch cancelled #4 25.0,26.0",
                "touch began #4 5.0,6.0",
                "touch ended #4 5.0,6.0",
            ])
        h.assertClean()
    }
}
