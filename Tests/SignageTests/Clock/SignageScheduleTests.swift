import Foundation
import TestHarness
import XCTest

@testable import Signage

/// Which playlist a schedule plays at an instant, and when that changes:
/// the nights the clocks change in Europe/Berlin and America/New_York
/// (with an entry that runs past midnight), date ranges, priorities, and a
/// wall clock stepped back and forward.
final class SignageScheduleTests: ScreenplayTestCase {
    func utc(_ text: String) -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)!.timeIntervalSince1970
    }

    func zone(_ name: String) throws -> TimeZone { try XCTUnwrap(TimeZone(identifier: name)) }

    func entry(
        _ name: String, days: Set<Int> = [], from: String = "00:00", to: String = "24:00",
        dates: (String, String)? = nil,
        priority: Int = 0
    ) -> ScheduleEntry {
        let end = LocalCalendar.parseTime(to, allowEndOfDay: true)!
        return ScheduleEntry(
            content: .playlist(name), days: days, from: LocalCalendar.parseTime(from, allowEndOfDay: false)!,
            to: end == 0 ? 86400 : end, firstDay: dates.flatMap { LocalCalendar.parseDate($0.0) },
            lastDay: dates.flatMap { LocalCalendar.parseDate($0.1) }, priority: priority)
    }

    func playing(_ schedule: SignageSchedule, _ t: String) -> String { schedule.active(at: utc(t)).content.name }

    // MARK: daylight saving

    /// Europe/Berlin springs forward at 01:00 UTC on 2026-03-29: 02:00 CET
    /// becomes 03:00 CEST. Saturday's 22:00 to 02:30 never reaches 02:30;
    /// it ends when the skipped hour does, and the next change says so.
    func testBerlinSpringForwardNightCrossingMidnight() throws {
        let schedule = SignageSchedule(
            entries: [entry("night", days: [6], from: "22:00", to: "02:30")], fallback: .playlist("day"),
            timeZone: try zone("Europe/Berlin"))
        XCTAssertEqual(playing(schedule, "2026-03-28T20:59:59Z"), "day")
        XCTAssertEqual(playing(schedule, "2026-03-28T21:00:00Z"), "night", "22:00 CET")
        XCTAssertEqual(playing(schedule, "2026-03-29T00:59:59Z"), "night", "01:59:59 CET")
        XCTAssertEqual(playing(schedule, "2026-03-29T01:00:00Z"), "day", "03:00 CEST: 02:30 was skipped")
        let start = try XCTUnwrap(schedule.nextChange(after: utc("2026-03-28T12:00:00Z")))
        XCTAssertEqual(start.at, utc("2026-03-28T21:00:00Z"))
        XCTAssertEqual(start.active, SignageSchedule.Active(entry: 0, content: .playlist("night")))
        let end = try XCTUnwrap(schedule.nextChange(after: utc("2026-03-28T23:00:00Z")))
        XCTAssertEqual(end.at, utc("2026-03-29T01:00:00Z"))
        XCTAssertEqual(end.active, SignageSchedule.Active(entry: nil, content: .playlist("day")))
        XCTAssertEqual(schedule.localISO8601(end.at), "2026-03-29T03:00:00+02:00")
        XCTAssertEqual(schedule.runStart(at: utc("2026-03-29T00:30:00Z")), utc("2026-03-28T21:00:00Z"))
        XCTAssertEqual(schedule.runStart(at: utc("2026-03-29T05:00:00Z")), utc("2026-03-29T01:00:00Z"))
        // The next Saturday is summer time: 22:00 CEST is 20:00 UTC.
        XCTAssertEqual(
            schedule.nextChange(after: utc("2026-03-29T01:00:00Z"))?.at, utc("2026-04-04T20:00:00Z"))
    }

    /// Europe/Berlin falls back at 01:00 UTC on 2026-10-25: 03:00 CEST
    /// becomes 02:00 CET and 02:00 to 03:00 shows twice. Saturday's 22:00
    /// to 02:30 ends at the first 02:30 and does not come back when the
    /// clock shows 02:00 again; an entry from 02:30 starts once.
    func testBerlinFallBackNightEndsAtTheFirstShowing() throws {
        let schedule = SignageSchedule(
            entries: [
                entry("night", days: [6], from: "22:00", to: "02:30"),
                entry("early", days: [7], from: "02:30", to: "04:00"),
            ],
            fallback: .playlist("day"), timeZone: try zone("Europe/Berlin"))
        XCTAssertEqual(playing(schedule, "2026-10-24T20:00:00Z"), "night", "22:00 CEST")
        XCTAssertEqual(playing(schedule, "2026-10-25T00:29:59Z"), "night", "02:29:59 CEST")
        XCTAssertEqual(playing(schedule, "2026-10-25T00:30:00Z"), "early", "02:30 CEST, the first")
        XCTAssertEqual(playing(schedule, "2026-10-25T01:00:00Z"), "early", "02:00 CET, the hour again")
        XCTAssertEqual(playing(schedule, "2026-10-25T01:15:00Z"), "early", "02:15 CET")
        XCTAssertEqual(playing(schedule, "2026-10-25T02:59:59Z"), "early", "03:59:59 CET")
        XCTAssertEqual(playing(schedule, "2026-10-25T03:00:00Z"), "day", "04:00 CET")
        XCTAssertEqual(schedule.nextChange(after: utc("2026-10-25T00:30:00Z"))?.at, utc("2026-10-25T03:00:00Z"))
        XCTAssertEqual(schedule.localISO8601(utc("2026-10-25T03:00:00Z")), "2026-10-25T04:00:00+01:00")
    }

    /// America/New_York: 2026-03-08 02:00 EST becomes 03:00 EDT (07:00
    /// UTC); 2026-11-01 02:00 EDT becomes 01:00 EST (06:00 UTC). An entry
    /// from 01:30 to 02:30 lasts half an hour on the first night and two
    /// hours on the second; one inside the skipped hour does not happen.
    func testNewYorkBothNights() throws {
        let schedule = SignageSchedule(
            entries: [
                entry("late", from: "01:30", to: "02:30"),
                entry("gap", dates: ("2026-03-08", "2026-03-08"), priority: -1),
            ],
            fallback: .playlist("day"), timeZone: try zone("America/New_York"))
        let skipped = SignageSchedule(
            entries: [entry("never", dates: ("2026-03-08", "2026-03-08"))].map {
                var e = $0
                e.from = LocalCalendar.parseTime("02:10", allowEndOfDay: false)!
                e.to = LocalCalendar.parseTime("02:50", allowEndOfDay: false)!
                return e
            }, fallback: .playlist("day"), timeZone: try zone("America/New_York"))
        XCTAssertEqual(playing(schedule, "2026-03-08T06:30:00Z"), "late", "01:30 EST")
        XCTAssertEqual(playing(schedule, "2026-03-08T06:59:59Z"), "late")
        XCTAssertEqual(playing(schedule, "2026-03-08T07:00:00Z"), "gap", "03:00 EDT: the low-priority all-day entry")
        XCTAssertEqual(schedule.nextChange(after: utc("2026-03-08T06:30:00Z"))?.at, utc("2026-03-08T07:00:00Z"))
        XCTAssertEqual(playing(skipped, "2026-03-08T07:00:00Z"), "day")
        XCTAssertEqual(skipped.nextChange(after: utc("2026-03-07T12:00:00Z"))?.at, nil, "02:10 to 02:50 never shows")

        XCTAssertEqual(playing(schedule, "2026-11-01T05:29:59Z"), "day")
        XCTAssertEqual(playing(schedule, "2026-11-01T05:30:00Z"), "late", "01:30 EDT")
        XCTAssertEqual(playing(schedule, "2026-11-01T06:30:00Z"), "late", "01:30 EST, the second time")
        XCTAssertEqual(playing(schedule, "2026-11-01T07:29:59Z"), "late")
        XCTAssertEqual(playing(schedule, "2026-11-01T07:30:00Z"), "day", "02:30 EST")
        XCTAssertEqual(schedule.nextChange(after: utc("2026-11-01T05:30:00Z"))?.at, utc("2026-11-01T07:30:00Z"))
        XCTAssertEqual(schedule.localISO8601(utc("2026-11-01T07:30:00Z")), "2026-11-01T02:30:00-05:00")
    }

    // MARK: dates, days, priority

    /// A date range names the days an occurrence starts: the night of the
    /// 24th runs into the 25th; the morning of the 1st belongs to the
    /// 30th's night, which is outside. A change weeks ahead is found.
    func testDateRangeAndANightPastItsLastDay() throws {
        let schedule = SignageSchedule(
            entries: [entry("advent", from: "22:00", to: "06:00", dates: ("2026-12-01", "2026-12-24"))],
            fallback: .playlist("day"), timeZone: try zone("UTC"))
        XCTAssertEqual(playing(schedule, "2026-12-01T05:00:00Z"), "day")
        XCTAssertEqual(playing(schedule, "2026-12-01T22:00:00Z"), "advent")
        XCTAssertEqual(playing(schedule, "2026-12-24T23:00:00Z"), "advent")
        XCTAssertEqual(playing(schedule, "2026-12-25T05:59:59Z"), "advent")
        XCTAssertEqual(playing(schedule, "2026-12-25T06:00:00Z"), "day")
        XCTAssertEqual(playing(schedule, "2026-12-25T22:00:00Z"), "day")
        XCTAssertEqual(schedule.nextChange(after: utc("2026-06-01T00:00:00Z"))?.at, utc("2026-12-01T22:00:00Z"))
        XCTAssertNil(schedule.nextChange(after: utc("2026-12-25T06:00:00Z")), "nothing after the range")
    }

    /// The highest priority wins; among equals, the first listed.
    func testPriorityAndTies() throws {
        let zone = try zone("UTC")
        let schedule = SignageSchedule(
            entries: [
                entry("a", from: "09:00", to: "17:00"),
                entry("b", from: "12:00", to: "13:00"),
                entry("c", from: "12:30", to: "14:00", priority: 5),
            ], fallback: .playlist("d"), timeZone: zone)
        XCTAssertEqual(playing(schedule, "2026-12-02T08:59:59Z"), "d")
        XCTAssertEqual(playing(schedule, "2026-12-02T12:00:00Z"), "a", "a tie: the first listed")
        XCTAssertEqual(playing(schedule, "2026-12-02T12:30:00Z"), "c", "priority 5")
        XCTAssertEqual(playing(schedule, "2026-12-02T14:00:00Z"), "a")
        XCTAssertEqual(schedule.active(at: utc("2026-12-02T12:45:00Z")).entry, 2)
        XCTAssertEqual(schedule.nextChange(after: utc("2026-12-02T12:00:00Z"))?.at, utc("2026-12-02T12:30:00Z"))
        let reversed = SignageSchedule(entries: schedule.entries.reversed(), fallback: .playlist("d"), timeZone: zone)
        XCTAssertEqual(playing(reversed, "2026-12-02T12:15:00Z"), "b", "listed first now")
        // An entry of the same playlist as the one playing is no change.
        let same = SignageSchedule(
            entries: [entry("d", from: "10:00", to: "11:00")], fallback: .playlist("d"), timeZone: zone)
        let started = Date()
        XCTAssertNil(same.nextChange(after: utc("2026-12-02T09:00:00Z")))
        XCTAssertNil(same.runStart(at: utc("2026-12-02T10:30:00Z")))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "a year of boundaries looked through, quickly")
    }

    /// Weekdays: an occurrence belongs to its starting day, so Friday's
    /// night runs into Saturday and Sunday's does not start.
    func testDaysOfTheWeek() throws {
        // 2026-12-04 is a Friday.
        XCTAssertEqual(LocalCalendar.isoWeekday(LocalCalendar.parseDate("2026-12-04")!), 5)
        XCTAssertEqual(LocalCalendar.isoWeekday(LocalCalendar.parseDate("1969-12-31")!), 3)
        let schedule = SignageSchedule(
            entries: [entry("weekend", days: [5, 6], from: "20:00", to: "02:00")], fallback: .playlist("d"),
            timeZone: try zone("UTC"))
        XCTAssertEqual(playing(schedule, "2026-12-03T21:00:00Z"), "d", "Thursday")
        XCTAssertEqual(playing(schedule, "2026-12-04T21:00:00Z"), "weekend", "Friday")
        XCTAssertEqual(playing(schedule, "2026-12-06T01:00:00Z"), "weekend", "Saturday's night, on Sunday")
        XCTAssertEqual(playing(schedule, "2026-12-06T21:00:00Z"), "d", "Sunday")
        XCTAssertEqual(schedule.nextChange(after: utc("2026-12-06T03:00:00Z"))?.at, utc("2026-12-11T20:00:00Z"))
    }

    /// The answer is a function of the time alone: a clock stepped back
    /// before a change brings the old playlist back and the change ahead
    /// again; stepped forward past one, the new playlist at once.
    func testClockStepsBackAndForward() throws {
        let schedule = SignageSchedule(
            entries: [entry("lunch", from: "12:00", to: "13:00")], fallback: .playlist("d"),
            timeZone: try zone("Europe/Berlin"))
        let change = utc("2026-12-02T11:00:00Z")
        XCTAssertEqual(playing(schedule, "2026-12-02T11:00:05Z"), "lunch")
        // Back by a minute, as NTP might at boot.
        XCTAssertEqual(playing(schedule, "2026-12-02T10:59:05Z"), "d")
        XCTAssertEqual(schedule.nextChange(after: utc("2026-12-02T10:59:05Z"))?.at, change)
        // Forward by two hours, past the whole entry.
        XCTAssertEqual(playing(schedule, "2026-12-02T13:00:05Z"), "d")
        XCTAssertEqual(schedule.runStart(at: utc("2026-12-02T13:00:05Z")), utc("2026-12-02T12:00:00Z"))
        XCTAssertEqual(schedule.nextChange(after: utc("2026-12-02T13:00:05Z"))?.at, utc("2026-12-03T11:00:00Z"))
    }

    /// Offsets west of Greenwich and of half an hour print as ISO 8601 does.
    func testLocalTimesCarryTheirOffset() throws {
        let t = utc("2026-12-02T12:00:00Z")
        for (name, expected) in [
            ("America/St_Johns", "2026-12-02T08:30:00-03:30"), ("Asia/Kolkata", "2026-12-02T17:30:00+05:30"),
            ("Pacific/Chatham", "2026-12-03T01:45:00+13:45"), ("UTC", "2026-12-02T12:00:00+00:00"),
        ] {
            let schedule = SignageSchedule(entries: [], fallback: .playlist("d"), timeZone: try zone(name))
            XCTAssertEqual(schedule.localISO8601(t), expected, name)
            XCTAssertNil(schedule.nextChange(after: t), "no entries: no change")
        }
    }

    // MARK: reading

    func testTimesAndDates() {
        XCTAssertEqual(LocalCalendar.parseTime("22:00", allowEndOfDay: false), 79200)
        XCTAssertEqual(LocalCalendar.parseTime("06:30:15", allowEndOfDay: false), 23415)
        XCTAssertEqual(LocalCalendar.parseTime("24:00", allowEndOfDay: true), 86400)
        for bad in ["24:00", "7:00", "12:60", "12:00:60", "noon", "12", "-1:00", "１２:00"] {
            XCTAssertNil(LocalCalendar.parseTime(bad, allowEndOfDay: false), bad)
        }
        XCTAssertNil(LocalCalendar.parseTime("24:01", allowEndOfDay: true))
        XCTAssertEqual(LocalCalendar.parseDate("1970-01-01"), 0)
        XCTAssertEqual(LocalCalendar.parseDate("2028-02-29"), LocalCalendar.parseDate("2028-02-28")! + 1)
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "2026-12-01T00:00"] {
            XCTAssertNil(LocalCalendar.parseDate(bad), bad)
        }
        for day in [-800_000, -1, 0, 59, 20_000, 2_000_000] {
            let (y, m, d) = LocalCalendar.civil(day)
            XCTAssertEqual(LocalCalendar.day(year: y, month: m, day: d), day)
        }
    }
}
