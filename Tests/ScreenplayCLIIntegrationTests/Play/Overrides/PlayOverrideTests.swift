import Foundation
import TestSupport
import XCTest

/// `screenplay ctl override`: an emergency message or other content in
/// place of the schedule, on the first frame drawn after the request, out
/// again at `--clear` or at its expiry second to the item the clock says
/// then, logged in proof of play, shown by `ctl status`.
extension PlayTests {
    /// The background of `ctl override --text` (docs/signage.md: large white letters on dark red).
    static let overrideRed = RGB(hex: 0xB0_00_00)

    func overrideEvents(_ p: RunningProcess, _ action: String) -> [StatsEvent] {
        p.statsEvents.filter { $0.event == "override" && $0.raw["action"] as? String == action }
    }

    /// Where `play` keeps `playlist`'s overrides (docs/signage.md: Emergency overrides).
    func overrideStateFile(state: String, playlist: String) -> String {
        let name = playlist.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
        return state + "/screenplay/override/" + name + ".json"
    }

    /// A rig of one 320x240 panel, a folder with a playlist of #336699 in
    /// it, the playlist's path, and a control socket path for play.
    func probedPanel() throws -> (SwayRig, String, String, String) {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(folder, #"{"playlists": {"s": [{"color": "336699"}]}, "default": "s"}"#)
        return (rig, folder, playlist, controlSocketPath())
    }

    /// Starts `play` (`--stats`, `socket`), waits for its first item, and
    /// puts a text override on it (`--for duration`), four lines with the
    /// middle two empty so the panel's centre, where the probe reads, is
    /// the background; returns once the override's item line is written.
    func playWithTextOverride(
        _ playlist: String, socket: String, environment: [String: String], for duration: String?
    ) throws -> RunningProcess {
        let p = try CLI.start(["play", playlist, "--stats", "-", "--socket", socket], environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        let result = try CLI.run(
            ["ctl", "override", "--text", "FIRE\n\n\nDRILL", "--socket", socket]
                + (duration.map { ["--for", $0] } ?? []),
            environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.raw["override"] as? Bool == true }, p.stderr)
        return p
    }

    func seconds(_ iso: Any?) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (iso as? String).flatMap(formatter.date(from:))?.timeIntervalSince1970
    }

