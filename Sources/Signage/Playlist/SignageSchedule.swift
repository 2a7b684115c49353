public import Foundation

// Which content a panel plays at a wall-clock instant: pure arithmetic over
// a panel entry's schedule, its time zone and the instant, so every rule
// (days, times across midnight, date ranges, priority, daylight-saving
// nights, a stepped clock) is unit tested without a screen. `PlaySchedule`
// is the other clock: where a playlist is within its cycle.

/// What a schedule entry puts on a panel. A layout is the
/// second case; the arithmetic below only compares these values.
public enum ScheduledContent: Hashable, Sendable {
    /// A playlist (or layout) by name.
    case playlist(String)

    /// The playlist's name.
    public var name: String {
        switch self {
        case let .playlist(name): name
        }
    }
}

/// One line of a schedule. Times are local wall-clock times in the
/// schedule's zone; an occurrence belongs to the day it starts on, so
/// `days` and `dates` name the evening of an entry that runs past midnight.
public struct ScheduleEntry: Equatable, Sendable {
    var content: ScheduledContent
    /// ISO weekdays an occurrence may start on (1 Monday ... 7 Sunday); empty: every day.
    var days: Set<Int> = []
    /// Seconds after local midnight, 0 ..< 86400.
    var from = 0
    /// Seconds after local midnight, 1 ... 86400; at or before `from` the
    /// occurrence ends on the next day.
    var to = 86400
    /// Local days (days since 1970-01-01) an occurrence may start on, both ends included.
    var firstDay: Int?
    var lastDay: Int?
    var priority = 0

    var crossesMidnight: Bool { to <= from }

    /// Whether an occurrence may start on local day `day`.
    func starts(on day: Int) -> Bool {
        if let firstDay, day < firstDay { return false }
        if let lastDay, day > lastDay { return false }
        return days.isEmpty || days.contains(LocalCalendar.isoWeekday(day))
    }
}

/// A panel entry's schedule: the highest-priority entry active at an
/// instant wins (the first listed among equals), and `fallback`, the panel
/// entry's own playlist, plays when none is.
public struct SignageSchedule: Equatable, Sendable {
    var entries: [ScheduleEntry]
    var fallback: ScheduledContent
    /// The zone whose days and times the entries name.
    public var timeZone: TimeZone

    /// A timetable of `entries` over `fallback`, read in `timeZone`.
    public init(entries: [ScheduleEntry], fallback: ScheduledContent, timeZone: TimeZone) {
        self.entries = entries
        self.fallback = fallback
        self.timeZone = timeZone
    }

    /// What plays: `entry` indexes `entries`, nil for the fallback.
    public struct Active: Equatable, Sendable {
        var entry: Int?
        /// What the entry plays.
        public var content: ScheduledContent
    }

    /// How far ahead and back a change is looked for. Beyond it a schedule
    /// says "no change"; a panel asks again every day (`PlayPanel`).
    static let horizonDays = 400

    /// What plays at wall-clock second `t`.
    public func active(at t: Double) -> Active {
        let today = localDay(t)
        return active(at: t, among: occurrences(startingOn: (today - 2)...(today + 1)))
    }

    /// The first instant after `t` at which different content plays, and what.
    public func nextChange(after t: Double) -> (at: Double, active: Active)? {
        let now = active(at: t).content
        var low = localDay(t) - 2
        while low <= localDay(t) + Self.horizonDays {
            let high = low + 6
            // An occurrence lasts at most two days (a day and a night, plus
            // a daylight-saving hour), so days from two before the window
            // hold every occurrence a boundary inside it can belong to.
            let window = occurrences(startingOn: (low - 2)...high)
            let floor = instant(day: low, second: 0)
            let ceiling = instant(day: high + 1, second: 0)
            let boundaries = Set(window.flatMap { [$0.range.lowerBound, $0.range.upperBound] })
                .filter { $0 > t && $0 >= floor && $0 < ceiling }.sorted()
            for boundary in boundaries {
                let then = active(at: boundary, among: window)
                if then.content != now { return (boundary, then) }
            }
            low = high + 1
        }
        return nil
    }

    /// When what plays at `t` began: the last change at or before `t`; nil
    /// when none is within the horizon (the content has always played).
    public func runStart(at t: Double) -> Double? {
        let now = active(at: t).content
        var high = localDay(t) + 1
        while high >= localDay(t) - Self.horizonDays {
            let low = high - 6
            let window = occurrences(startingOn: (low - 3)...high)
            let floor = instant(day: low, second: 0)
            let ceiling = instant(day: high + 1, second: 0)
            let boundaries = Set(window.flatMap { [$0.range.lowerBound, $0.range.upperBound] })
                .filter { $0 >= floor && $0 < ceiling && $0 <= t }.sorted(by: >)
            for boundary in boundaries {
                // Boundaries are whole seconds: half a second before is the run before.
                if active(at: boundary - 0.5, among: window).content != now { return boundary }
            }
            high = low - 1
        }
        return nil
    }

