import Dispatch
import Foundation
import Screenplay

// Text items of `screenplay play`: a string, a UTF-8 file or a clock, laid
// out by pango through the library's text drawing. They are static: drawn
// when their text changes (a file edited, a clock's shown text moving on),
// never every refresh.

/// A text item as the playlist gives it.
struct TextItem: Equatable {
    enum Content: Equatable {
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
    enum VerticalAlign: String, Equatable, CaseIterable {
        case top, center, bottom
    }

    var content: Content
    /// A pango family and style ("Sans Bold", "DejaVu Serif Italic"), without a size.
    var font = "Sans"
    /// Pixels; nil: a tenth of the panel's height (as drawn, after a turn).
    var size: Int?
    var color = RGBColor.white
    var background = RGBColor.black
    /// Where lines sit across the box. pango lays out a paragraph in a
    /// right-to-left script from the right, so `.left` (`"start"`) puts
    /// Hebrew and Arabic at the right edge: the start of their lines.
    var align = TextAlign.center
    var verticalAlign = VerticalAlign.center
    /// Pixels kept clear on each side of the panel.
    var padding = 0

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
                throw fail("\(at).\(key)", "expected a string, got \(describe(value))")
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
            guard let speed = number(value), speed > 0, speed <= 10000 else {
                throw fail(
                    "\(at).speed", "expected pixels a second, more than 0 and at most 10000, got \(describe(value))")
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
            guard let pixels = integer(value), (1...4000).contains(pixels) else {
                throw fail("\(at).size", "expected a whole number of pixels from 1 to 4000, got \(describe(value))")
            }
            item.size = pixels
        }
        for (key, keyPath) in [("color", \TextItem.color), ("background", \TextItem.background)] {
            guard let value = entry[key] else { continue }
            guard let text = value as? String, let color = RGBColor(parsing: text) else {
                throw fail("\(at).\(key)", "expected a colour as RRGGBB (such as \"FFFFFF\"), got \(describe(value))")
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
            guard let pixels = integer(value), (0...10000).contains(pixels) else {
                throw fail("\(at).padding", "expected a whole number of pixels, 0 or more, got \(describe(value))")
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
        return describe(value)
    }

    /// The text of a UTF-8 file, without the newline editors end a file with.
    static func readTextFile(_ path: String) -> Result<String, TextFileProblem> {
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
struct TextFileProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: clocks

/// What a clock shows: strftime in a time zone of the tz database.
struct ClockFace {
    let format: String
    let zone: TimeZone

    init(format: String, zoneName: String?) {
        self.format = format
        zone = zoneName.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
    }

    /// How often the shown text can change: every second when the format
    /// shows seconds, else every minute (hours and dates change on minute
    /// boundaries too: every zone in use is a whole number of minutes off UTC).
    var granularity: Double {
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
    func text(at seconds: Double) -> String {
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

// MARK: drawing

/// A text item on a panel. The text is laid out and uploaded only when it
/// changes (the library keeps the laid-out block), and the panel asks for
/// no frames between changes: a file item waits on inotify, a clock on a
/// timer set to its next possible change.
@MainActor
final class TextMedia: PlayMedia {
    private let item: TextItem
    private let clock: ClockFace?
    /// The text of a string or file item (a clock's is computed when drawn).
    private var text: String
    private(set) var failure: String?
    var isReady: Bool { failure == nil }
    var isAnimated: Bool { false }
    var onChange: (() -> Void)?
    private var redraw: (@MainActor () -> Void)?
    private var watcher: FileWatcher?
    private var timer: (any DispatchSourceTimer)?
    /// The text last drawn: a clock redraws only when its text differs.
    private var drawnText: String?
    /// The last layout measured: the same text in the same box is not measured again.
    private var measured: (text: String, width: Int, pixels: Int, size: (width: Int, height: Int))?
    /// A file that became unreadable is said once, until it reads again.
    private var toldFileProblem = false

    init(_ item: TextItem) {
        self.item = item
        text = ""
        if case let .clock(format, zone) = item.content {
            clock = ClockFace(format: format, zoneName: zone)
        } else {
            clock = nil
        }
        switch item.content {
        case let .string(string): text = string
        case .clock, .ticker: break
        case let .file(path):
            switch SignageConfigLoader.readTextFile(path) {
            case let .success(read): text = read
            case let .failure(problem): failure = problem.description
            }
            // Watched from the start, so a preloaded item is current when its turn comes.
            watcher = FileWatcher(path: path) { [weak self] in self?.fileChanged(path) }
        }
    }

    func attach(redraw: @escaping @MainActor () -> Void) { self.redraw = redraw }

    func prepare(in context: DrawingContext) {}

    func start() { armClock() }

    func wallClockStepped() {
        guard clock != nil else { return }
        armClock()
        redrawIfTextChanged()
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        let shown = clock?.text(at: wallSeconds()) ?? text
        drawnText = shown
        try context.clear(item.background)
        let width = context.pixelWidth, height = context.pixelHeight
        let padding = min(item.padding, (min(width, height) - 1) / 2)
        let boxWidth = width - 2 * padding, boxHeight = height - 2 * padding
        let pixels = item.size ?? max(1, height / 10)
        guard !shown.isEmpty else { return }
        let size: (width: Int, height: Int)
        if let measured, measured.text == shown, measured.width == boxWidth, measured.pixels == pixels {
            size = measured.size
        } else {
            size = try context.textSize(shown, maxWidth: boxWidth, pixelHeight: pixels, font: item.font)
            measured = (shown, boxWidth, pixels, size)
        }
        let blockHeight = min(size.height, boxHeight)
        let y =
            switch item.verticalAlign {
            case .top: padding
            case .center: padding + (boxHeight - blockHeight) / 2
            case .bottom: padding + boxHeight - blockHeight
            }
        try context.drawText(
            shown, x: padding, y: y, maxWidth: boxWidth, maxHeight: boxHeight, pixelHeight: pixels,
            color: item.color, alignment: item.align, font: item.font)
    }

    func release(from app: Application?) {
        watcher?.stop()
        watcher = nil
        timer?.cancel()
        timer = nil
        redraw = nil
    }

    private func fileChanged(_ path: String) {
        switch SignageConfigLoader.readTextFile(path) {
        case let .success(read):
            toldFileProblem = false
            if failure != nil {
                // A file that could not be read when loaded: the panel
                // passed the item over, and it is tried again at its next turn.
                return
            }
            guard read != text else { return }
            text = read
            redraw?()
        case let .failure(problem):
            // Mid-save or removed: the text on screen stays.
            if !toldFileProblem { warn("\(path): \(problem); the text on screen stays until it reads again") }
            toldFileProblem = true
        }
    }

    /// Wakes at the next second or minute boundary (whichever the format
    /// can change at) and redraws only if the text moved on. The timer runs
    /// on the monotonic clock; a step of the wall clock re-arms it
    /// (`wallClockStepped`).
    private func armClock() {
        guard let clock else { return }
        timer?.cancel()
        let now = wallSeconds()
        let step = clock.granularity
        let delay = ((now / step).rounded(.down) + 1) * step - now + 0.002
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .milliseconds(1))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.redrawIfTextChanged()
                self?.armClock()
            }
        }
        timer.resume()
        self.timer = timer
    }

    private func redrawIfTextChanged() {
        guard let clock, clock.text(at: wallSeconds()) != drawnText else { return }
        redraw?()
    }
}
