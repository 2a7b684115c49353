import Dispatch
import Foundation
public import Screenplay

// Text items of `screenplay play`: a string, a UTF-8 file or a clock, laid
// out by pango through the library's text drawing. They are static: drawn
// when their text changes (a file edited, a clock's shown text moving on),
// never every refresh.

/// A text item as the playlist gives it.
public struct TextItem: Equatable {
    /// What the item writes.
    public enum Content: Equatable {
        /// Text written in the playlist.
        case string(String)
        /// A UTF-8 file, re-read when it changes.
        case file(path: String)
        /// An strftime format, shown in `zone` (nil: the box's local time).
        case clock(format: String, zone: String?)
        /// One line scrolling right to left at `speed` pixels a second: the
        /// text itself, or a UTF-8 file re-read before each pass.
        case ticker(text: String?, path: String?, speed: Double)
    }

    /// Where lines of text sit across the box.
    public enum VerticalAlign: String, Equatable, CaseIterable {
        /// Lines at the top, in the middle or at the bottom of the box.
        case top, center, bottom
    }

    /// What it writes.
    public var content: Content
    /// A pango family and style ("Sans Bold", "DejaVu Serif Italic"), without a size.
    public var font = "Sans"
    /// Pixels; nil: a tenth of the panel's height (as drawn, after a turn).
    public var size: Int?
    /// The text's colour.
    public var color = RGBColor.white
    /// The colour behind the text, over the whole panel or region.
    public var background = RGBColor.black
    /// Where lines sit across the box. pango lays out a paragraph in a
    /// right-to-left script from the right, so `.left` (`"start"`) puts
    /// Hebrew and Arabic at the right edge: the start of their lines.
    public var align = TextAlign.center
    /// Where the block of lines sits, top to bottom.
    public var verticalAlign = VerticalAlign.center
    /// Pixels kept clear on each side of the panel.
    public var padding = 0

    /// A text item of `content` in the default font, white on black, centred.
    public init(content: Content) {
        self.content = content
    }

    /// For logs, proof of play and `ctl show`: the file, or the kind and its text.
    var label: String {
        switch content {
        case let .string(text): "text:" + (text.count > 40 ? String(text.prefix(40)) + "…" : text)
        case let .file(path): path
        case let .clock(format, zone): "clock:\(format)" + (zone.map { " \($0)" } ?? "")
        case let .ticker(_, path?, _): path
        case let .ticker(text, nil, _):
            "ticker:" + (text.map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 } ?? "")
        }
    }

    var path: String? {
        switch content {
        case let .file(path): path
        case let .ticker(_, path, _): path
        case .string, .clock: nil
        }
    }
}

extension PlayItem {
    /// The item re-reads its own file when it changes (a text file), so a
    /// change needs no reload of the playlist.
    var watchesItsFile: Bool {
        if case .text = source { return true }
        return false
    }
}

// MARK: parsing

extension SignageConfigLoader {
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
            if case let .failure(problem) = readTextFile(path) { throw fail("\(at).\(key)", "\(path): \(problem)") }
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
        if let value = entry["size"] {
            guard let pixels = JSONValues.integer(value), (1...4000).contains(pixels) else {
                throw fail(
                    "\(at).size", "expected a whole number of pixels from 1 to 4000, got \(JSONValues.describe(value))")
            }
            item.size = pixels
        }
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
        if let value = entry["padding"] {
            guard let pixels = JSONValues.integer(value), (0...10000).contains(pixels) else {
                throw fail(
                    "\(at).padding", "expected a whole number of pixels, 0 or more, got \(JSONValues.describe(value))")
            }
            item.padding = pixels
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

    /// The text of a UTF-8 file, without the newline editors end a file with.
    public static func readTextFile(_ path: String) -> Result<String, TextFileProblem> {
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(TextFileProblem("no such file; create it, or give the text itself as \"text\""))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(TextFileProblem("cannot read it (\(readReason(path))); make it readable"))
        }
        guard var text = String(data: data, encoding: .utf8) else {
            return .failure(TextFileProblem("not UTF-8 text; save it as UTF-8"))
        }
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return .success(text)
    }
}

/// Why a text file cannot be shown.
public struct TextFileProblem: Error, CustomStringConvertible {
    /// The file and the reason, for messages.
    public var description: String
    init(_ description: String) { self.description = description }
}
