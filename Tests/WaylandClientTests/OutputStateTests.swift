import TestHarness
import XCTest

@testable import WaylandClient

final class OutputStateTests: ScreenplayTestCase {
    private func describeV4(_ s: inout OutputState, name: String = "HDMI-A-1") -> [OutputChange] {
        [
            s.apply(
                .geometry(x: 0, y: 0, physicalWidth: 600, physicalHeight: 340, make: "Acme", model: "TV", transform: 0)),
            s.apply(.mode(width: 1920, height: 1080, refreshMilliHz: 60000, current: true, preferred: true)),
            s.apply(.mode(width: 1280, height: 720, refreshMilliHz: 30000, current: false, preferred: false)),
            s.apply(.scale(1)),
            s.apply(.name(name)),
            s.apply(.description("Acme TV (HDMI-A-1)")),
        ]
    }

    func testNothingIsReportedBeforeDone() {
        var s = OutputState(globalName: 7)
        XCTAssertEqual(describeV4(&s), Array(repeating: .none, count: 6))
        XCTAssertNil(s.current)
        guard case let .ready(info) = s.apply(.done) else { return XCTFail("done must promote") }
        XCTAssertEqual(info.name, "HDMI-A-1")
        XCTAssertEqual(info.modes.count, 2)
        XCTAssertEqual(info.currentMode?.refreshMilliHz, 60000)
        XCTAssertEqual(info.logicalWidth, 1920, "without xdg-output the logical size comes from the mode")
        XCTAssertEqual(info.physicalWidthMillimeters, 600)
    }

    func testWaitsForXdgOutputV3ThenPromotesOnWlDone() {
        var s = OutputState(globalName: 1)
        _ = describeV4(&s)
        // Bound before the initial done arrived, xdg-output v3 reports and
        // the compositor ends the batch with a single wl_output.done.
        s.attachXdgOutput(version: 3)
        XCTAssertEqual(s.apply(.logicalPosition(x: 1920, y: 0)), .none)
        XCTAssertEqual(s.apply(.logicalSize(width: 960, height: 540)), .none)
        guard case let .ready(info) = s.apply(.done) else { return XCTFail() }
        XCTAssertEqual(info.logicalX, 1920)
        XCTAssertEqual(info.logicalWidth, 960)
    }

    func testXdgOutputV2NeedsItsOwnDone() {
        var s = OutputState(globalName: 1)
        s.attachXdgOutput(version: 2)
        _ = describeV4(&s)
        XCTAssertEqual(s.apply(.done), .none, "xdg-output v2 has not reported yet")
        _ = s.apply(.logicalPosition(x: 0, y: 0))
        _ = s.apply(.logicalSize(width: 1920, height: 1080))
        guard case .ready = s.apply(.xdgDone) else { return XCTFail("xdg done completes it") }
    }

    func testOldVersionsFallBackToXdgNameThenMakeModel() {
        var s = OutputState(globalName: 3)
        s.attachXdgOutput(version: 2)
        _ = s.apply(
            .geometry(x: 0, y: 0, physicalWidth: 0, physicalHeight: 0, make: "Acme", model: "Beamer", transform: 0))
        _ = s.apply(.mode(width: 800, height: 600, refreshMilliHz: 0, current: true, preferred: false))
        _ = s.apply(.xdgName("DP-2"))
        _ = s.apply(.done)
        guard case let .ready(info) = s.apply(.xdgDone) else { return XCTFail() }
        XCTAssertEqual(info.name, "DP-2")
        XCTAssertTrue(info.hasConnectorName)

        var old = OutputState(globalName: 4)
        _ = old.apply(
            .geometry(x: 0, y: 0, physicalWidth: 0, physicalHeight: 0, make: "Acme", model: "Beamer", transform: 0))
        _ = old.apply(.mode(width: 800, height: 600, refreshMilliHz: 0, current: true, preferred: false))
        guard case let .ready(oldInfo) = old.apply(.done) else { return XCTFail() }
        XCTAssertEqual(oldInfo.name, "Acme Beamer")
        XCTAssertFalse(oldInfo.hasConnectorName)
    }

    func testModeChangeIsAChangeOfTheSameOutput() {
        var s = OutputState(globalName: 1)
        _ = describeV4(&s)
        _ = s.apply(.done)
        _ = s.apply(.mode(width: 1280, height: 720, refreshMilliHz: 30000, current: true, preferred: false))
        guard case let .changed(old, new) = s.apply(.done) else { return XCTFail() }
        XCTAssertEqual(old.currentMode?.width, 1920)
        XCTAssertEqual(new.currentMode?.width, 1280)
        XCTAssertEqual(new.currentMode?.refreshMilliHz, 30000)
        XCTAssertEqual(new.modes.count, 2, "a known mode is not added twice")
        XCTAssertEqual(s.apply(.done), .none, "a done with nothing new changes nothing")
    }

    func testTransformSwapsDerivedLogicalSize() {
        var s = OutputState(globalName: 1)
        _ = s.apply(.geometry(x: 0, y: 0, physicalWidth: 0, physicalHeight: 0, make: "", model: "", transform: 1))
        _ = s.apply(.mode(width: 1920, height: 1080, refreshMilliHz: 60000, current: true, preferred: false))
        _ = s.apply(.scale(2))
        guard case let .ready(info) = s.apply(.done) else { return XCTFail() }
        XCTAssertEqual(info.transform, .rotated90)
        XCTAssertEqual(info.logicalWidth, 540)
        XCTAssertEqual(info.logicalHeight, 960)
        XCTAssertEqual(info.name, "output-1")
    }

    func testTransformNamesMatchWlrRandr() {
        XCTAssertEqual(
            OutputTransform.allCases.map(\.description),
            ["normal", "90", "180", "270", "flipped", "flipped-90", "flipped-180", "flipped-270"])
    }
}
