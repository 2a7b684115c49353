import Foundation

/// The schedule part of the playlist file: a panel entry's `"schedule"` and
/// the file's `"timezone"`, read as strictly as the rest (each mistake
/// names its JSON path) and kept apart from the item parsing.
enum ScheduleParser {
    static let scheduleKeys: Set<String> = ["playlist", "layout", "days", "from", "to", "dates", "priority"]
    static let dateRangeKeys: Set<String> = ["from", "to"]
    static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// `"timezone"`: an IANA name; without it the system's (`TZ`, /etc/localtime).
    static func parseTimeZone(_ value: Any?, _ fail: (String, String) -> PlaylistError) throws(PlaylistError)
        -> TimeZone
    {
        guard let value else { return TimeZone.current }
        guard let name = value as? String, !name.isEmpty else {
            throw fail(
                "timezone",
                "expected an IANA time zone name such as \"Europe/Berlin\", got \(JSONValues.describe(value))")
        }
        guard TimeZone.knownTimeZoneIdentifiers.contains(name) || name == "UTC", let zone = TimeZone(identifier: name)
        else {
            throw fail(
                "timezone",
                "unknown time zone \"\(name)\": give an IANA name such as \"Europe/Berlin\" or \"America/New_York\" (the names under /usr/share/zoneinfo), or leave it out for the system's"
            )
        }
        return zone
    }

    /// A panel entry's `"schedule"`: a list of entries, each naming a playlist or a layout.
    static func parseSchedule(
        _ value: Any?, at: String, playlists: [String: Playlist], layouts: [String: Layout] = [:],
        _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> [ScheduleEntry] {
        guard let value else { return [] }
        guard let list = value as? [Any] else {
            throw fail("\(at).schedule", "expected a list of schedule entries, got \(JSONValues.describe(value))")
        }
        var entries: [ScheduleEntry] = []
        for (index, element) in list.enumerated() {
            entries.append(
                try parseScheduleEntry(
                    element, at: "\(at).schedule[\(index)]", playlists: playlists, layouts: layouts, fail))
        }
        return entries
    }

    private static func parseScheduleEntry(
        _ element: Any, at: String, playlists: [String: Playlist], layouts: [String: Layout],
        _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> ScheduleEntry {
        let object = try JSONValues.dictionary(element, at: at, fail)
        try JSONValues.rejectUnknownKeys(object, allowed: scheduleKeys, at: at, fail)
        let name = try SignageConfigLoader.contentName(in: object, at: at, playlists: playlists, layouts: layouts, fail)
        var entry = ScheduleEntry(content: .playlist(name))
        if let value = object["days"] { entry.days = try parseDays(value, at: "\(at).days", fail) }
        if let value = object["from"] {
            guard let text = value as? String, let seconds = LocalCalendar.parseTime(text, allowEndOfDay: false) else {
                throw fail(
                    "\(at).from",
                    "expected a time \"HH:MM\" or \"HH:MM:SS\" from 00:00 to 23:59:59, got \(quoted(value))")
            }
            entry.from = seconds
        }
        if let value = object["to"] {
            guard let text = value as? String, let seconds = LocalCalendar.parseTime(text, allowEndOfDay: true) else {
                throw fail(
                    "\(at).to",
                    "expected a time \"HH:MM\" or \"HH:MM:SS\" from 00:00 to 24:00 (at or before \"from\": the next day), got \(quoted(value))"
                )
            }
            // 00:00 ends at midnight, the next day's start.
            entry.to = seconds == 0 ? 86400 : seconds
        }
        if let value = object["dates"] {
            (entry.firstDay, entry.lastDay) = try parseDates(value, at: "\(at).dates", fail)
        }
        if let value = object["priority"] {
            guard let priority = JSONValues.integer(value) else {
                throw fail("\(at).priority", "expected a whole number (higher wins), got \(JSONValues.describe(value))")
            }
            entry.priority = priority
        }
        return entry
    }

    /// `["mon", "tue"]`, full names and ranges (`"mon-fri"`, `"fri-mon"`), any case.
    private static func parseDays(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> Set<Int>
    {
        guard let list = value as? [Any], !list.isEmpty else {
            throw fail(
                at,
                "expected a list of days such as [\"mon\", \"sat-sun\"] (leave \"days\" out for every day), got \(JSONValues.describe(value))"
            )
        }
        func weekday(_ text: Substring) -> Int? {
            let key = text.lowercased()
            guard key.count >= 3 else { return nil }
            return weekdayNames.firstIndex { fullName($0).hasPrefix(key) && key.hasPrefix($0) }.map { $0 + 1 }
        }
        var days: Set<Int> = []
        for (index, element) in list.enumerated() {
            let bounds = (element as? String)?.split(separator: "-", omittingEmptySubsequences: false) ?? []
            guard (1...2).contains(bounds.count), let first = weekday(bounds[0]), let last = weekday(bounds.last!)
            else {
                throw fail(
                    "\(at)[\(index)]",
                    "unknown day \(quoted(element)): expected mon, tue, wed, thu, fri, sat or sun (or a range such as \"mon-fri\")"
                )
            }
            var day = first
            while true {
                days.insert(day)
                if day == last { break }
                day = day % 7 + 1
            }
        }
        return days
    }

    private static func fullName(_ short: String) -> String {
        [
            "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday", "fri": "friday",
            "sat": "saturday",
            "sun": "sunday",
        ][short]!
    }

    /// `{"from": "2026-12-01", "to": "2026-12-24"}`, either end open.
    private static func parseDates(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> (Int?, Int?)
    {
        let object = try JSONValues.dictionary(value, at: at, fail)
        try JSONValues.rejectUnknownKeys(object, allowed: dateRangeKeys, at: at, fail)
        guard !object.isEmpty else {
            throw fail(at, "give \"from\", \"to\" or both (dates \"YYYY-MM-DD\"), or leave \"dates\" out")
        }
        var bounds: [String: Int] = [:]
        for key in ["from", "to"] {
            guard let bound = object[key] else { continue }
            guard let text = bound as? String, let day = LocalCalendar.parseDate(text) else {
                throw fail("\(at).\(key)", "expected a date \"YYYY-MM-DD\" that exists, got \(quoted(bound))")
            }
            bounds[key] = day
        }
        if let first = bounds["from"], let last = bounds["to"], first > last {
            throw fail(at, "\"from\" is after \"to\"; swap them")
        }
        return (bounds["from"], bounds["to"])
    }

    private static func quoted(_ value: Any) -> String {
        (value as? String).map { "\"\($0)\"" } ?? JSONValues.describe(value)
    }
}
