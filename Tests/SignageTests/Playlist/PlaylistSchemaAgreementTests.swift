import Foundation
import Screenplay
import TestHarness
import XCTest

@testable import Signage

/// The schema and the loader agree on what is wrong: mistakes are refused
/// by both, and the schema's patterns take the values the parsers take.
extension PlaylistSchemaTests {
    /// Mistakes the schema can see, each refused by the loader (exit 65,
    /// naming the JSON path) and by the schema.
    func testMistakesAreRefusedByTheSchemaAndTheLoader() throws {
        func playlist(_ items: String, top: String = "") -> String {
            #"{"playlists": {"a": [\#(items)]}, "default": "a"\#(top)}"#
        }
        func panel(_ keys: String) -> String {
            #"{"playlists": {"a": [{"color": "000000"}]}, "panels": [{"match": "HDMI-A-1", "playlist": "a"\#(keys)}]}"#
        }
        func region(_ keys: String) -> String {
            #"{"playlists": {"a": [{"color": "000000"}]}, "layouts": {"m": {"regions": [{\#(keys)}]}}, "default": "m"}"#
        }
        let place = #""name": "r", "x": 0, "y": 0, "width": 10, "height": 10"#
        let mistakes: [(json: String, path: String)] = [
            (
                region(#""name": "r", "x": 0, "y": 0, "width": 0, "height": 1, "playlist": "a""#),
                "layouts.m.regions[0].width"
            ),
            (
                region(#""name": "r", "x": 0, "y": 0, "width": 1, "height": "120%", "playlist": "a""#),
                "layouts.m.regions[0].height"
            ),
            (
                region(#""name": "r", "x": "5e1%", "y": 0, "width": 1, "height": 1, "playlist": "a""#),
                "layouts.m.regions[0].x"
            ),
            (
                region(#""name": "r", "x": 0, "y": -1, "width": 1, "height": 1, "playlist": "a""#),
                "layouts.m.regions[0].y"
            ),
            (
                region(#""name": "", "x": 0, "y": 0, "width": 1, "height": 1, "playlist": "a""#),
                "layouts.m.regions[0].name"
            ),
            (region(place + #", "items": []"#), "layouts.m.regions[0].items"),
            (playlist(#"{"web": ""}"#), "playlists.a[0].web"),
            (playlist(#"{"web": "https://dash.example.com/", "file": "a.png"}"#), "playlists.a[0].file"),
            (
                playlist(
                    #"{"web": "https://dash.example.com/"}"#,
                    top: #", "web": {"allow": ["https://dash.example.com/x"]}"#), "web.allow[0]"
            ),
            (
                playlist(#"{"web": "https://dash.example.com/"}"#, top: #", "web": {"memory_limit_mb": 10}"#),
                "web.memory_limit_mb"
            ),
            (playlist(#"{"web": "https://dash.example.com/"}"#, top: #", "web": {"allowed": []}"#), "web.allowed"),
            (region(place), "layouts.m.regions[0]"),
            (region(place + #", "playlist": "a", "items": [{"color": "000000"}]"#), "layouts.m.regions[0]"),
            (region(place + #", "playlist": "a", "colour": "000000""#), "layouts.m.regions[0].colour"),
            (region(place + #", "playlist": "a", "z": 1.5"#), "layouts.m.regions[0].z"),
            (region(place + #", "playlist": "a", "background": "red""#), "layouts.m.regions[0].background"),
            (
                #"{"playlists": {"a": [{"color": "000000"}]}, "layouts": {"m": {"regions": []}}, "default": "a"}"#,
                "layouts.m.regions"
            ),
            (panel(#", "layout": "m""#), "panels[0]"),
            (playlist(#"{"color": "000000"}"#, top: #", "playlist": {}"#), "playlist"),
            (playlist(#"{"color": "000000"}"#, top: #", "$schema": 1"#), "$schema"),
            (playlist(#"{"color": "000000"}"#, top: #", "activate_at": "tomorrow""#), "activate_at"),
            (playlist(#"{"color": "000000"}"#, top: #", "activate_at": 1798135200"#), "activate_at"),
            (playlist(#"{"color": "000000"}"#, top: #", "sync": "yes""#), "sync"),
            (playlist(#"{"color": "000000"}"#, top: #", "transition": {"second": 1}"#), "transition.second"),
            (playlist(#"{"color": "000000"}"#, top: #", "timezone": """#), "timezone"),
            (#"{"playlists": {}, "default": "a"}"#, "playlists"),
            (#"{"playlists": {"a": []}, "default": "a"}"#, "playlists.a"),
            (#"{"playlists": {"a": [{"color": "000000"}]}, "panels": []}"#, ""),
            (playlist(#"{"file": "a.png", "color": "000000"}"#), "playlists.a[0]"),
            (playlist(#"{"color": "red"}"#), "playlists.a[0].color"),
            (playlist(#"{"color": "000000", "pages": "1"}"#), "playlists.a[0].pages"),
            (playlist(#"{"color": "000000", "duration": 0}"#), "playlists.a[0].duration"),
            (playlist(#"{"color": "000000", "transition": {"seconds": -1}}"#), "playlists.a[0].transition.seconds"),
            (playlist(#"{"file": ""}"#), "playlists.a[0].file"),
            (playlist(#"{"file": "a.png", "sha256": "abc"}"#), "playlists.a[0].sha256"),
            (playlist(#"{"file": "a.png", "sha256": 12}"#), "playlists.a[0].sha256"),
            (playlist(#"{"file": "a.png", "bytes": -1}"#), "playlists.a[0].bytes"),
            (playlist(#"{"file": "a.png", "bytes": 1.5}"#), "playlists.a[0].bytes"),
            (playlist(#"{"color": "000000", "bytes": 1}"#), "playlists.a[0].bytes"),
            (playlist(#"{"durations": 3}"#), "playlists.a[0].durations"),
            (playlist(#"{"text": "hi", "clock": "%H"}"#), "playlists.a[0]"),
            (playlist(#"{"text": "hi", "align": "left"}"#), "playlists.a[0].align"),
            (playlist(#"{"text": "hi", "valign": "middle"}"#), "playlists.a[0].valign"),
            (playlist(#"{"text": "hi", "size": 0}"#), "playlists.a[0].size"),
            (playlist(#"{"text": "hi", "size": 12.5}"#), "playlists.a[0].size"),
            (playlist(#"{"text": "hi", "padding": -1}"#), "playlists.a[0].padding"),
            (playlist(#"{"text": "hi", "font": "Sans 12"}"#), "playlists.a[0].font"),
            (playlist(#"{"text": "hi", "font": "Sans Bold 40px"}"#), "playlists.a[0].font"),
            (playlist(#"{"text": "hi", "background": "12345"}"#), "playlists.a[0].background"),
            (playlist(#"{"text": "hi", "font": "Sans .5"}"#), "playlists.a[0].font"),
            (playlist(#"{"text": "hi", "font": "Sans -12px  "}"#), "playlists.a[0].font"),
            (playlist(#"{"text": "hi", "font": "  "}"#), "playlists.a[0].font"),
            (playlist(#"{"text": "hi", "speed": 10}"#), "playlists.a[0].speed"),
            (playlist(#"{"text": "hi", "timezone": "UTC"}"#), "playlists.a[0].timezone"),
            (playlist(#"{"text": "hi", "pages": "1"}"#), "playlists.a[0].pages"),
            (playlist(#"{"clock": ""}"#), "playlists.a[0].clock"),
            (playlist(#"{"ticker": "news", "align": "start"}"#), "playlists.a[0].align"),
            (playlist(#"{"ticker": "news", "speed": 0}"#), "playlists.a[0].speed"),
            (playlist(#"{"ticker": "news", "speed": 20000}"#), "playlists.a[0].speed"),
            (playlist(#"{"ticker-file": ""}"#), "playlists.a[0].ticker-file"),
            (panel(#", "rotate": 45"#), "panels[0].rotate"),
            (panel(#", "output": "DP-1""#), "panels[0].output"),
            (
                #"{"playlists": {"a": [{"color": "000000"}]}, "panels": [{"match": " ", "playlist": "a"}]}"#,
                "panels[0].match"
            ),
            (#"{"playlists": {"a": [{"color": "000000"}]}, "panels": [{"playlist": "a"}]}"#, "panels[0]"),
            (panel(#", "schedule": {}"#), "panels[0].schedule"),
            (panel(#", "schedule": [{"days": ["mon"]}]"#), "panels[0].schedule[0]"),
            (panel(#", "schedule": [{"playlist": "a", "days": ["mon-fry"]}]"#), "panels[0].schedule[0].days[0]"),
            (panel(#", "schedule": [{"playlist": "a", "days": ["mo"]}]"#), "panels[0].schedule[0].days[0]"),
            (panel(#", "schedule": [{"playlist": "a", "days": []}]"#), "panels[0].schedule[0].days"),
            (panel(#", "schedule": [{"playlist": "a", "from": "25:00"}]"#), "panels[0].schedule[0].from"),
            (panel(#", "schedule": [{"playlist": "a", "from": "24:00"}]"#), "panels[0].schedule[0].from"),
            (panel(#", "schedule": [{"playlist": "a", "to": "24:30"}]"#), "panels[0].schedule[0].to"),
            (panel(#", "schedule": [{"playlist": "a", "to": "7:00"}]"#), "panels[0].schedule[0].to"),
            (panel(#", "schedule": [{"playlist": "a", "from": "+7:00"}]"#), "panels[0].schedule[0].from"),
            (panel(#", "schedule": [{"playlist": "a", "to": "07:+5"}]"#), "panels[0].schedule[0].to"),
            (
                panel(#", "schedule": [{"playlist": "a", "dates": {"to": "+026-12-01"}}]"#),
                "panels[0].schedule[0].dates.to"
            ),
            (panel(#", "schedule": [{"playlist": "a", "dates": {}}]"#), "panels[0].schedule[0].dates"),
            (
                panel(#", "schedule": [{"playlist": "a", "dates": {"from": "2026-13-01"}}]"#),
                "panels[0].schedule[0].dates.from"
            ),
            (
                panel(#", "schedule": [{"playlist": "a", "dates": {"until": "2026-12-01"}}]"#),
                "panels[0].schedule[0].dates.until"
            ),
            (panel(#", "schedule": [{"playlist": "a", "priority": "high"}]"#), "panels[0].schedule[0].priority"),
            (panel(#", "schedule": [{"playlist": "a", "priority": 1.5}]"#), "panels[0].schedule[0].priority"),
        ]
        let problems = try PlaylistSchema.problems(mistakes.map(\.json))
        for ((json, jsonPath), problem) in zip(mistakes, problems) {
            XCTAssertNotNil(problem, "the schema accepts \(json)")
            do {
                _ = try SignageConfigLoader.parse(Data(json.utf8), file: "/srv/p.json", itemSeconds: 10)
                XCTFail("the loader accepts \(json)")
            } catch {
                XCTAssertEqual(error.code, .dataError, error.description)
                let named = jsonPath.isEmpty ? "/srv/p.json: no " : "/srv/p.json: \(jsonPath): "
                XCTAssertTrue(error.description.hasPrefix(named), "\(error.description) does not name \(jsonPath)")
            }
        }
    }

    /// Value by value, the schema's patterns accept what the loader's
    /// parsers accept: times, dates, days, pages, colours and fonts.
    func testTheSchemasPatternsAgreeWithTheParsers() throws {
        let color = #"{"color": "000000"}"#
        func entry(_ keys: String) -> String {
            #"{"playlists": {"a": [\#(color)]}, "panels": [{"match": "*", "playlist": "a", "schedule": [{"playlist": "a", \#(keys)}]}]}"#
        }
        func item(_ item: String) -> String { #"{"playlists": {"a": [\#(item)]}, "default": "a"}"# }
        func quoted(_ text: String) -> String {
            String(
                decoding: try! JSONSerialization.data(withJSONObject: [text], options: .fragmentsAllowed), as: UTF8.self
            )
            .dropFirst().dropLast().description
        }
        let times = [
            "00:00", "23:59", "23:59:59", "07:30:05", "24:00", "24:00:00", "24:00:01", "7:00", "07:0", "+7:00",
            "07:+5", "07:60", "25:00", "07:00:60", "07-00", "", "07:00:00:00", "０７:００",
        ]
        let dates = [
            "2026-12-01", "2026-02-29", "2028-02-29", "0001-01-01", "2026-1-01", "+026-12-01", "2026-13-01",
            "2026-00-10", "2026-12-32", "26-12-01", "2026-12-01T00:00",
        ]
        let days = [
            "mon", "MON", "Monday", "monda", "mo", "mondays", "mon-fri", "fri-mon", "sat-Sunday", "mon-", "-fri",
            "mon-tue-wed", "thurs", "thursday", "tues", "weds", "wedn", "sun ", "",
        ]
        let pages = [
            "1", "1-3", "2, 5-6", " 1 ,2 ", "001", "0", "0-2", "1-", "-1", "+2", "1-+3", "1,,2", "", "a", "1 - 3",
        ]
        let colors = ["000000", "#A0b1C2", "ABCDEF", "12345", "1234567", "#12345", "GG0000", "##000000", " 000000"]
        let fonts = [
            "Sans", "Sans Bold", "Sans 12", "Sans 12.5", "Sans .5", "Sans 12.", "Sans 12px", "Sans -12", "Sans +3px",
            "Sans 12 ", "Sans\t12", "12", "Sans Infinity", "Sans 1e5", "Sans 12pt", " ", "", "Sans .", "Sans px",
        ]
        var cases: [(json: String, parsed: Bool, what: String)] = []
        for time in times {
            cases.append(
                (
                    entry(#""from": \#(quoted(time))"#), LocalCalendar.parseTime(time, allowEndOfDay: false) != nil,
                    "from \(time)"
                ))
            cases.append(
                (
                    entry(#""to": \#(quoted(time))"#), LocalCalendar.parseTime(time, allowEndOfDay: true) != nil,
                    "to \(time)"
                ))
        }
        for date in dates where date != "2026-02-29" {  // a date that does not exist: the loader's to see
            cases.append(
                (entry(#""dates": {"from": \#(quoted(date))}"#), LocalCalendar.parseDate(date) != nil, "date \(date)"))
        }
        for day in days {
            let json = entry(#""days": [\#(quoted(day))]"#)
            let parsed = (try? SignageConfigLoader.parse(Data(json.utf8), file: "/srv/p.json", itemSeconds: 10)) != nil
            cases.append((json, parsed, "day \(day)"))
        }
        for text in pages {
            cases.append(
                (
                    item(#"{"file": "a.pdf", "pages": \#(quoted(text))}"#), PlaylistItemParser.parsePages(text) != nil,
                    "pages \(text)"
                ))
        }
        for text in colors {
            cases.append((item(#"{"color": \#(quoted(text))}"#), RGBColor(parsing: text) != nil, "color \(text)"))
        }
        for font in fonts {
            let json = item(#"{"text": "hi", "font": \#(quoted(font))}"#)
            let parsed = (try? SignageConfigLoader.parse(Data(json.utf8), file: "/srv/p.json", itemSeconds: 10)) != nil
            cases.append((json, parsed, "font \(font)"))
        }
        let activations = [
            "2026-12-24T18:00:00Z", "2026-12-24T18:00:00.250Z", "2026-12-24T19:00:00+01:00", "2026-12-24T18:00:00",
            "2026-12-24 18:00:00Z", "2026-12-24T18:00Z", "2026-12-24T18:00:00+0100", "2026-12-24", "",
        ]
        for text in activations {
            cases.append(
                (
                    #"{"playlists": {"a": [\#(color)]}, "default": "a", "activate_at": \#(quoted(text))}"#,
                    SignageConfigLoader.activationTime(text) != nil, "activate_at \(text)"
                ))
        }
        for (field, values) in Dictionary(grouping: cases, by: { $0.what.prefix { $0 != " " } }) {
            XCTAssertEqual(Set(values.map(\.parsed)), [true, false], "\(field): values the parser takes and refuses")
        }
        for (value, problem) in zip(cases, try PlaylistSchema.problems(cases.map(\.json))) {
            XCTAssertEqual(
                problem == nil, value.parsed,
                "\(value.what): the parser says \(value.parsed), the schema \(problem ?? "yes")")
        }
    }
}
