import Foundation
import TestSupport
import XCTest

/// `ctl override` across a restart of `play` (kept in the state folder
/// until it expires), on the panels `--output` names only, and refused
/// with its reason (nothing changes) when the request is wrong.
extension PlayTests {
    /// An override `--for 60s` is back from the first frame after a
    /// SIGTERM and a new start; with the wall clock past its expiry the next
    /// start shows the schedule, logs it expired and deletes the state file.
    func testOverrideSurvivesARestartUntilItExpires() throws {
        let (rig, folder, playlist, socket) = try probedPanel()
        var environment = env(rig)
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        environment["XDG_STATE_HOME"] = folder + "/state"
        let arguments = ["play", playlist, "--stats", "-", "--socket", socket]
        let first = try playWithTextOverride(playlist, socket: socket, environment: environment, for: "60s")
        assertCleanStop(first)
        let stateFile = overrideStateFile(state: folder + "/state", playlist: playlist)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stateFile), "kept in \(stateFile)")

        let second = try CLI.start(arguments, environment: environment)
        let shown = second.waitForEvent { $0.event == "item" }
        XCTAssertEqual(shown?.raw["override"] as? Bool, true, "the first item is the override: \(second.stderr)")
        assertCleanStop(second)
        let probes = second.statsEvents.filter { $0.event == "probe" }.map { $0.raw["rgb"] as? String }
        XCTAssertFalse(probes.isEmpty)
        XCTAssertEqual(Set(probes), ["b00000"], "from the first frame: \(probes)")
        XCTAssertTrue(second.stderr.contains("is in force again"), second.stderr)

        // Two minutes later by play's wall clock: expired while it was down.
        var later = try fakeClockEnvironment(rig, folder: folder, offset: 120)
        later["SCREENPLAY_BUILTIN"] = nil
        later["XDG_STATE_HOME"] = folder + "/state"
        let third = try CLI.start(arguments, environment: later)
        let back = third.waitForEvent { $0.event == "item" }
        XCTAssertNotNil(back, third.stderr)
        XCTAssertNil(back?.raw["override"], "the schedule again")
        XCTAssertEqual(back?.raw["source"] as? String, "#336699")
        let expired = overrideEvents(third, "expired")
        XCTAssertEqual(expired.count, 1, third.stderr)
        XCTAssertEqual(expired.first?.raw["outputs"] as? [String], [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile), "an expired override's file is deleted")
        assertCleanStop(third)
    }

    /// As a user reads `play`'s log after a restart: the kept overrides,
    /// one back in force and one that expired while play was down, are
    /// told before the control socket's line, as play has always told them
    /// (they are restored before play connects).
    func testKeptOverridesAreToldBeforeTheControlSocketLine() throws {
        let (rig, folder, playlist, socket) = try probedPanel()
        var environment = env(rig)
        environment["XDG_STATE_HOME"] = folder + "/state"
        let first = try CLI.start(["play", playlist, "--stats", "-", "--socket", socket], environment: environment)
        XCTAssertNotNil(first.waitForEvent { $0.event == "item" }, first.stderr)
        func override(_ words: [String]) throws {
            let result = try CLI.run(["ctl", "override"] + words + ["--socket", socket], environment: environment)
            XCTAssertEqual(result.status, 0, "\(words): \(result.stderr)")
        }
        try override(["--text", "CLOSED", "--for", "60s"])
        try override(["--text", "SOON", "--for", "4s", "--output", "HEADLESS-1"])
        let shortEnds = Date().addingTimeInterval(4)
        assertCleanStop(first)
        let state = try Data(
            contentsOf: URL(fileURLWithPath: overrideStateFile(state: folder + "/state", playlist: playlist)))
        let kept = (try JSONSerialization.jsonObject(with: state) as? [String: Any])?["overrides"] as? [Any]
        XCTAssertEqual(kept?.count, 2, "both kept at the stop: \(String(decoding: state, as: UTF8.self))")
        Thread.sleep(until: shortEnds.addingTimeInterval(0.5))

        let second = try CLI.start(["play", playlist, "--stats", "-", "--socket", socket], environment: environment)
        let shown = second.waitForEvent { $0.event == "item" }
        XCTAssertEqual(shown?.raw["source"] as? String, "text:CLOSED", "the kept override plays: \(second.stderr)")
        assertCleanStop(second)
        let lines = second.stderr.split(separator: "\n").map(String.init)
        let socketLine = try XCTUnwrap(lines.firstIndex(of: "screenplay: control socket: \(socket)"), second.stderr)
        let back = try XCTUnwrap(
            lines.firstIndex {
                $0.hasPrefix("screenplay: the override text:CLOSED ") && $0.contains("is in force again")
            },
            second.stderr)
        let expired = try XCTUnwrap(
            lines.firstIndex {
                $0.hasPrefix("screenplay: the override text:SOON expired at ")
                    && $0.hasSuffix("while play was not running")
            }, second.stderr)
        XCTAssertLessThan(back, socketLine, second.stderr)
        XCTAssertLessThan(expired, socketLine, second.stderr)
    }

    /// Two panels: `--output` changes only the one it names, `--clear
    /// --output` lifts it there (from one on every panel too); a wrong duration, an unknown playlist, a
    /// missing file and a pattern that matches no panel are refused with
    /// their reason and change nothing; with no play running ctl says so.
    func testOverrideOnOnePanelAndMistakesChangeNothing() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(folder, #"{"playlists": {"s": [{"color": "336699"}]}, "default": "s"}"#)
        var environment = env(rig)
        environment["XDG_STATE_HOME"] = folder + "/state"
        let socket = controlSocketPath()
        let p = try CLI.start(["play", playlist, "--stats", "-", "--socket", socket], environment: environment)
        XCTAssertTrue(waitUntil(timeout: 15) { Set(self.items(p).map(\.output)).count == 2 }, p.stderr)
        func ctl(_ words: [String]) throws -> ProcessResult {
            try CLI.run(["ctl"] + words + ["--socket", socket], environment: environment)
        }
        func pixel(_ output: String) -> RGB? { try? rig.capture(output: output).pixel(x: 2, y: 2) }
        func overrides() throws -> [String: Bool] {
            let json = try ctl(["status", "--json"])
            let reply = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
            let panels = reply["panels"] as? [[String: Any]] ?? []
            return Dictionary(
                uniqueKeysWithValues: panels.map { ($0["output"] as? String ?? "", !($0["override"] is NSNull)) })
        }

        let started = try ctl(["override", "--text", "CLOSED", "--output", "HEADLESS-2"])
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertTrue(waitUntil(timeout: 5) { pixel("HEADLESS-2") == Self.overrideRed }, "the named panel")
        XCTAssertEqual(pixel("HEADLESS-1"), RGB(hex: 0x336699), "the other panel plays on")
        XCTAssertEqual(try overrides(), ["HEADLESS-1": false, "HEADLESS-2": true])

        let mistakes: [([String], Int32, String)] = [
            (["override", "--text", "X", "--for", "20"], 64, "--for '20' is not a duration"),
            (["override", "--text", "X", "--for", "1m1h"], 64, "such as 90s, 20m, 1h or 1h30m"),
            (["override", "nosuch"], 65, "no playlist 'nosuch'"),
            (["override", folder + "/missing.png"], 65, "no such file: \(folder)/missing.png"),
            (["override", "--text", "X", "--output", "DP-9"], 65, "no panel matches 'DP-9'"),
            (["override", "s", "--text", "X"], 64, "not both"),
            (["next", "--for", "1m"], 64, "--for belongs to override only"),
        ]
        for (words, status, reason) in mistakes {
            let result = try ctl(words)
            XCTAssertEqual(result.status, status, "\(words): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(reason), "\(words): \(result.stderr)")
        }
        XCTAssertEqual(try overrides(), ["HEADLESS-1": false, "HEADLESS-2": true], "nothing changed")
        XCTAssertEqual(overrideEvents(p, "start").count, 1)
        // A reload keeps it.
        XCTAssertEqual(try ctl(["reload"]).status, 0)
        XCTAssertNotNil(p.waitForEvent { $0.event == "reload" })
        XCTAssertEqual(try overrides(), ["HEADLESS-1": false, "HEADLESS-2": true], "kept over a reload")

        let cleared = try ctl(["override", "--clear", "--output", "HEADLESS-2"])
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertTrue(waitUntil(timeout: 5) { pixel("HEADLESS-2") == RGB(hex: 0x336699) }, "back to the schedule")
        XCTAssertEqual(try overrides(), ["HEADLESS-1": false, "HEADLESS-2": false])

        // One on every panel, lifted from one of them.
        XCTAssertEqual(try ctl(["override", "--text", "EVERYWHERE"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 5) { pixel("HEADLESS-1") == Self.overrideRed }, "every panel")
        XCTAssertEqual(try ctl(["override", "--clear", "--output", "HEADLESS-1"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 5) { pixel("HEADLESS-1") == RGB(hex: 0x336699) }, "lifted there")
        XCTAssertEqual(pixel("HEADLESS-2"), Self.overrideRed, "and kept on the other")
        XCTAssertEqual(try overrides(), ["HEADLESS-1": false, "HEADLESS-2": true])
        XCTAssertEqual(try ctl(["override", "--clear"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 5) { pixel("HEADLESS-2") == RGB(hex: 0x336699) }, "all cleared")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: overrideStateFile(state: folder + "/state", playlist: playlist)))
        assertCleanStop(p)

        let nobody = try ctl(["override", "--text", "X"])
        XCTAssertEqual(nobody.status, 69)
        XCTAssertTrue(nobody.stderr.contains("no screenplay play answers on \(socket)"), nobody.stderr)
    }
}

extension PlayTests {
    /// A video override that replaces a text one: the text stays on until
    /// the video's first frame is decoded (the schedule never shows in
    /// between), the video loops while it stands, and --clear brings the
    /// schedule back; every frame is one of those, never black.
    func testAVideoOverrideTakesOverFromATextWithoutTheScheduleBetween() throws {
        let (rig, folder, playlist, socket) = try probedPanel()
        let clip = try TestMedia.colourSequence(in: folder, name: "evacuate")
        var environment = env(rig)
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        environment["XDG_STATE_HOME"] = folder + "/state"
        let p = try playWithTextOverride(playlist, socket: socket, environment: environment, for: nil)
        func ctl(_ words: [String]) throws {
            let result = try CLI.run(["ctl", "override"] + words + ["--socket", socket], environment: environment)
            XCTAssertEqual(result.status, 0, "\(words): \(result.stderr)")
        }
        try ctl([clip])
        // Red, lime, blue, and red again: it loops.
        func colour(_ probe: StatsEvent) -> String {
            let hex = Int(probe.raw["rgb"] as? String ?? "", radix: 16) ?? 0
            let (r, g, b) = (hex >> 16 & 0xff, hex >> 8 & 0xff, hex & 0xff)
            if hex == 0xb00000 || hex == 0x336699 { return String(format: "%06x", hex) }
            if r > 200 && g < 60 && b < 60 { return "red" }
            if g > 200 && r < 60 && b < 60 { return "lime" }
            if b > 200 && r < 60 && g < 60 { return "blue" }
            return String(format: "%06x", hex)
        }
        func sequence() -> [String] {
            p.statsEvents.filter { $0.event == "probe" }.map(colour).reduce(into: []) { runs, colour in
                if runs.last != colour { runs.append(colour) }
            }
        }
        XCTAssertTrue(
            waitUntil(timeout: 15) { sequence().suffix(4) == ["red", "lime", "blue", "red"] }, "\(sequence())")
        try ctl(["--clear"])
        XCTAssertTrue(waitUntil(timeout: 5) { sequence().last == "336699" }, "\(sequence())")
        assertCleanStop(p)
        let runs = sequence()
        XCTAssertEqual(Array(runs.prefix(3)), ["336699", "b00000", "red"], "the text until the video's first frame")
        XCTAssertEqual(runs.last, "336699")
        XCTAssertEqual(
            Set(runs.dropFirst().dropLast()), ["b00000", "red", "lime", "blue"], "nothing else in between: \(runs)")
    }

    /// A wall clock stepped past an override's end (NTP at boot, `date
    /// -s`) ends it at once, as it moves the schedule: the clock watch's
    /// tick finds it expired.
    func testAStepOfTheWallClockPastItsEndEndsAnOverride() throws {
        let (rig, folder, playlist, socket) = try probedPanel()
        var environment = try fakeClockEnvironment(rig, folder: folder, offset: 0)
        environment["SCREENPLAY_BUILTIN"] = nil
        environment["XDG_STATE_HOME"] = folder + "/state"
        let p = try playWithTextOverride(playlist, socket: socket, environment: environment, for: "1h")
        try setClock(folder: folder, offset: 7200)
        let expired = p.waitForEvent(timeout: 10) { $0.event == "override" && $0.raw["action"] as? String == "expired" }
        XCTAssertNotNil(expired, p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "clock-step" }, "the step was seen: \(p.stderr)")
        let endNs = expired?.int("ns") ?? .max
        XCTAssertTrue(
            waitUntil(timeout: 5) { p.statsEvents.contains { $0.event == "probe" && $0.int("ns") > endNs } }, p.stderr)
        assertCleanStop(p)
        XCTAssertEqual(
            p.statsEvents.first { $0.event == "probe" && $0.int("ns") > endNs }?.raw["rgb"] as? String, "336699")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: overrideStateFile(state: folder + "/state", playlist: playlist)))
    }
}
