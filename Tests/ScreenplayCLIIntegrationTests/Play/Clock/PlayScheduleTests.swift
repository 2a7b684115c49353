import Foundation
import TestSupport
import XCTest

/// Schedules under a running `play`: the switch lands on the boundary
/// second with its crossfade, `ctl status` names the entry playing and the
/// next change, and on the night Europe/Berlin springs forward an entry
/// that runs past midnight ends when the skipped hour does, through a
/// stepped clock too.
extension PlayTests {
    /// The status reply's schedule of the one panel on `output`.
    func scheduleStatus(_ environment: [String: String], output: String) throws -> [String: Any] {
        let result = try CLI.run(["ctl", "status", "--json"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let reply = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let panels = reply["panels"] as? [[String: Any]] ?? []
        let panel = try XCTUnwrap(panels.first { $0["output"] as? String == output }, result.stdout)
        return try XCTUnwrap(panel["schedule"] as? [String: Any], result.stdout)
    }

    /// A schedule mistake stops `play` with 65 before it connects, naming
    /// the file, the JSON path and what to write instead.
    func testScheduleMistakesExitSixtyFiveBeforeConnecting() throws {
        let folder = try mediaFolder()
        let environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": folder]
        for (schedule, top, said) in [
            (#"{"playlist": "s", "days": ["mon", "moon"]}"#, "", #"panels[0].schedule[0].days[1]: unknown day "moon""#),
            (#"{"playlist": "s", "from": "22:00", "to": "6:00"}"#, "", #"panels[0].schedule[0].to: expected a time"#),
            (#"{"playlist": "t"}"#, "", #"panels[0].schedule[0].playlist: no playlist named "t""#),
            (
                #"{"playlist": "s"}"#, #", "timezone": "Europe/Berlinn""#,
                #"timezone: unknown time zone "Europe/Berlinn""#
            ),
            (
                #"{"playlist": "s"}"#, #", "activate_at": "2026-12-24 18:00""#,
                #"activate_at: expected a time with its zone, e.g. "2026-12-24T18:00:00Z""#
            ),
        ] {
            let bad = try writePlaylist(
                folder,
                #"{"playlists": {"s": [{"color": "ff0000"}]}, "panels": [{"match": "*", "playlist": "s", "schedule": [\#(schedule)]}]\#(top)}"#
            )
            let result = try CLI.run(["play", bad], environment: environment)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("\(bad): \(said)"), result.stderr)
        }
    }

    /// `play` of "day" (red) on HEADLESS-2 and, on Saturdays from 22:00 to
    /// `until`, "night" (blue), with `TZ=Europe/Berlin`, every frame read
    /// back, and play's wall clock at `clockAt` now (the offset returned).
    func playSaturdayNight(until: String, more: String, clockAt: Double) throws -> (
        SwayRig, RunningProcess, String, Int
    ) {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"day": [{"color": "ff0000"}], "night": [{"color": "0000ff"}]},
             "panels": [{"match": "HEADLESS-2", "playlist": "day",
                         "schedule": [{"playlist": "night", "days": ["sat"], "from": "22:00", "to": "\(until)"}]}],
             \(more)}
            """)
        let offset = Int((clockAt - Date().timeIntervalSince1970).rounded())
        var environment = try fakeClockEnvironment(rig, folder: folder, offset: offset)
        environment["TZ"] = "Europe/Berlin"
        return (rig, try CLI.start(["play", playlist, "--stats", "-"], environment: environment), folder, offset)
    }

    /// `panels[0].schedule[0]` brings `playlist` (or a layout) within a
    /// quarter of a second of `start`, which was still ahead as `play` started.
    func assertScheduleSwitches(_ p: RunningProcess, to playlist: String, at start: Double, line: UInt = #line) throws {
        XCTAssertLessThan(
            Date().timeIntervalSince1970, start - 1, "started too slowly to see the change coming", line: line)
        let into = try XCTUnwrap(
            p.waitForEvent(timeout: 20) { $0.event == "schedule" && $0.raw["playlist"] as? String == playlist },
            p.stderr, line: line)
        XCTAssertEqual(into.raw["entry"] as? String, "panels[0].schedule[0]", line: line)
        let switched = try XCTUnwrap(wallTime(into), line: line)
        XCTAssertGreaterThanOrEqual(switched, start, line: line)
        XCTAssertLessThan(switched, start + 0.25, "the switch came late: \(into.raw)", line: line)
    }

    func utcClock(_ t: Double, format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: Date(timeIntervalSince1970: t))
    }

    /// As docs/signage.md tells a user: a playlist file whose one panel entry
    /// (`"match": "*"`) plays "night" for six seconds a few seconds from
    /// now, `screenplay play FILE`, `screenplay ctl status`. The switch in
    /// and out is logged within a quarter of a second of its boundary, the
    /// new playlist is fully on screen within the boundary second (after
    /// its half-second crossfade), grim sees it, and `ctl status` names the
    /// entry playing and the next change before and after.
    func testScheduleSwitchesAtTheBoundarySecond() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let start = (Date().timeIntervalSince1970 + 9).rounded(.down)
        let end = start + 6
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"day": [{"color": "ff0000"}], "night": [{"color": "0000ff"}, {"color": "00ff00"}]},
             "panels": [{"match": "*", "playlist": "day",
                         "schedule": [{"playlist": "night", "from": "\(utcClock(start, format: "HH:mm:ss"))",
                                       "to": "\(utcClock(end, format: "HH:mm:ss"))"}]}],
             "timezone": "UTC", "transition": {"seconds": 0.5}}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.raw["playlist"] as? String == "day" }, p.stderr)
        let iso = { (t: Double) in self.utcClock(t, format: "yyyy-MM-dd'T'HH:mm:ss") + "+00:00" }
        let before = try scheduleStatus(env(rig), output: "HEADLESS-1")
        XCTAssertEqual(before["entry"] as? String, "panels[0].playlist", "\(before)")
        XCTAssertEqual(before["next_change"] as? String, iso(start), "\(before)")
        XCTAssertEqual(before["next_entry"] as? String, "panels[0].schedule[0]")
        XCTAssertEqual(before["next_playlist"] as? String, "night")
        // Foundation names UTC by its older name.
        XCTAssertTrue(["UTC", "GMT"].contains(before["time_zone"] as? String ?? ""), "\(before)")
        try assertScheduleSwitches(p, to: "night", at: start)
        let shown = try XCTUnwrap(
            p.waitForEvent { $0.event == "item" && $0.raw["playlist"] as? String == "night" }, p.stderr)
        XCTAssertEqual(shown.int("index"), 0, "a schedule's playlist starts at its first item")
        let visible = try XCTUnwrap(wallTime(shown))
        XCTAssertGreaterThanOrEqual(visible, start + 0.5, "the crossfade was skipped")
        XCTAssertLessThan(visible, start + 1, "fully on screen after the boundary second")
        let grimSees = { (hex: UInt32) in
            waitUntil(timeout: 3) { (try? rig.capture(output: "HEADLESS-1").pixel(x: 160, y: 120)) == RGB(hex: hex) }
        }
        XCTAssertTrue(grimSees(0x0000ff), "grim does not see the night playlist")
        let during = try scheduleStatus(env(rig), output: "HEADLESS-1")
        XCTAssertEqual(during["entry"] as? String, "panels[0].schedule[0]", "\(during)")
        XCTAssertEqual(during["playlist"] as? String, "night")
        XCTAssertEqual(during["next_change"] as? String, iso(end), "\(during)")
        XCTAssertEqual(during["next_playlist"] as? String, "day")
        let text = try CLI.run(["ctl", "status"], environment: env(rig)).stdout
        XCTAssertTrue(
            text.contains("schedule panels[0].schedule[0] (night) until \(iso(end)), then panels[0].playlist (day)"),
            text)

        let back = try XCTUnwrap(
            p.waitForEvent(timeout: 20) { $0.event == "schedule" && $0.raw["playlist"] as? String == "day" }, p.stderr)
        let returned = try XCTUnwrap(wallTime(back))
        XCTAssertGreaterThanOrEqual(returned, end)
        XCTAssertLessThan(returned, end + 0.25, "the switch back came late: \(back.raw)")
        XCTAssertTrue(grimSees(0xff0000), "grim does not see the day playlist again")
        let after = try scheduleStatus(env(rig), output: "HEADLESS-1")
        XCTAssertEqual(after["entry"] as? String, "panels[0].playlist", "\(after)")
        XCTAssertEqual(after["next_change"] as? String, iso(start + 86400), "tomorrow at the same time: \(after)")
        // Six seconds of night: its second item (at 10 s) never came.
        XCTAssertEqual(
            items(p, "HEADLESS-1").filter { $0.raw["playlist"] as? String == "night" }.map { $0.int("index") }, [0])
        XCTAssertTrue(p.stderr.contains("HEADLESS-1: the schedule switches to panels[0].schedule[0]"), p.stderr)

        // A schedule mistake saved over the file is refused, naming its
        // JSON path, and the schedule read before plays on.
        let good = try String(contentsOfFile: playlist, encoding: .utf8)
        try good.replacingOccurrences(of: #""playlist": "night","#, with: #""playlist": "night", "days": ["someday"],"#)
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let refused = try XCTUnwrap(
            p.waitForEvent { $0.event == "reload" && ($0.raw["ok"] as? Bool) == false }, p.stderr)
        XCTAssertTrue(
            (refused.raw["error"] as? String ?? "").contains("panels[0].schedule[0].days[0]: unknown day \"someday\""),
            "\(refused.raw)")
        XCTAssertTrue(p.isRunning, p.stderr)
        let kept = try scheduleStatus(env(rig), output: "HEADLESS-1")
        XCTAssertEqual(kept["next_change"] as? String, iso(start + 86400), "the old schedule plays on: \(kept)")
        assertCleanStop(p)
    }

    /// Europe/Berlin (from `TZ`, the file names no zone) springs forward at
    /// 01:00 UTC on 2026-03-29: 02:00 CET becomes 03:00 CEST. Saturday's
    /// "night" from 22:00 to 02:30 ends at 03:00 CEST, the first instant
    /// past 02:30, with its crossfade to "day" (every frame read back on
    /// the blend, never black). The wall clock stepped back eight seconds
    /// then brings "night" back, and the change comes again on time.
    func testScheduleCrossingMidnightEndsWhenTheClocksSpringForward() throws {
        let change = 1_774_746_000.0  // 2026-03-29T01:00:00Z
        var (rig, p, folder, offset) = try playSaturdayNight(
            until: "02:30", more: #""transition": {"seconds": 0.25}"#, clockAt: change - 10)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.raw["playlist"] as? String == "night" }, p.stderr)
        let before = try scheduleStatus(env(rig, builtin: "HEADLESS-1"), output: "HEADLESS-2")
        XCTAssertEqual(before["entry"] as? String, "panels[0].schedule[0]", "\(before)")
        XCTAssertEqual(before["next_change"] as? String, "2026-03-29T03:00:00+02:00", "\(before)")
        XCTAssertEqual(before["next_playlist"] as? String, "day")
        XCTAssertEqual(before["time_zone"] as? String, "Europe/Berlin")

        func switches(to name: String) -> [Double] {
            p.statsEvents.filter { $0.event == "schedule" && $0.raw["playlist"] as? String == name }.compactMap(
                wallTime)
        }
        XCTAssertTrue(waitUntil(timeout: 20) { switches(to: "day").count == 1 }, p.stderr)
        let first = try XCTUnwrap(switches(to: "day").first)
        XCTAssertGreaterThanOrEqual(first, change)
        XCTAssertLessThan(first, change + 0.25, "the change at 03:00 CEST came late")
        let day = try XCTUnwrap(
            p.waitForEvent { $0.event == "item" && $0.raw["playlist"] as? String == "day" }, p.stderr)
        XCTAssertLessThan(try XCTUnwrap(wallTime(day)), change + 1)
        let after = try scheduleStatus(env(rig, builtin: "HEADLESS-1"), output: "HEADLESS-2")
        XCTAssertEqual(after["entry"] as? String, "panels[0].playlist", "\(after)")
        XCTAssertEqual(after["next_change"] as? String, "2026-04-04T22:00:00+02:00", "next Saturday, summer time")

        // Back by eight seconds: 01:59:5x CET again.
        offset -= 8
        try setClock(folder: folder, offset: offset)
        XCTAssertTrue(waitUntil(timeout: 10) { switches(to: "night").count == 1 }, "the step back: \(p.stderr)")
        XCTAssertTrue(waitUntil(timeout: 20) { switches(to: "day").count == 2 }, p.stderr)
        let again = switches(to: "day")[1]
        XCTAssertGreaterThanOrEqual(again, change)
        XCTAssertLessThan(again, change + 0.25, "the change after the step came late")
        // Counted, not told apart by their times: both came a fade after the
        // same wall-clock second, and to the millisecond they can be equal.
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                p.statsEvents.filter { $0.event == "item" && $0.raw["playlist"] as? String == "day" }.count == 2
            }, "the second change shows \"day\" again: \(p.stderr)")
        assertCleanStop(p)
        XCTAssertEqual(p.statsEvents.filter { $0.event == "clock-step" }.count, 1, p.stderr)

        // Every frame drawn: blue, red or a blend of the two; never black.
        let frames = p.statsEvents.filter { $0.event == "probe" && $0.output == "HEADLESS-2" }
            .map { Int($0.raw["rgb"] as? String ?? "", radix: 16) ?? 0 }
        let drawn = frames.drop { $0 == 0x404040 }
        var blended = 0
        for hex in drawn {
            let (r, g, b) = (hex >> 16 & 0xff, hex >> 8 & 0xff, hex & 0xff)
            XCTAssertLessThanOrEqual(g, 2, "frame \(String(format: "%06x", hex)) is off the blend")
            XCTAssertEqual(r + b, 255, accuracy: 4, "frame \(String(format: "%06x", hex)) is off the blend")
            if r > 8 && b > 8 { blended += 1 }
        }
        XCTAssertGreaterThan(blended, 4, "three crossfades of a quarter second, one frame per refresh")
    }

    /// America/New_York (from the file's "timezone", TZ says otherwise)
    /// falls back at 06:00 UTC on 2026-11-01: 02:00 EDT becomes 01:00 EST
    /// and 01:00 to 02:00 shows twice. Saturday's "night" from 22:00 to
    /// 01:30 ended at the first 01:30 (05:30 UTC); when the clock shows
    /// 01:00 again nothing switches, and `ctl status` says the next change
    /// is next Saturday's 22:00, in standard time.
    func testScheduleDoesNotComeBackInTheRepeatedHour() throws {
        let fallBack = 1_793_512_800.0  // 2026-11-01T06:00:00Z
        let (rig, p, _, offset) = try playSaturdayNight(
            until: "01:30", more: #""timezone": "America/New_York""#, clockAt: fallBack - 6)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.raw["playlist"] as? String == "day" }, p.stderr)
        let before = try scheduleStatus(env(rig, builtin: "HEADLESS-1"), output: "HEADLESS-2")
        XCTAssertEqual(before["entry"] as? String, "panels[0].playlist", "\(before)")
        XCTAssertEqual(before["time_zone"] as? String, "America/New_York")
        XCTAssertEqual(before["next_change"] as? String, "2026-11-07T22:00:00-05:00", "\(before)")
        // Past the fall-back instant by a few seconds, as play's clock reads.
        XCTAssertLessThan(Date().timeIntervalSince1970 + Double(offset), fallBack, "started too slowly")
        XCTAssertTrue(waitUntil(timeout: 20) { Date().timeIntervalSince1970 + Double(offset) > fallBack + 4 })
        XCTAssertTrue(p.isRunning, p.stderr)
        let after = try scheduleStatus(env(rig, builtin: "HEADLESS-1"), output: "HEADLESS-2")
        XCTAssertEqual(
            after["entry"] as? String, "panels[0].playlist", "night came back in the repeated hour: \(after)")
        XCTAssertTrue(
            waitUntil(timeout: 3) {
                (try? rig.capture(output: "HEADLESS-2").pixel(x: 160, y: 120)) == RGB(hex: 0xff0000)
            },
            "grim does not see the day playlist")
        assertCleanStop(p)
        XCTAssertEqual(p.statsEvents.filter { $0.event == "schedule" }.count, 0, p.stderr)
        XCTAssertEqual(Set(items(p, "HEADLESS-2").map { $0.raw["playlist"] as? String ?? "" }), ["day"])
    }
}
