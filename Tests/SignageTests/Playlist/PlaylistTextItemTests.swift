import Foundation
import Screenplay
import TestHarness
import XCTest

@testable import Signage

/// Text, text-file and clock items of a playlist: read strictly (each
/// mistake exits 65 naming the JSON path), and a clock's text in its own
/// time zone whatever the process's TZ.
extension PlaylistConfigTests {
    /// Reads a playlist whose one playlist is `items` (a JSON list's inside),
    /// beside a `news.txt`.
    func loadTextItems(_ items: String) throws -> [PlayItem] {
        try "Today: soup\n".write(toFile: folder + "/news.txt", atomically: true, encoding: .utf8)
        return try load("{\"playlists\": {\"lobby\": [\(items)]}, \"default\": \"lobby\"}").playlists["lobby"]?
            .items ?? []
    }

    /// Refused with exit 65 (`dataError`), naming the file and `jsonPath`.
    func assertTextItemRefused(_ items: String, path jsonPath: String, mentions: [String] = [], line: UInt = #line) {
        assertRefused(
            "{\"playlists\": {\"lobby\": [\(items)]}, \"default\": \"lobby\"}",
            mentions: ["p.json: \(jsonPath): "] + mentions, line: line)
    }

    func testTextItemsAreRead() throws {
        let items = try loadTextItems(
            """
            {"text": "Welcome", "font": "Sans Bold", "size": 64, "color": "FFCC00", "background": "#102030",
             "align": "start", "valign": "bottom", "padding": 40, "duration": 5},
            {"text-file": "news.txt"},
            {"clock": "%H:%M", "timezone": "Europe/Berlin", "align": "end"},
            {"clock": "%a %d"}
            """)
        XCTAssertEqual(items.count, 4)
        var welcome = TextItem(content: .string("Welcome"))
        welcome.font = "Sans Bold"
        welcome.size = 64
        welcome.color = RGBColor(hex: 0xffcc00)
        welcome.background = RGBColor(hex: 0x102030)
        welcome.align = .left
        welcome.verticalAlign = .bottom
        welcome.padding = 40
        XCTAssertEqual(items[0].source, .text(welcome))
        XCTAssertEqual(items[0].duration, 5)
        XCTAssertEqual(items[0].label, "text:Welcome")
        XCTAssertEqual(
            items[1].source, .text(TextItem(content: .file(path: folder + "/news.txt"))),
            "relative to the playlist's folder, defaults for the rest")
        XCTAssertEqual(items[1].path, folder + "/news.txt")
        var berlin = TextItem(content: .clock(format: "%H:%M", zone: "Europe/Berlin"))
        berlin.align = .right
        XCTAssertEqual(items[2].source, .text(berlin))
        XCTAssertEqual(items[3].source, .text(TextItem(content: .clock(format: "%a %d", zone: nil))))

        let tickers = try loadTextItems(
            #"{"ticker": "Breaking", "speed": 90.5, "valign": "bottom"}, {"ticker-file": "news.txt"}"#)
        var breaking = TextItem(content: .ticker(text: "Breaking", path: nil, speed: 90.5))
        breaking.verticalAlign = .bottom
        XCTAssertEqual(tickers.first?.source, .text(breaking))
        XCTAssertEqual(tickers.first?.label, "ticker:Breaking")
        XCTAssertEqual(
            tickers.last?.source, .text(TextItem(content: .ticker(text: nil, path: folder + "/news.txt", speed: 120))),
            "120 px/s unless told")
        XCTAssertEqual(tickers.last?.path, folder + "/news.txt")
    }

    /// The item re-reads its own file; the playlist is not reloaded for it.
    func testATextFileIsNotAReloadingMediaFile() throws {
        try "news".write(toFile: folder + "/news.txt", atomically: true, encoding: .utf8)
        let config = try load(#"{"playlists": {"a": [{"text-file": "news.txt"}, {"file": "x.png"}]}, "default": "a"}"#)
        XCTAssertEqual(config.mediaFiles, [folder + "/x.png"])
    }

    func testEveryTextItemMistakeIsRefusedWithItsPath() throws {
        _ = try loadTextItems(#"{"text": "fine"}"#)
        assertTextItemRefused(
            #"{"text": "Hi", "colour": "FFFFFF"}"#, path: "playlists.lobby[0].colour",
            mentions: ["unknown key \"colour\"", "background"])
        assertTextItemRefused(
            #"{"text": "Hi", "file": "a.png"}"#, path: "playlists.lobby[0].file", mentions: ["unknown key"])
        assertTextItemRefused(
            #"{"text": "Hi", "color": "white"}"#, path: "playlists.lobby[0].color", mentions: ["RRGGBB"])
        assertTextItemRefused(
            #"{"text": "Hi", "background": "12345"}"#, path: "playlists.lobby[0].background", mentions: ["RRGGBB"])
        assertTextItemRefused(
            #"{"clock": "%H:%M", "timezone": "Europe/Atlantis"}"#, path: "playlists.lobby[0].timezone",
            mentions: ["unknown time zone \"Europe/Atlantis\"", "Europe/Berlin"])
        assertTextItemRefused(
            #"{"text": "Hi", "timezone": "Europe/Berlin"}"#, path: "playlists.lobby[0].timezone",
            mentions: ["clock items only"])
        assertTextItemRefused(
            #"{"text-file": "gone.txt"}"#, path: "playlists.lobby[0].text-file",
            mentions: [folder + "/gone.txt", "no such file"])
        try Data([0x48, 0xff, 0xfe, 0x00]).write(to: URL(fileURLWithPath: folder + "/latin1.txt"))
        assertTextItemRefused(
            #"{"text-file": "latin1.txt"}"#, path: "playlists.lobby[0].text-file", mentions: ["not UTF-8", "save it"])
        assertTextItemRefused(
            #"{"ticker": "News", "speed": 0}"#, path: "playlists.lobby[0].speed", mentions: ["pixels a second"])
        assertTextItemRefused(
            #"{"ticker": "News", "align": "start"}"#, path: "playlists.lobby[0].align", mentions: ["whole panel"])
        assertTextItemRefused(#"{"text": "Hi", "speed": 50}"#, path: "playlists.lobby[0].speed", mentions: ["ticker"])
        assertTextItemRefused(
            #"{"ticker-file": "gone.txt"}"#, path: "playlists.lobby[0].ticker-file", mentions: ["no such file"])
        assertTextItemRefused(#"{"clock": ""}"#, path: "playlists.lobby[0].clock", mentions: ["%H:%M"])
        assertTextItemRefused(
            #"{"text": "Hi", "clock": "%H"}"#, path: "playlists.lobby[0]", mentions: ["not text and clock"])
        assertTextItemRefused(#"{"text": 12}"#, path: "playlists.lobby[0].text", mentions: ["expected a string"])
        assertTextItemRefused(#"{"text": "Hi", "size": 0}"#, path: "playlists.lobby[0].size", mentions: ["pixels"])
        assertTextItemRefused(
            #"{"text": "Hi", "size": 12.5}"#, path: "playlists.lobby[0].size", mentions: ["whole number"])
        assertTextItemRefused(
            #"{"text": "Hi", "font": "Sans Bold 48"}"#, path: "playlists.lobby[0].font", mentions: ["\"size\""])
        assertTextItemRefused(
            #"{"text": "Hi", "align": "left"}"#, path: "playlists.lobby[0].align",
            mentions: ["\"start\", \"center\" or \"end\"", "\"left\""])
        assertTextItemRefused(
            #"{"text": "Hi", "valign": "middle"}"#, path: "playlists.lobby[0].valign", mentions: ["top"])
        assertTextItemRefused(
            #"{"text": "Hi", "padding": -1}"#, path: "playlists.lobby[0].padding", mentions: ["0 or more"])
        assertTextItemRefused(
            #"{"text": "Hi", "duration": 2, "transition": {"seconds": 3}}"#, path: "playlists.lobby[0]",
            mentions: ["crossfade"])
    }

    func testATextFileLosesOnlyItsLastNewlines() {
        let path = folder + "/lines.txt"
        try? "one\ntwo\n\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try TextItem.readFile(path).get(), "one\ntwo")
    }

    /// The zone's own offset and abbreviation, winter and summer, whatever
    /// TZ the process has: 2026-01-15 and 2026-07-15, 12:34:56 UTC.
    func testAClockShowsItsZonesTime() {
        let winter = 1_768_480_496.0, summer = 1_784_118_896.0
        let berlin = ClockFace(format: "%Y-%m-%d %H:%M:%S %z", zoneName: "Europe/Berlin")
        XCTAssertEqual(berlin.text(at: winter + 0.9), "2026-01-15 13:34:56 +0100", "seconds are not rounded up")
        XCTAssertEqual(berlin.text(at: summer), "2026-07-15 14:34:56 +0200")
        let tokyo = ClockFace(format: "%H:%M", zoneName: "Asia/Tokyo")
        XCTAssertEqual(tokyo.text(at: winter), "21:34")
        let kathmandu = ClockFace(format: "%H:%M", zoneName: "Asia/Kathmandu")
        XCTAssertEqual(kathmandu.text(at: winter), "18:19", "a zone 5:45 off UTC")
        XCTAssertEqual(ClockFace(format: "%A", zoneName: "UTC").text(at: winter), "Thursday")
        XCTAssertEqual(
            ClockFace(format: "%s %%s %H", zoneName: "Asia/Tokyo").text(at: winter), "1768480496 %s 21",
            "%s is the epoch, in any zone")
        XCTAssertEqual(
            ClockFace(format: String(repeating: "%A ", count: 200), zoneName: "UTC").text(at: winter).count, 1800)
        XCTAssertEqual(ClockFace(format: "100%", zoneName: "UTC").text(at: winter), "100%")
        // Foundation names a zone by its offset, not its tz abbreviation (CET): docs/signage.md says so.
        XCTAssertEqual(ClockFace(format: "%Z", zoneName: "Europe/Berlin").text(at: summer), "GMT+2")
    }

    /// A clock wakes only when its text can change: each second if it shows
    /// seconds, else each minute.
    func testAClockWakesAtItsFormatsFinestUnit() {
        XCTAssertEqual(ClockFace(format: "%H:%M", zoneName: nil).granularity, 60)
        XCTAssertEqual(ClockFace(format: "%A %d %B", zoneName: nil).granularity, 60)
        XCTAssertEqual(ClockFace(format: "%H:%M:%S", zoneName: nil).granularity, 1)
        XCTAssertEqual(ClockFace(format: "%T", zoneName: nil).granularity, 1)
        XCTAssertEqual(ClockFace(format: "%OS", zoneName: nil).granularity, 1)
        XCTAssertEqual(ClockFace(format: "100%% %M", zoneName: nil).granularity, 60, "%% is a literal percent sign")
    }
}

extension PlaylistConfigTests {
    /// The signage guide's text example (docs/signage.md, "Text and clocks") is a
    /// playlist `play` accepts, item for item.
    func testTheSignageGuidesTextExampleIsRead() throws {
        let guide = try String(
            contentsOf: PlaylistSchema.root.appendingPathComponent("docs/signage.md"), encoding: .utf8)
        let section = try XCTUnwrap(
            guide.range(of: "**Text and clocks.**"), "docs/signage.md has no \"**Text and clocks.**\" section")
        let rest = guide[section.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "```json\n"))
        let close = try XCTUnwrap(rest[open.upperBound...].range(of: "```"))
        try "news".write(toFile: folder + "/news.txt", atomically: true, encoding: .utf8)
        try "headline".write(toFile: folder + "/headlines.txt", atomically: true, encoding: .utf8)
        let config = try load(String(rest[open.upperBound..<close.lowerBound]))
        let kinds = config.playlists["lobby"]?.items.map { item -> String in
            guard case let .text(text) = item.source else { return "not text" }
            switch text.content {
            case .string: return "text"
            case .file: return "file"
            case .clock: return "clock"
            case .ticker: return "ticker"
            }
        }
        XCTAssertEqual(kinds, ["text", "file", "clock", "text", "ticker"])
    }
}
