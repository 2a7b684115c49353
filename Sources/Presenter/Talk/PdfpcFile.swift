import Documents
import Foundation

/// Where LaTeX beamer put the notes on each page (`show notes on second
/// screen=right`): the page is two halves, the slide and its notes.
public enum NotesPosition: String, CaseIterable, Sendable {
    /// Notes on the right half, the slide on the left.
    case right
    /// Notes on the left half.
    case left
    /// Notes on the top half.
    case top
    /// Notes on the bottom half.
    case bottom

    /// The half of the page the audience sees.
    var slideRegion: PageRegion {
        switch self {
        case .right: return .leftHalf
        case .left: return .rightHalf
        case .top: return .bottomHalf
        case .bottom: return .topHalf
        }
    }

    /// The half with the notes, for the console.
    var notesRegion: PageRegion {
        switch self {
        case .right: return .rightHalf
        case .left: return .leftHalf
        case .top: return .topHalf
        case .bottom: return .bottomHalf
        }
    }

    /// Slide shapes beamer offers (`aspectratio=169` and the rest).
    static let slideAspects: [(name: String, ratio: Double)] = [
        ("16:9", 16.0 / 9), ("16:10", 16.0 / 10), ("14:9", 14.0 / 9), ("4:3", 4.0 / 3), ("3:2", 3.0 / 2),
        ("5:4", 5.0 / 4),
    ]

    /// A page of this size that is exactly two slides side by side or one
    /// above the other is most likely a beamer page with notes: the hint
    /// says so and names the option. nil for any other page.
    static func hint(pageWidth: Double, pageHeight: Double) -> String? {
        guard pageWidth > 0, pageHeight > 0 else { return nil }
        let ratio = pageWidth / pageHeight
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) / b < 0.005 }
        for aspect in slideAspects {
            if close(ratio, aspect.ratio * 2) {
                return
                    "pages are two \(aspect.name) slides side by side: if one half holds beamer notes, add --notes-position right (or left)"
            }
            if close(ratio, aspect.ratio / 2) {
                return
                    "pages are two \(aspect.name) slides one above the other: if one half holds beamer notes, add --notes-position bottom (or top)"
            }
        }
        return nil
    }
}

/// A time of day, "HH:MM" on the 24-hour clock, as `--end-time` and
/// pdfpc's `endTime` give it.
public struct ClockTime: Equatable, Sendable, CustomStringConvertible {
    /// 0 to 23.
    public let hour: Int
    /// 0 to 59.
    public let minute: Int

    /// "9:30", "09:30", "23:59"; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        hour = h
        minute = m
    }

    /// "HH:MM".
    public var description: String { String(format: "%02d:%02d", hour, minute) }

    /// The next time the clock shows this time, from `now` (a minute that
    /// has begun still counts as now): a talk that ends at 00:30 started at
    /// 23:50 ends tomorrow, as in pdfpc.
    func nextOccurrence(after now: Date, calendar: Calendar = .current) -> Date {
        let start = calendar.dateInterval(of: .minute, for: now)?.start ?? now
        var parts = calendar.dateComponents([.year, .month, .day], from: start)
        parts.hour = hour
        parts.minute = minute
        parts.second = 0
        let today = calendar.date(from: parts) ?? start
        return today >= start ? today : calendar.date(byAdding: .day, value: 1, to: today) ?? today
    }
}

/// A `.pdfpc` file that cannot be used, with what is wrong in it.
struct PdfpcError: Error, CustomStringConvertible, Equatable {
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}

/// pdfpc's notes file (`talk.pdfpc` beside `talk.pdf`, JSON since pdfpc
/// 4.5): notes per page, the talk's duration or end time, when the timer
/// warns, where beamer put the notes, and pages the speaker marked as
/// overlays. Pages are found as pdfpc finds them: by label and overlay
/// number where the label still exists, else by index.
struct PdfpcFile: Equatable, Sendable {
    /// pdfpc's format number this reader knows (pdfpc writes 2).
    static let formatVersion = 2

