import Foundation
import TestHarness
import TestSupport
import XCTest

/// Modes, serial numbers and panel power through wlr-output-management and
/// wlr-output-power-management on sway, and the missing-protocol path on
/// weston. Races and refusals sway cannot produce on demand are in
/// ScreenplayTests/OutputManagementProtocolTests (scripted compositor).
final class OutputManagementTests: ScreenplayTestCase {
    private func swayMode(_ rig: SwayRig, _ name: String) throws -> [Int] {
        let output = try XCTUnwrap(try rig.output(named: name), "sway lists no \(name)")
        return [output.width, output.height, output.refreshMilliHz]
    }

    /// `--mode` sets the external screen's mode before its scene connects
    /// (the connect line already has the new size and refresh, the display
    /// link runs at the new refresh), leaves the built-in screen alone, and
    /// the old mode comes back on SIGTERM and on SIGINT, as sway reports.
    /// sway 1.7 lists headless outputs with no modes, so this is the custom
    /// mode path.
    func testModeIsAppliedBeforeTheSceneAndRestoredOnSignals() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        for signal in [SIGTERM, SIGINT] {
            let p = try CLI.start(
                ["present", "--mode", "1024x768@30", "color", "ff8000", "--stats", "-"],
                environment: env(rig, builtin: "HEADLESS-1"))
            let connect = p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }
            XCTAssertEqual(connect?.int("width"), 1024, p.stderr)
            XCTAssertEqual(connect?.int("height"), 768)
            XCTAssertEqual(connect?.int("refresh_mhz"), 30000, "the scene connected after the mode change")
            XCTAssertEqual(try swayMode(rig, "HEADLESS-2"), [1024, 768, 30000])
            XCTAssertEqual(try swayMode(rig, "HEADLESS-1"), [1280, 720, 60000], "the built-in screen keeps its mode")
            let frames = p.waitForEvent { $0.event == "frames" && $0.output == "HEADLESS-2" }
            let refreshNs = frames?.int("refresh_ns") ?? 0
            XCTAssertEqual(Double(refreshNs), 1e9 / 30, accuracy: 1e5, "the display link runs at the new 30 Hz")
            p.send(signal)
            XCTAssertEqual(p.wait(timeout: 10), 0, p.stderr)
            XCTAssertEqual(
                try swayMode(rig, "HEADLESS-2"), [1280, 720, 60000], "the mode is back after signal \(signal)")
            XCTAssertTrue(p.stderr.contains("HEADLESS-2: mode 1280x720 @ 60.000 Hz restored"), p.stderr)
        }
    }

    /// `outputs --json` on sway: the head's serial (sway's headless outputs
    /// have none, so null), enabled, the head's mode list (empty for sway's
    /// virtual outputs), adaptive sync (null: sway 1.7 binds manager v2),
    /// and power read through the power manager.
    func testOutputsJSONCarriesHeadAndPowerFieldsOnSway() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 800, height: 600)])
        let result = try CLI.run(["outputs", "--json"], environment: env(rig))
        XCTAssertEqual(result.status, 0, result.stderr)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.map { $0["name"] as? String }, ["HEADLESS-1", "HEADLESS-2"])
        for entry in list {
            XCTAssertEqual(entry["enabled"] as? Bool, true)
            XCTAssertEqual(entry["power"] as? String, "on")
            XCTAssertTrue(entry["serial"] is NSNull, "sway's headless outputs have no serial number")
            XCTAssertTrue(entry["adaptive_sync"] is NSNull, "manager v2 says nothing of adaptive sync")
            XCTAssertEqual((entry["modes"] as? [Any])?.count, 0, "sway 1.7 lists headless outputs with no modes")
            XCTAssertNotNil(entry["mode"] as? [String: Any], "the current mode still comes from wl_output")
        }
        let text = try CLI.run(["outputs"], environment: env(rig))
        XCTAssertTrue(text.stdout.contains("Power: on"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Enabled: yes"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Modes: none listed"), text.stdout)
    }

    /// sway 1.7 cannot switch a headless output off: the request reaches it
    /// (its log records the failed commit), and `power off` says so and
    /// exits 69 instead of claiming success. `power status` still reads on.
    func testPowerOffThatSwayCannotDoIsReportedNotSwallowed() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        let logBefore = rig.log.components(separatedBy: "Failed to commit output").count
        let off = try CLI.run(["power", "off", "--output", "HEADLESS-2"], environment: env(rig))
        XCTAssertEqual(off.status, 69, off.stdout + off.stderr)
        XCTAssertTrue(off.stderr.contains("did not switch screen HEADLESS-2 off: it still reports on"), off.stderr)
        XCTAssertFalse(off.stdout.contains("HEADLESS-2: off"), "no success line")
        XCTAssertTrue(
            waitUntil(timeout: 5) { rig.log.components(separatedBy: "Failed to commit output").count > logBefore },
            "the request reached sway (its log shows the failed commit)")
        let status = try CLI.run(["power", "status", "--json"], environment: env(rig))
        XCTAssertEqual(status.status, 0, status.stderr)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.map { $0["power"] as? String }, ["on", "on"])
        // Switching on what is on succeeds, and --output matching nothing is a usage error.
        XCTAssertEqual(try CLI.run(["power", "on", "--output", "HEADLESS-1"], environment: env(rig)).status, 0)
        let none = try CLI.run(["power", "on", "--output", "HDMI-*"], environment: env(rig))
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("HEADLESS-1"), none.stderr)
    }

    /// weston offers neither protocol: modes come from wl_output alone,
    /// `--mode` and `power` exit 69 naming what can do it, `doctor` lists
    /// both as missing with that consequence, and `outputs --json` says
    /// null for power.
    func testWithoutTheProtocolsModeAndPowerExitUnavailable() throws {
        let rig = try WestonRig.start(width: 1024, height: 768)
        addTeardownBlock { rig.stop() }
        let e = rig.clientEnvironment
        let mode = try CLI.run(["present", "--all", "--mode", "800x600", "color", "000000"], environment: e)
        XCTAssertEqual(mode.status, 69, mode.stderr)
        XCTAssertTrue(mode.stderr.contains("does not offer zwlr_output_manager_v1"), mode.stderr)
        XCTAssertTrue(mode.stderr.contains("weston.ini"), mode.stderr)
        for action in ["on", "off", "status"] {
            let power = try CLI.run(["power", action], environment: e)
            XCTAssertEqual(power.status, 69, power.stderr)
            XCTAssertTrue(power.stderr.contains("does not offer zwlr_output_power_manager_v1"), power.stderr)
        }
        let doctor = try CLI.run(["doctor"], environment: e)
        XCTAssertTrue(doctor.stdout.contains("zwlr_output_manager_v1: missing"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("zwlr_output_power_manager_v1: missing"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("`screenplay power` cannot work"), doctor.stdout)
        let outputs = try CLI.run(["outputs", "--json"], environment: e)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(outputs.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.count, 1)
        XCTAssertTrue(list[0]["power"] is NSNull)
        XCTAssertEqual(list[0]["enabled"] as? Bool, true)
        let modes = try XCTUnwrap(list[0]["modes"] as? [[String: Any]])
        XCTAssertEqual(modes.first?["width"] as? Int, 1024, "modes from wl_output alone")
    }

    /// And on sway, doctor lists both protocols as offered.
    func testDoctorListsBothProtocolsOnSway() throws {
        let rig = try startSway([.init(width: 640, height: 480)])
        let doctor = try CLI.run(["doctor"], environment: env(rig))
        XCTAssertTrue(doctor.stdout.contains("zwlr_output_manager_v1: offered"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("zwlr_output_power_manager_v1: offered"), doctor.stdout)
    }
}
