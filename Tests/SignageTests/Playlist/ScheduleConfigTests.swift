import Foundation
import TestHarness
import XCTest

@testable import Signage

/// A panel entry's `"schedule"` and the file's `"timezone"` are read as
/// strictly as the rest of the playlist file: each mistake exits 65 naming
/// the JSON path, the reason and the fix.
final class ScheduleConfigTests: ScreenplayTestCase {
    func parse(_ json: String) throws(PlaylistError) -> SignageConfig { try PlaylistSchema.parse(json) }

    func withPanel(_ panel: String, top: String = "") -> String {
        #"{"playlists": {"day": [{"color": "ff0000"}], "night": [{"color": "0000ff"}]}, "panels": [{"match": "*", "playlist": "day", \#(panel)}]\#(top)}"#
    }

    func assertRefused(_ json: String, mentions: [String], line: UInt = #line) {
        do {
            _ = try parse(json)
            XCTFail("accepted: \(json)", line: line)
        } catch {
            XCTAssertEqual(error.code, .dataError, line: line)
            XCTAssertTrue(error.description.hasPrefix("/srv/p.json: "), error.description, line: line)
            for word in mentions {
                XCTAssertTrue(error.description.contains(word), "\(error.description) lacks \(word)", line: line)
            }
        }
    }

