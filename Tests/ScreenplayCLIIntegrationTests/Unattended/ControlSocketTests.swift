import Foundation
import TestHarness
import TestSupport
import XCTest

/// `screenplay ctl` against a running `play`: every command, what the
/// panels then show (read back with grim), the socket's permissions and
/// the peer check.
final class ControlSocketTests: ScreenplayTestCase {
    static let colours: [UInt32] = [0xff0000, 0x00ff00, 0x0000ff, 0xffff00]

    func status(_ rig: SwayRig, _ socket: String) throws -> [String: [String: Any]] {
        let result = try CLI.run(["ctl", "status", "--json", "--socket", socket], environment: env(rig))
        XCTAssertEqual(result.status, 0, result.stderr)
        let reply = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let panels = reply["panels"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: panels.map { ($0["output"] as? String ?? "", $0) })
    }

    func shows(_ rig: SwayRig, _ output: String, _ hex: UInt32) -> Bool {
        waitUntil(timeout: 5) { (try? rig.capture(output: output).pixel(x: 160, y: 120)) == RGB(hex: hex) }
    }

    func testCommandsSwitchHoldAndReportThePanels() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 320, height: 240), .init(width: 320, height: 240),
        ])
        let items = Self.colours.map { "{\"color\": \"\(String(String($0 | 0x1000000, radix: 16).dropFirst()))\"}" }
            .joined(separator: ", ")
        let (_, playlist) = try signagePlaylist("{\"playlists\": {\"s\": [\(items)]}, \"default\": \"s\"}")
        let socket = controlSocketPath()
        // 600 s items: nothing moves unless ctl says so.
        let p = try CLI.start(
            ["play", playlist, "--duration", "600", "--stats", "-", "--socket", socket],
            environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-3" }, p.stderr)

        // The directory 0700, the socket 0600.
        let directory = (socket as NSString).deletingLastPathComponent
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int, 0o700)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int, 0o600)

        var panels = try status(rig, socket)
        XCTAssertEqual(Set(panels.keys), ["HEADLESS-2", "HEADLESS-3"])
        let first = try XCTUnwrap(panels["HEADLESS-2"]?["index"] as? Int)
        XCTAssertEqual(panels["HEADLESS-2"]?["playlist"] as? String, "s")
        XCTAssertEqual(panels["HEADLESS-2"]?["paused"] as? Bool, false)
        XCTAssertEqual(panels["HEADLESS-2"]?["stalled"] as? Bool, false)
        XCTAssertEqual(panels["HEADLESS-2"]?["items"] as? Int, 4)
        let left = try XCTUnwrap(panels["HEADLESS-2"]?["seconds_left"] as? Double)
        XCTAssertTrue(left > 0 && left <= 600, "\(left)")

        // next on one panel only.
        XCTAssertEqual(
            try CLI.run(["ctl", "next", "--output", "HEADLESS-2", "--socket", socket], environment: env(rig)).status, 0)
        let second = first % 4 + 1
        XCTAssertTrue(shows(rig, "HEADLESS-2", Self.colours[second - 1]), "next")
        XCTAssertTrue(shows(rig, "HEADLESS-3", Self.colours[first - 1]), "the other panel stays")
        panels = try status(rig, socket)
        XCTAssertEqual(panels["HEADLESS-2"]?["index"] as? Int, second)
        XCTAssertEqual(panels["HEADLESS-2"]?["seconds_left"] as? Double ?? 0, 600, accuracy: 5, "a full slot")

        // previous, then show by position and by name, on every panel.
        XCTAssertEqual(try CLI.run(["ctl", "previous", "--socket", socket], environment: env(rig)).status, 0)
        XCTAssertTrue(shows(rig, "HEADLESS-2", Self.colours[first - 1]), "previous")
        XCTAssertEqual(try CLI.run(["ctl", "show", "4", "--socket", socket], environment: env(rig)).status, 0)
        XCTAssertTrue(shows(rig, "HEADLESS-2", 0xffff00) && shows(rig, "HEADLESS-3", 0xffff00), "show 4")
        XCTAssertEqual(try CLI.run(["ctl", "show", "#00FF00", "--socket", socket], environment: env(rig)).status, 0)
        XCTAssertTrue(shows(rig, "HEADLESS-3", 0x00ff00), "show by name")

        // pause holds; resume goes on.
        XCTAssertEqual(try CLI.run(["ctl", "pause", "--socket", socket], environment: env(rig)).status, 0)
        panels = try status(rig, socket)
        XCTAssertEqual(panels["HEADLESS-3"]?["paused"] as? Bool, true)
        XCTAssertTrue(panels["HEADLESS-3"]?["seconds_left"] is NSNull)
        XCTAssertEqual(try CLI.run(["ctl", "resume", "--socket", socket], environment: env(rig)).status, 0)
        panels = try status(rig, socket)
        XCTAssertEqual(panels["HEADLESS-3"]?["paused"] as? Bool, false)

        // reload, and a refused one (a broken file) that names the problem.
        XCTAssertEqual(try CLI.run(["ctl", "reload", "--socket", socket], environment: env(rig)).status, 0)
        XCTAssertNotNil(p.waitForEvent { $0.event == "reload" && $0.raw["ok"] as? Bool == true })
        try "{\"playlists\": 3}".write(toFile: playlist, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["ctl", "reload", "--socket", socket], environment: env(rig))
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("reload refused") && refused.stderr.contains("playlists"), refused.stderr)

        // Mistakes: an item that does not exist, a pattern that matches no panel.
        let missing = try CLI.run(["ctl", "show", "nosuch.png", "--socket", socket], environment: env(rig))
        XCTAssertEqual(missing.status, 65)
        XCTAssertTrue(missing.stderr.contains("no item 'nosuch.png'"), missing.stderr)
        let nomatch = try CLI.run(["ctl", "next", "--output", "DP-9", "--socket", socket], environment: env(rig))
        XCTAssertEqual(nomatch.status, 65)
        XCTAssertTrue(nomatch.stderr.contains("HEADLESS-2, HEADLESS-3"), nomatch.stderr)
        // The text form.
        let text = try CLI.run(["ctl", "status", "--socket", socket], environment: env(rig))
        XCTAssertTrue(text.stdout.contains("HEADLESS-2: s "), text.stdout)
        assertCleanStop(p)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket is removed on exit")
        let gone = try CLI.run(["ctl", "status", "--socket", socket], environment: env(rig))
        XCTAssertEqual(gone.status, 69)
        XCTAssertTrue(gone.stderr.contains("no screenplay play answers on \(socket)"), gone.stderr)
    }

    /// The default path is under XDG_RUNTIME_DIR; a second play on the same
    /// socket is refused (69) rather than taking it over; a stale socket
    /// file (a play that was killed) is replaced.
    func testDefaultPathSecondInstanceAndStaleSocket() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let (_, playlist) = try signagePlaylist(#"{"playlists": {"s": [{"color": "336699"}]}, "default": "s"}"#)
        let environment = env(rig, builtin: "HEADLESS-1")
        let socket = try XCTUnwrap(environment["XDG_RUNTIME_DIR"]) + "/screenplay/play.sock"
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: socket))
        XCTAssertEqual(try CLI.run(["ctl", "status"], environment: environment).status, 0)
        let second = try CLI.run(["play", playlist], environment: environment)
        XCTAssertEqual(second.status, 69)
        XCTAssertTrue(second.stderr.contains("another screenplay play is listening on \(socket)"), second.stderr)
        p.kill(grace: 0)
        _ = p.wait(timeout: 5)
        XCTAssertTrue(FileManager.default.fileExists(atPath: socket), "a killed play leaves its socket file")
        let q = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertNotNil(q.waitForEvent { $0.event == "item" }, q.stderr)
        XCTAssertEqual(try CLI.run(["ctl", "status"], environment: environment).status, 0)
        assertCleanStop(q)
    }

    /// play runs as the rig's unprivileged user; root (which file
    /// permissions do not stop) is refused by the peer check and logged,
    /// the user itself is served.
    func testAnotherUidIsRefusedAndLogged() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let (folder, playlist) = try signagePlaylist(#"{"playlists": {"s": [{"color": "336699"}]}, "default": "s"}"#)
        _ = chmod(folder, 0o755)
        _ = chmod(playlist, 0o644)
        let socket = controlSocketPath()
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["XDG_RUNTIME_DIR"] = (rig.waylandDisplay as NSString).deletingLastPathComponent
        let p = try RunningProcess(
            "/usr/sbin/runuser",
            ["-u", rigUserName, "--", CLI.binary, "play", playlist, "--stats", "-", "--socket", socket],
            environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        let asRoot = try CLI.run(["ctl", "status", "--socket", socket], environment: env(rig))
        XCTAssertEqual(asRoot.status, 69, asRoot.stderr)
        XCTAssertTrue(asRoot.stderr.contains("refused"), asRoot.stderr)
        XCTAssertTrue(waitUntil(timeout: 2) { p.stderr.contains("control socket: refused uid 0") }, p.stderr)
        let asOwner = try runProcess(
            "/usr/sbin/runuser", ["-u", rigUserName, "--", CLI.binary, "ctl", "status", "--socket", socket],
            environment: environment, timeout: 10)
        XCTAssertEqual(asOwner.status, 0, asOwner.stderr)
        XCTAssertTrue(asOwner.stdout.contains("HEADLESS-2"), asOwner.stdout)
        // runuser answers SIGTERM with 143 once play has exited; play's own word is on stderr.
        p.terminate()
        XCTAssertNotNil(p.wait(timeout: 8))
        XCTAssertTrue(p.stderr.contains("SIGTERM: tearing down"), p.stderr)
    }
}
