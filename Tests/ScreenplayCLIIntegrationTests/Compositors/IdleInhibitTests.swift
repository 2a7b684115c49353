import Foundation
import TestHarness
import TestSupport
import XCTest

/// A panel never blanks on its own: with swayidle set to act after 2 s of
/// idle, `play` and `present` (the defaults a user gets) keep it from
/// acting while they show content, and `--allow-idle` lets it act.
///
/// Headless sway cannot switch an output off (FIELD-NOTES), so swayidle's
/// timeout writes a marker file instead of `output * dpms off`: the marker
/// is what would have turned the panel off.
final class IdleInhibitTests: ScreenplayTestCase {
    private func swayidle(_ rig: SwayRig, marker: String) throws -> RunningProcess {
        let idle = try RunningProcess(
            "/usr/bin/swayidle", ["-w", "timeout", "2", "touch \(marker)"], environment: rig.clientEnvironment)
        addTeardownBlock { idle.kill() }
        return idle
    }

    private func marker() -> String {
        let path = NSTemporaryDirectory() + "idle-fired-\(getpid())-\(UUID().uuidString.prefix(8))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testPlayAndPresentKeepThePanelOnAndAllowIdleLetsItBlank() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let (_, playlist) = try signagePlaylist(
            #"{"playlists": {"s": [{"color": "ff0000", "duration": 1}, {"color": "0000ff", "duration": 1}]}, "default": "s"}"#
        )
        for (label, args) in [
            ("play", ["play", playlist, "--socket", controlSocketPath(), "--stats", "-"]),
            ("present", ["present", "color", "336699", "--stats", "-"]),
        ] {
            // present keeps the iOS rule (the only screen is the main one): --all.
            let p = try CLI.start(args + (label == "present" ? ["--all"] : []), environment: env(rig))
            addTeardownBlock { p.kill() }
            let connect = p.waitForEvent { $0.event == "connect" }
            XCTAssertEqual(connect?.raw["inhibits_idle"] as? Bool, true, "\(label): the connect event")
            let fired = marker()
            let idle = try swayidle(rig, marker: fired)
            // Three times swayidle's timeout: it would have acted by now.
            Thread.sleep(forTimeInterval: 6)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: fired), "\(label): swayidle acted on an inhibited panel")
            XCTAssertTrue(idle.isRunning, "swayidle stopped: \(idle.stderr)")
            if label == "play" {
                let items = p.statsEvents.filter { $0.event == "item" }.count
                XCTAssertGreaterThanOrEqual(items, 5, "play kept switching its 1 s items meanwhile")
            }
            idle.kill()
            assertCleanStop(p)
        }

        // The control: with --allow-idle the same swayidle acts, so the
        // test above could have failed.
        let p = try CLI.start(
            ["play", playlist, "--allow-idle", "--socket", controlSocketPath(), "--stats", "-"], environment: env(rig))
        addTeardownBlock { p.kill() }
        let connect = p.waitForEvent { $0.event == "connect" }
        XCTAssertEqual(connect?.raw["inhibits_idle"] as? Bool, false, "--allow-idle: the connect event")
        let fired = marker()
        _ = try swayidle(rig, marker: fired)
        XCTAssertTrue(
            waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: fired) },
            "--allow-idle: swayidle never acted, so the inhibiting runs prove nothing")
        assertCleanStop(p)
    }
}