    // MARK: occurrences

    /// One stretch of time an entry is active.
    public struct Occurrence: Equatable {
        var entry: Int
        var range: Range<Double>
    }

    private func active(at t: Double, among occurrences: [Occurrence]) -> Active {
        var best: Int?
        for occurrence in occurrences where occurrence.range.contains(t) {
            let index = occurrence.entry
            if let current = best,
                entries[current].priority > entries[index].priority
                    || (entries[current].priority == entries[index].priority && current <= index)
            {
                continue
            }
            best = index
        }
        guard let best else { return Active(entry: nil, content: fallback) }
        return Active(entry: best, content: entries[best].content)
    }

    /// Every entry's occurrences starting on `days`, as instants. One that
    /// daylight saving leaves empty (02:10 to 02:50 on a spring-forward
    /// night) is none.
    func occurrences(startingOn days: ClosedRange<Int>) -> [Occurrence] {
        var result: [Occurrence] = []
        for day in days {
            for (index, entry) in entries.enumerated() where entry.starts(on: day) {
                let start = instant(day: day, second: entry.from)
                let end =
                    entry.crossesMidnight || entry.to == 86400
                    ? instant(day: day + 1, second: entry.to % 86400) : instant(day: day, second: entry.to)
                if start < end { result.append(Occurrence(entry: index, range: start..<end)) }
            }
        }
        return result
    }

    // MARK: local time

    private func offset(_ t: Int) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) }

    /// The local day (days since 1970-01-01) the instant `t` falls on.
    func localDay(_ t: Double) -> Int {
        let whole = Int(t.rounded(.down))
        return LocalCalendar.floorDiv(whole + offset(whole), 86400)
    }

    /// The first instant at which the local clock reads `second` on `day`.
    /// A time the clocks skip (02:30 on a spring-forward night) is reached
    /// when the skip ends (03:00); a time they show twice (02:30 on a
    /// fall-back night) counts at its first showing, so an entry neither
    /// stops nor starts again in the repeated hour.
    func instant(day: Int, second: Int) -> Double {
        let local = day * 86400 + second
        // The offsets in force within a day either side cover any transition near `local`.
        let offsets = Set([local - 86400, local, local + 86400].map(offset))
        let shown = offsets.map { local - $0 }.filter { $0 + offset($0) == local }
        if let first = shown.min() { return Double(first) }
        // In a gap: the smallest instant whose local time has passed `local`.
        var low = local - (offsets.max() ?? 0)
        var high = local - (offsets.min() ?? 0)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if middle + offset(middle) >= local { high = middle } else { low = middle }
        }
        return Double(high)
    }

    /// `t` as local ISO 8601 with its offset (`2026-03-29T03:00:00+02:00`):
    /// unambiguous on the night the clocks change.
    public func localISO8601(_ t: Double) -> String {
        let whole = Int(t.rounded(.down))
        let zone = offset(whole)
        let local = whole + zone
        let (year, month, day) = LocalCalendar.civil(LocalCalendar.floorDiv(local, 86400))
        let second = local - LocalCalendar.floorDiv(local, 86400) * 86400
        let sign = zone < 0 ? "-" : "+"
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", year, month, day, second / 3600, second / 60 % 60,
            second % 60, sign, abs(zone) / 3600, abs(zone) / 60 % 60)
    }
}

/// Proleptic Gregorian day arithmetic on day numbers (days since
/// 1970-01-01), after Howard Hinnant's `days_from_civil`: no Calendar, so
/// nothing depends on a locale or on Foundation's matching policies.
public enum LocalCalendar {
    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// 1 Monday ... 7 Sunday; day 0 was a Thursday.
    static func isoWeekday(_ day: Int) -> Int { (day + 3 - floorDiv(day + 3, 7) * 7) + 1 }

    static func day(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// "2026-12-01" as a day number; nil for anything else (2026-02-30 too).
    static func parseDate(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = decimalNumber(parts[0]), let month = decimalNumber(parts[1]),
            let dayOfMonth = decimalNumber(parts[2]),
            (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { return nil }
        let number = day(year: year, month: month, day: dayOfMonth)
        return civil(number) == (year, month, dayOfMonth) ? number : nil
    }

    /// "22:00", "06:30:15" or "24:00" (only as an end) as seconds after midnight.
    static func parseTime(_ text: String, allowEndOfDay: Bool) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 }),
            let hour = decimalNumber(parts[0]), let minute = decimalNumber(parts[1])
        else { return nil }
        let second = parts.count == 3 ? decimalNumber(parts[2]) : 0
        guard let second, (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        let total = hour * 3600 + minute * 60 + second
        if total == 86400, allowEndOfDay { return total }
        return (0..<24).contains(hour) ? total : nil
    }
}