    /// As docs/signage.md tells a user: `play FILE --proof FILE` with the
    /// default socket (as a systemd service), `ctl override --text ... --for
    /// 20m`, `ctl status`, `ctl override --clear`; read back with grim, the
    /// proof file and systemd's STATUS= line.
    func testOverrideTextInAndOutAsTheSignageGuideSays() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            #"{"playlists": {"s": [{"color": "336699", "duration": 1}, {"color": "996633", "duration": 1}]}, "default": "s"}"#
        )
        let proof = folder + "/proof.jsonl"
        // As systemd runs it (Type=notify): STATUS= names the override.
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        let environment = listener.environment(env(rig))
        let p = try CLI.start(["play", playlist, "--proof", proof], environment: environment)
        func proofLines() -> [StatsEvent] {
            ((try? String(contentsOfFile: proof, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                StatsEvent(String($0))
            }
        }
        XCTAssertTrue(waitUntil(timeout: 15) { proofLines().contains { $0.event == "item" } }, p.stderr)

        let message = "FIRE DRILL - leave by the stairs"
        let started = try CLI.run(["ctl", "override", "--text", message, "--for", "20m"], environment: environment)
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertTrue(started.stdout.contains("override text:FIRE DRILL"), started.stdout)
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: "HEADLESS-1").pixel(x: 2, y: 2)) == Self.overrideRed },
            "the message's red background is on screen")

        let overrideStatus = "STATUS=1 panel: HEADLESS-1 text:\(message) (override)"
        XCTAssertTrue(waitUntil(timeout: 5) { listener.texts.contains(overrideStatus) }, "\(listener.texts)")
        let status = try CLI.run(["ctl", "status"], environment: environment)
        XCTAssertTrue(status.stdout.contains("OVERRIDE text:\(message) since "), status.stdout)
        let json = try CLI.run(["ctl", "status", "--json"], environment: environment)
        let reply = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
        let panel = (reply["panels"] as? [[String: Any]])?.first ?? [:]
        let override = try XCTUnwrap(panel["override"] as? [String: Any], json.stdout)
        XCTAssertEqual(override["what"] as? String, message)
        let since = try XCTUnwrap(override["since"] as? String)
        let until = try XCTUnwrap(override["until"] as? String)
        XCTAssertNotNil(
            since.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$"#, options: .regularExpression), since)
        let untilUnix = try XCTUnwrap(override["until_unix"] as? Double)
        XCTAssertEqual(untilUnix - Date().timeIntervalSince1970, 20 * 60, accuracy: 30, until)

        // The schedule went on underneath: more than an item's time passes
        // before the clear, which brings the clock's item of that moment.
        Thread.sleep(forTimeInterval: 1.2)
        let cleared = try CLI.run(["ctl", "override", "--clear"], environment: environment)
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                proofLines().contains { $0.event == "override" && $0.raw["action"] as? String == "clear" }
                    && proofLines().last?.event == "item" && proofLines().last?.raw["override"] == nil
            }, "an item line after the clear: \(proofLines().map(\.raw))")
        XCTAssertTrue(
            listener.texts.last { $0.hasPrefix("STATUS=") }?.hasPrefix("STATUS=1 panel: HEADLESS-1 #") == true,
            "the schedule's item again: \(listener.texts)")
        assertCleanStop(p)

        let lines = proofLines()
        let start = try XCTUnwrap(lines.firstIndex { $0.event == "override" && $0.raw["action"] as? String == "start" })
        let clear = try XCTUnwrap(lines.firstIndex { $0.event == "override" && $0.raw["action"] as? String == "clear" })
        let shown = lines[start..<clear].filter { $0.event == "item" }
        XCTAssertEqual(shown.map { $0.raw["override"] as? Bool }, [true], "one override item line: \(shown.map(\.raw))")
        XCTAssertEqual(shown.first?.raw["source"] as? String, "text:\(message)")
        XCTAssertEqual(lines[clear].raw["outputs"] as? [String], ["HEADLESS-1"])
        let back = try XCTUnwrap(lines[clear...].first { $0.event == "item" })
        // The clock's item at the clear, or at the frame that showed it
        // when a boundary fell between the two.
        let colours = ["#336699", "#996633"]
        let instants = [lines[clear].raw["at"] as? String, back.raw["at"] as? String].compactMap { $0 }
        let expected = Set(instants.compactMap { clockIndex($0, count: 2, seconds: 1) }.map { colours[$0] })
        XCTAssertTrue(
            expected.contains(back.raw["source"] as? String ?? ""),
            "\(back.raw["source"] ?? "?") is the item the clock says at \(instants)")
    }

    /// Per frame (the play probe reads each frame back before it is
    /// presented): no frame between the request and the override shows
    /// anything else, the override ends by itself at its second, and the
    /// first frame after shows the schedule; never black.
    func testOverrideOnTheNextFrameAndExpiringAtItsSecond() throws {
        let (rig, folder, playlist, socket) = try probedPanel()
        var environment = env(rig)
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        environment["XDG_STATE_HOME"] = folder + "/state"
        let p = try playWithTextOverride(playlist, socket: socket, environment: environment, for: "3s")
        let expired = p.waitForEvent(timeout: 10) { $0.event == "override" && $0.raw["action"] as? String == "expired" }
        XCTAssertNotNil(expired, p.stderr)
        let startNs = try XCTUnwrap(overrideEvents(p, "start").first?.int("ns"))
        let endNs = try XCTUnwrap(expired?.int("ns"))
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                let events = p.statsEvents
                return events.contains { $0.event == "probe" && $0.int("ns") > endNs }
                    && events.last { $0.event == "item" || $0.event == "override" }?.event == "item"
            }, "a frame after the expiry, and its item line")
        assertCleanStop(p)

        let probes = p.statsEvents.filter { $0.event == "probe" }
        let during = probes.filter { $0.int("ns") > startNs && $0.int("ns") < endNs }.map { $0.raw["rgb"] as? String }
        XCTAssertFalse(during.isEmpty)
        XCTAssertEqual(Set(during), ["b00000"], "every frame of the override, the first one too")
        XCTAssertEqual(probes.first { $0.int("ns") > endNs }?.raw["rgb"] as? String, "336699", "the schedule again")
        XCTAssertEqual(Set(probes.map { $0.raw["rgb"] as? String }), ["336699", "b00000"], "nothing else, no black")

        let start = try XCTUnwrap(overrideEvents(p, "start").first)
        let until = try XCTUnwrap(seconds(start.raw["until"]))
        XCTAssertEqual(until - (seconds(start.raw["since"]) ?? 0), 3, accuracy: 0.01)
        let endedAt = try XCTUnwrap(seconds(expired?.raw["at"]))
        XCTAssertTrue(endedAt >= until && endedAt < until + 0.5, "expired at \(endedAt), due \(until)")
        let overrideItems = items(p).filter { $0.raw["override"] as? Bool == true }
        XCTAssertEqual(overrideItems.count, 1)
        XCTAssertEqual(items(p).last?.raw["override"] as? Bool, nil, "the schedule's item logged after")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: overrideStateFile(state: folder + "/state", playlist: playlist)),
            "an expired override is deleted from the state folder")
    }

    /// A playlist of the running file plays its items in turn, each its
    /// duration, cut from one to the next with no other frame between; a
    /// picture file named relative to ctl's folder replaces it (the newest
    /// override wins), and each shows from the first frame after its request.
    func testOverrideWithAPlaylistAndAPictureFile() throws {
        let (rig, folder, _, socket) = try probedPanel()
        try writePNG(folder + "/closed.png", 0x00ff00)
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"s": [{"color": "336699"}],
                           "alarm": [{"color": "ff0000", "duration": 0.5}, {"color": "ffff00", "duration": 0.5}]},
             "default": "s"}
            """, name: "alarm.json")
        var environment = env(rig)
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        environment["XDG_STATE_HOME"] = folder + "/state"
        let p = try CLI.start(["play", playlist, "--stats", "-", "--socket", socket], environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        let alarm = try CLI.run(["ctl", "override", "alarm", "--socket", socket], environment: environment)
        XCTAssertEqual(alarm.status, 0, alarm.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 10) { self.items(p).filter { $0.raw["override"] as? Bool == true }.count >= 4 }, p.stderr
        )
        // From ctl's own folder, as a person in /srv/signage would type it.
        let picture = try runProcess(
            CLI.binary, ["ctl", "override", "closed.png", "--socket", socket], environment: environment, timeout: 20,
            directory: folder)
        XCTAssertEqual(picture.status, 0, picture.stderr)
        XCTAssertTrue(picture.stdout.contains("override \(folder)/closed.png"), picture.stdout)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.raw["source"] as? String == folder + "/closed.png" })
        let cleared = try CLI.run(["ctl", "override", "--clear", "--socket", socket], environment: environment)
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                let events = p.statsEvents
                guard
                    let clear = events.lastIndex(where: {
                        $0.event == "override" && $0.raw["action"] as? String == "clear"
                    })
                else { return false }
                return events[clear...].contains { $0.event == "item" && $0.raw["source"] as? String == "#336699" }
            }, "the schedule's item after the clear: \(p.stderr)")
        assertCleanStop(p)

        let shown = items(p).filter { $0.raw["override"] as? Bool == true }.map { $0.raw["source"] as? String ?? "" }
        let cycle = shown.prefix { $0 != folder + "/closed.png" }
        XCTAssertGreaterThanOrEqual(cycle.count, 4)
        XCTAssertEqual(Array(cycle), (0..<cycle.count).map { $0 % 2 == 0 ? "#FF0000" : "#FFFF00" }, "in turn")
        XCTAssertEqual(
            items(p).filter { $0.raw["override"] as? Bool == true }.first?.raw["playlist"] as? String, "alarm")
        XCTAssertEqual(overrideEvents(p, "clear").first?.raw["what"] as? String, "alarm", "the picture replaced it")
        let starts = overrideEvents(p, "start").map { $0.int("ns") }
        let probes = p.statsEvents.filter { $0.event == "probe" }
        let firstOfEach = starts.map { start in probes.first { $0.int("ns") > start }?.raw["rgb"] as? String }
        XCTAssertEqual(firstOfEach, ["ff0000", "00ff00"], "each override on the first frame after its request")
        XCTAssertEqual(
            Set(probes.map { $0.raw["rgb"] as? String ?? "" }), ["336699", "ff0000", "ffff00", "00ff00"],
            "no other frame, no black")
    }
}