    func testAScheduleIsRead() throws {
        let config = try parse(
            withPanel(
                #""schedule": [{"playlist": "night", "days": ["Mon", "fri-sun", "wednesday"], "from": "22:00", "to": "06:00", "dates": {"from": "2026-12-01", "to": "2026-12-24"}, "priority": 10}, {"playlist": "day", "from": "12:00:30", "to": "00:00"}]"#,
                top: #", "timezone": "America/New_York""#))
        XCTAssertEqual(config.timeZone.identifier, "America/New_York")
        let entries = config.panels[0].schedule
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries[0].days, [1, 3, 5, 6, 7])
        XCTAssertEqual(entries[0].from, 22 * 3600)
        XCTAssertEqual(entries[0].to, 6 * 3600)
        XCTAssertTrue(entries[0].crossesMidnight)
        XCTAssertEqual(entries[0].firstDay, LocalCalendar.parseDate("2026-12-01"))
        XCTAssertEqual(entries[0].lastDay, LocalCalendar.parseDate("2026-12-24"))
        XCTAssertEqual(entries[0].priority, 10)
        XCTAssertEqual(entries[1].from, 12 * 3600 + 30)
        XCTAssertEqual(entries[1].to, 86400, "00:00 as an end is midnight")
        XCTAssertEqual(entries[1].content, .playlist("day"))
        let assigned = try XCTUnwrap(
            config.assignment(name: "HDMI-A-1", description: "", make: "", model: "", serial: nil))
        let schedule = try XCTUnwrap(assigned.schedule)
        XCTAssertEqual(schedule.path, "panels[0]")
        XCTAssertEqual(schedule.timetable.fallback, .playlist("day"))
        XCTAssertEqual(Set(schedule.playlists.keys), ["day", "night"])
        XCTAssertEqual(schedule.name(of: .init(entry: 1, content: .playlist("day"))), "panels[0].schedule[1]")
        XCTAssertEqual(schedule.name(of: .init(entry: nil, content: .playlist("day"))), "panels[0].playlist")
        // Without a schedule, none; without "timezone", the system's (TZ).
        let plain = try parse(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"match": "*", "playlist": "a"}]}"#)
        XCTAssertNil(plain.assignment(name: "X", description: "", make: "", model: "", serial: nil)?.schedule)
        XCTAssertEqual(plain.timeZone, TimeZone.current)
    }

    /// The signage guide's schedule example (docs/signage.md, "Schedules") is a file `play`
    /// accepts, and does what the guide says of it.
    func testTheSignageGuidesScheduleExampleIsAccepted() throws {
        let guide = try String(
            contentsOf: PlaylistSchema.root.appendingPathComponent("docs/signage.md"), encoding: .utf8)
        let blocks = guide.components(separatedBy: "```json\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        let example = try XCTUnwrap(
            blocks.first { $0.contains("\"schedule\"") }, "docs/signage.md has no schedule example")
        let config = try parse(example)
        let schedule = try XCTUnwrap(
            config.assignment(name: "HDMI-A-1", description: "", make: "", model: "", serial: nil)?.schedule)
        let timetable = schedule.timetable
        // 2026-03-29, a Sunday, is the night Berlin's clocks spring forward.
        let sundayEvening = 1_774_800_000.0  // 2026-03-29T16:00:00Z, 18:00 CEST
        let next = try XCTUnwrap(timetable.nextChange(after: sundayEvening))
        XCTAssertEqual(timetable.localISO8601(next.at), "2026-03-29T22:00:00+02:00")
        XCTAssertEqual(schedule.name(of: next.active), "panels[0].schedule[1]")
        let morning = try XCTUnwrap(timetable.nextChange(after: next.at))
        XCTAssertEqual(timetable.localISO8601(morning.at), "2026-03-30T06:30:00+02:00", "the line ctl status shows")
        XCTAssertEqual(schedule.name(of: morning.active), "panels[0].schedule[0]")
        XCTAssertTrue(guide.contains("until 2026-03-30T06:30:00+02:00, then panels[0].schedule[0] (breakfast)"))
        // Advent evenings outrank the night.
        let advent = 1_796_160_600.0  // 2026-12-01T21:30:00Z, 22:30 CET
        XCTAssertEqual(timetable.active(at: advent).content, .playlist("advent"))
    }

    func testEveryScheduleMistakeNamesItsPath() {
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "days": ["mon", "funday"]}]"#),
            mentions: ["panels[0].schedule[0].days[1]", "unknown day \"funday\"", "mon, tue"])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "days": []}]"#),
            mentions: ["panels[0].schedule[0].days", "leave \"days\" out"])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "from": "25:00"}]"#),
            mentions: ["panels[0].schedule[0].from", "\"25:00\"", "HH:MM"])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "to": "7pm"}]"#),
            mentions: ["panels[0].schedule[0].to", "\"7pm\""])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "late"}]"#),
            mentions: ["panels[0].schedule[0].playlist", "no playlist named \"late\"", "day, night"])
        assertRefused(
            withPanel(#""schedule": [{"from": "22:00"}]"#), mentions: ["panels[0].schedule[0]", "missing \"playlist\""])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "until": "06:00"}]"#),
            mentions: ["panels[0].schedule[0].until", "unknown key", "days, from, layout, playlist, priority, to"])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "dates": {"from": "2026-12-24", "to": "2026-12-01"}}]"#),
            mentions: ["panels[0].schedule[0].dates", "after \"to\""])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "dates": {"from": "2026-02-30"}}]"#),
            mentions: ["panels[0].schedule[0].dates.from", "YYYY-MM-DD"])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "dates": {"start": "2026-02-01"}}]"#),
            mentions: ["panels[0].schedule[0].dates.start", "unknown key"])
        assertRefused(
            withPanel(#""schedule": [{"playlist": "night", "priority": 1.5}]"#),
            mentions: ["panels[0].schedule[0].priority", "whole number"])
        assertRefused(withPanel(#""schedule": {"playlist": "night"}"#), mentions: ["panels[0].schedule", "a list"])
        assertRefused(
            withPanel(#""schedule": []"#, top: #", "timezone": "Mars/Olympus_Mons""#),
            mentions: ["timezone", "unknown time zone \"Mars/Olympus_Mons\"", "Europe/Berlin"])
        assertRefused(withPanel(#""schedule": []"#, top: #", "timezone": 1"#), mentions: ["timezone", "IANA"])
    }
}
