import Foundation

/// What a clock shows: strftime in a time zone of the tz database.
public struct ClockFace {
    let format: String
    let zone: TimeZone

    /// A clock of strftime `format` in the tz zone `zoneName` (nil, or a name the tz database lacks: the box's own).
    public init(format: String, zoneName: String?) {
        self.format = format
        zone = zoneName.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
    }

    /// How often the shown text can change: every second when the format
    /// shows seconds, else every minute (hours and dates change on minute
    /// boundaries too: every zone in use is a whole number of minutes off UTC).
    public var granularity: Double {
        var percent = false
        for character in format {
            if percent {
                // %E and %O modify the conversion that follows.
                if character == "E" || character == "O" { continue }
                if "STrXcs+".contains(character) { return 1 }
                percent = false
            } else if character == "%" {
                percent = true
            }
        }
        return 60
    }

    /// The text at `seconds` since the epoch: strftime of the broken-down
    /// time in `zone`, with that zone's offset and abbreviation for %z and
    /// %Z. The process's TZ is left alone, so clocks in several zones can
    /// show side by side. %s is filled in here: glibc makes it with mktime,
    /// which would read the shifted time as the box's local time.
    public func text(at seconds: Double) -> String {
        let whole = seconds.rounded(.down)
        let date = Date(timeIntervalSince1970: whole)
        let offset = zone.secondsFromGMT(for: date)
        var shifted = time_t(whole) + time_t(offset)
        var parts = tm()
        guard gmtime_r(&shifted, &parts) != nil else { return "" }
        parts.tm_gmtoff = offset
        parts.tm_isdst = zone.isDaylightSavingTime(for: date) ? 1 : 0
        let abbreviation = zone.abbreviation(for: date) ?? ""
        let format = Self.fillingEpochSeconds(in: self.format, with: Int(whole))
        // strftime answers 0 both for a text that does not fit and for an
        // empty one: a larger buffer tells them apart.
        var size = 256
        while size <= 65536 {
            var buffer = [CChar](repeating: 0, count: size)
            let count = abbreviation.withCString { name in
                parts.tm_zone = name
                return strftime(&buffer, buffer.count, format, &parts)
            }
            if count > 0 { return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            size *= 4
        }
        return ""
    }

    /// `format` with each %s (not %%s) replaced by `seconds`.
    static func fillingEpochSeconds(in format: String, with seconds: Int) -> String {
        var result = ""
        var percent = false
        for character in format {
            if percent {
                percent = false
                result += character == "s" ? String(seconds) : "%" + String(character)
            } else if character == "%" {
                percent = true
            } else {
                result.append(character)
            }
        }
        return percent ? result + "%" : result
    }
}
