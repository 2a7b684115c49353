import Foundation
import Screenplay

/// A text, text-file, clock or ticker item of the playlist file and its
/// keys (font, size, colours, alignment, padding), each mistake named by
/// its JSON path.
enum TextItemParser {
    /// The keys that make an item a text item; "color" is then the text's colour.
    static let textKinds = ["text", "text-file", "clock", "ticker", "ticker-file"]
    static let textItemKeys: Set<String> = [
        "text", "text-file", "clock", "ticker", "ticker-file", "speed", "timezone", "font", "size", "color",
        "background", "align", "valign", "padding", "duration", "transition",
    ]

    static func isTextItem(_ entry: [String: Any]) -> Bool {
        textKinds.contains { entry[$0] != nil }
    }

    /// A text, text-file or clock item (the keys are already checked
    /// against `textItemKeys`). A text file must exist and be UTF-8 when the
    /// playlist is read: unlike a picture still being copied, a missing
    /// text file is most often a typo, and the item would show nothing.
    static func parseTextItem(
        _ entry: [String: Any], at: String, folder: String, _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> TextItem {
        let kinds = textKinds.filter { entry[$0] != nil }
        guard kinds.count == 1 else {
            throw fail(
                at,
                "a text item has one of \"text\", \"text-file\", \"clock\", \"ticker\" or \"ticker-file\", not \(kinds.joined(separator: " and "))"
            )
        }
        func string(_ key: String) throws(PlaylistError) -> String? {
            guard let value = entry[key] else { return nil }
            guard let text = value as? String else {
                throw fail("\(at).\(key)", "expected a string, got \(JSONValues.describe(value))")
            }
            return text
        }
        /// An existing UTF-8 file, relative to the playlist's folder.
        func textFile(_ key: String) throws(PlaylistError) -> String {
            let relative = try string(key) ?? ""
            guard !relative.isEmpty else { throw fail("\(at).\(key)", "expected a file path, got an empty string") }
            let path = relative.hasPrefix("/") ? relative : (folder as NSString).appendingPathComponent(relative)
            if case let .failure(problem) = TextItem.readFile(path) {
                throw fail("\(at).\(key)", "\(path): \(problem)")
            }
            return path
        }
        func speed() throws(PlaylistError) -> Double {
            guard let value = entry["speed"] else { return 120 }
            guard let speed = JSONValues.number(value), speed > 0, speed <= 10000 else {
                throw fail(
                    "\(at).speed",
                    "expected pixels a second, more than 0 and at most 10000, got \(JSONValues.describe(value))")
            }
            return speed
        }
        /// A whole number of pixels in `range`; `expected` words it for the message.
        func pixels(_ key: String, in range: ClosedRange<Int>, _ expected: String) throws(PlaylistError) -> Int? {
            guard let value = entry[key] else { return nil }
            guard let pixels = JSONValues.integer(value), range.contains(pixels) else {
                throw fail("\(at).\(key)", "expected \(expected), got \(JSONValues.describe(value))")
            }
            return pixels
        }
        var item: TextItem
        switch kinds[0] {
        case "text":
            item = TextItem(content: .string(try string("text") ?? ""))
        case "text-file":
            item = TextItem(content: .file(path: try textFile("text-file")))
        case "ticker":
            item = TextItem(content: .ticker(text: try string("ticker") ?? "", path: nil, speed: try speed()))
        case "ticker-file":
            item = TextItem(content: .ticker(text: nil, path: try textFile("ticker-file"), speed: try speed()))
        default:
            let format = try string("clock") ?? ""
            guard !format.isEmpty else {
                throw fail("\(at).clock", "the format is empty; give an strftime format such as \"%H:%M\"")
            }
            var zone: String?
            if let name = try string("timezone") {
                guard TimeZone(identifier: name) != nil else {
                    throw fail(
                        "\(at).timezone",
                        "unknown time zone \"\(name)\"; give a name from the tz database such as \"Europe/Berlin\" (see /usr/share/zoneinfo), or leave it out for the box's local time"
                    )
                }
                zone = name
            }
            item = TextItem(content: .clock(format: format, zone: zone))
        }
        if entry["timezone"] != nil, kinds[0] != "clock" {
            throw fail("\(at).timezone", "\"timezone\" applies to clock items only")
        }
        if entry["speed"] != nil, !kinds[0].hasPrefix("ticker") {
            throw fail("\(at).speed", "\"speed\" applies to ticker items only")
        }
        if entry["align"] != nil, kinds[0].hasPrefix("ticker") {
            throw fail(
                "\(at).align", "a ticker runs across the whole panel; \"align\" applies to text and clock items")
        }
        if let font = try string("font") {
            let words = font.split(separator: " ")
            guard let last = words.last else {
                throw fail("\(at).font", "the font is empty; give a family and style such as \"Sans Bold\"")
            }
            if isFontSize(last) {
                throw fail(
                    "\(at).font",
                    "\"\(font)\" ends in a size; give the family and style only (\"Sans Bold\") and the size in pixels as \"size\""
                )
            }
            item.font = font
        }
        if let size = try pixels("size", in: 1...4000, "a whole number of pixels from 1 to 4000") { item.size = size }
        for (key, keyPath) in [("color", \TextItem.color), ("background", \TextItem.background)] {
            guard let value = entry[key] else { continue }
            guard let text = value as? String, let color = RGBColor(parsing: text) else {
                throw fail(
                    "\(at).\(key)",
                    "expected a colour as RRGGBB (such as \"FFFFFF\"), got \(JSONValues.describe(value))")
            }
            item[keyPath: keyPath] = color
        }
        if let value = entry["align"] {
            let aligns: [String: TextAlign] = ["start": .left, "center": .center, "end": .right]
            guard let name = value as? String, let align = aligns[name] else {
                throw fail("\(at).align", "expected \"start\", \"center\" or \"end\", got \(describeValue(value))")
            }
            item.align = align
        }
        if let value = entry["valign"] {
            guard let name = value as? String, let align = TextItem.VerticalAlign(rawValue: name) else {
                throw fail("\(at).valign", "expected \"top\", \"center\" or \"bottom\", got \(describeValue(value))")
            }
            item.verticalAlign = align
        }
        if let padding = try pixels("padding", in: 0...10000, "a whole number of pixels, 0 or more") {
            item.padding = padding
        }
        return item
    }

    /// "12", "+12", "12.5", ".5", "12px": the last word of a font that is a
    /// size (the schema's font pattern says the same).
    static func isFontSize(_ word: Substring) -> Bool {
        var number = word.hasSuffix("px") ? word.dropLast(2) : word
        if number.first == "+" || number.first == "-" { number = number.dropFirst() }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count <= 2 && parts.contains { !$0.isEmpty }
            && parts.allSatisfy { $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    }

    /// A string value quoted, anything else as `describe` says.
    private static func describeValue(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        return JSONValues.describe(value)
    }
}