    /// Minutes.
    var duration: Double?
    var endTime: ClockTime?
    /// pdfpc's `startTime`: when the talk's timer starts by itself.
    var startTime: ClockTime?
    /// Minutes before the end when the timer turns amber.
    var lastMinutes: Double?
    var notesPosition: NotesPosition?
    /// pdfpc's `disableMarkdown`: the notes are plain text, not Markdown.
    var disableMarkdown = false
    /// Notes by 0-based page.
    var notes: [Int: String] = [:]
    /// Pages marked (Ctrl+O in pdfpc) as overlays of the page before.
    var forcedOverlays: Set<Int> = []
    /// Pages marked hidden in pdfpc (kept in the talk here; see docs/presenting.md).
    var hidden: Set<Int> = []
    /// Members read but not used here, for one line on stderr.
    var unused: [String] = []

    /// The file beside `talk.pdf`: `talk.pdfpc`.
    static func sidecarPath(for pdf: String) -> String {
        let url = URL(fileURLWithPath: pdf)
        let dir = (pdf as NSString).deletingLastPathComponent
        return (dir.isEmpty ? "" : dir + "/") + url.deletingPathExtension().lastPathComponent + ".pdfpc"
    }

    static func parse(_ data: Data, path: String, pageLabels: [String]) throws(PdfpcError) -> PdfpcFile {
        func fail(_ reason: String) -> PdfpcError { PdfpcError(path: path, reason: reason) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            if let first = data.first(where: { !($0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09) }),
                first == UInt8(ascii: "[")
            {
                throw fail(
                    "this is pdfpc's old text format (before pdfpc 4.5); open the talk once in a newer pdfpc to convert it, or move the notes to a .notes.md file"
                )
            }
            throw fail("not valid JSON\(Self.location(of: error, in: data))")
        }
        guard let object = root as? [String: Any] else {
            throw fail("expected a JSON object at the top, found \(Self.kind(root))")
        }
        var file = PdfpcFile()
        let pageCount = pageLabels.count
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "pdfpcFormat":
                let format = try Self.integer(value, key, fail)
                if format > formatVersion {
                    throw fail("pdfpcFormat \(format) is newer than the version \(formatVersion) this reader knows")
                }
            case "duration":
                let minutes = try Self.integer(value, key, fail)
                guard minutes >= 0 else { throw fail("duration \(minutes) is negative: expected minutes") }
                if minutes > 0 { file.duration = Double(minutes) }
            case "endTime":
                let text = try Self.string(value, key, fail)
                guard let time = ClockTime(parsing: text) else {
                    throw fail("endTime '\(Self.oneLine(text))' is not a time HH:MM")
                }
                file.endTime = time
            case "startTime":
                let text = try Self.string(value, key, fail)
                guard let time = ClockTime(parsing: text) else {
                    throw fail("startTime '\(Self.oneLine(text))' is not a time HH:MM")
                }
                file.startTime = time
            case "lastMinutes":
                let minutes = try Self.integer(value, key, fail)
                guard minutes >= 0 else { throw fail("lastMinutes \(minutes) is negative") }
                file.lastMinutes = Double(minutes)
            case "beamerNotePosition":
                let text = try Self.string(value, key, fail)
                if text.lowercased() == "none" { break }
                guard let position = NotesPosition(rawValue: text.lowercased()) else {
                    throw fail(
                        "beamerNotePosition '\(Self.oneLine(text))' is not one of right, left, top, bottom (or none)")
                }
                file.notesPosition = position
            case "pages":
                guard let pages = value as? [Any] else {
                    throw fail("pages: expected an array, found \(Self.kind(value))")
                }
                for (n, entry) in pages.enumerated() {
                    try file.readPage(entry, number: n, labels: pageLabels, pageCount: pageCount, fail: fail)
                }
            case "disableMarkdown":
                file.disableMarkdown = try Self.boolean(value, key, fail)
            case "endSlide", "savedSlide", "defaultTransition", "noteFontSize":
                file.unused.append(key)
            default:
                // pdfpc itself only warns about members it does not know.
                file.unused.append(key)
            }
        }
        return file
    }

    private mutating func readPage(
        _ entry: Any, number n: Int, labels: [String], pageCount: Int, fail: (String) -> PdfpcError
    ) throws(PdfpcError) {
        guard let page = entry as? [String: Any] else {
            throw fail("pages[\(n)]: expected an object, found \(Self.kind(entry))")
        }
        var idx: Int?
        var label = ""
        var overlay = 0
        var note: String?
        var forced = false
        var isHidden = false
        for (key, value) in page {
            let name = "pages[\(n)].\(key)"
            switch key {
            case "idx": idx = try Self.integer(value, name, fail)
            case "label": label = try Self.string(value, name, fail)
            case "overlay": overlay = try Self.integer(value, name, fail)
            case "note": note = try Self.string(value, name, fail)
            case "forcedOverlay": forced = try Self.boolean(value, name, fail)
            case "hidden": isHidden = try Self.boolean(value, name, fail)
            default: unused.append(name)
            }
        }
        guard let idx else { throw fail("pages[\(n)]: no idx (the page's index)") }
        let index = Self.resolve(idx: idx, label: label, overlay: overlay, labels: labels)
        guard (0..<pageCount).contains(index) else {
            throw fail(
                "pages[\(n)]: page index \(idx)\(label.isEmpty ? "" : " (label '\(Self.oneLine(label))')") is not in the document, which has \(pageCount) page\(pageCount == 1 ? "" : "s")"
            )
        }
        if let note, !note.isEmpty { notes[index] = note }
        if forced, index > 0 { forcedOverlays.insert(index) }
        if isHidden { hidden.insert(index) }
    }

    /// The page an entry means. pdfpc stores the index, the label and the
    /// overlay number within the label; after an edit to the slides the
    /// label finds the page again where the index has moved.
    static func resolve(idx: Int, label: String, overlay: Int, labels: [String]) -> Int {
        guard !label.isEmpty else { return idx }
        func overlayNumber(_ i: Int) -> Int {
            var n = 0
            while i - n > 0, labels[i - n - 1] == labels[i] { n += 1 }
            return n
        }
        if labels.indices.contains(idx), labels[idx] == label, overlayNumber(idx) == overlay { return idx }
        if let first = labels.firstIndex(of: label) {
            let candidate = first + overlay
            if labels.indices.contains(candidate), labels[candidate] == label { return candidate }
        }
        return idx
    }

    // MARK: JSON values

    /// JSON's true and false. Foundation on Linux also answers `is Bool`
    /// for the numbers 0 and 1; its booleans are the NSNumbers of type char.
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }

    private static func kind(_ value: Any) -> String {
        if isBoolean(value) { return "true/false" }
        switch value {
        case is NSNull: return "null"
        case is String: return "a string"
        case is NSNumber: return "a number"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(type(of: value))"
        }
    }

    private static func integer(_ value: Any, _ name: String, _ fail: (String) -> PdfpcError) throws(PdfpcError) -> Int
    {
        if !isBoolean(value), let number = value as? NSNumber, let int = Int(exactly: number.doubleValue) { return int }
        throw fail("\(name): expected a whole number, found \(describe(value))")
    }

    private static func string(_ value: Any, _ name: String, _ fail: (String) -> PdfpcError) throws(PdfpcError)
        -> String
    {
        if let text = value as? String { return text }
        throw fail("\(name): expected a string, found \(describe(value))")
    }

    private static func boolean(_ value: Any, _ name: String, _ fail: (String) -> PdfpcError) throws(PdfpcError) -> Bool
    {
        if isBoolean(value), let flag = value as? Bool { return flag }
        throw fail("\(name): expected true or false, found \(describe(value))")
    }

    private static func describe(_ value: Any) -> String {
        switch value {
        case let text as String: return "the string \"\(oneLine(String(text.prefix(40))))\""
        case _ where isBoolean(value), is NSNull: return kind(value)
        case let number as NSNumber: return "\(number)"
        default: return kind(value)
        }
    }

    /// Text from the file as one line of an error message.
    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }

    /// " at line L, column C" from Foundation's "around character N", when it says.
    private static func location(of error: any Error, in data: Data) -> String {
        let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
        guard let range = text.range(of: "character "),
            let offset = Int(text[range.upperBound...].prefix { $0.isNumber })
        else { return "" }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0a { line += 1; column = 1 } else if byte & 0xc0 != 0x80 { column += 1 }
        }
        return " at line \(line), column \(column)"
    }
}
