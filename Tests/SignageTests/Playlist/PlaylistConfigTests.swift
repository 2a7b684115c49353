import Foundation
import Screenplay
import TestHarness
import XCTest

@testable import Signage

/// The playlist file is read strictly: each mistake is refused with exit 65
/// naming the file and the JSON path (a missing media file is no mistake:
/// it is skipped until it arrives).
final class PlaylistConfigTests: ScreenplayTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "screenplay-config-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: folder + "/a.png"))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func load(_ json: String) throws -> SignageConfig {
        let path = folder + "/p.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try SignageConfigLoader.load(path: path, itemSeconds: 10, warn: { _ in })
        // What the loader accepts, docs/playlist.schema.json accepts too.
        PlaylistSchema.assertMeets(json)
        return config
    }

    func assertRefused(_ json: String, code: PlaylistError.Code = .dataError, mentions: [String], line: UInt = #line) {
        do {
            _ = try load(json)
            XCTFail("accepted: \(json)", line: line)
        } catch let error as PlaylistError {
            XCTAssertEqual(error.code, code, error.description, line: line)
            XCTAssertTrue(
                error.description.contains(folder + "/p.json") || code == .noInput,
                "names the file: \(error.description)", line: line)
            for word in mentions {
                XCTAssertTrue(error.description.contains(word), "\(error.description) lacks \(word)", line: line)
            }
        } catch {
            XCTFail("\(error)", line: line)
        }
    }

    func testAValidPlaylistIsRead() throws {
        let config = try load(
            """
            {"playlists": {"lobby": [{"file": "a.png", "duration": 5}, {"color": "#102030", "transition": {"seconds": 0}}],
                           "menu": [{"color": "ff0000"}]},
             "panels": [{"match": "HDMI-*", "playlist": "menu", "rotate": 90}],
             "default": "lobby", "transition": {"seconds": 1.5}, "sync": false}
            """)
        XCTAssertEqual(config.sync, false)
        XCTAssertEqual(config.playlists["lobby"]?.items.map(\.duration), [5, 10])
        XCTAssertEqual(config.playlists["lobby"]?.items.map(\.transition), [1.5, 0])
        XCTAssertEqual(
            config.playlists["lobby"]?.items.first?.source, .image(path: folder + "/a.png"),
            "relative to the playlist's folder")
        XCTAssertEqual(
            config.playlists["lobby"]?.items.last?.source, .color(RGBColor(hex: 0x102030)), "colours keep their bytes")
        XCTAssertEqual(config.playlists["menu"]?.items.first?.label, "#FF0000")
        XCTAssertEqual(config.panels, [PanelRule(match: "HDMI-*", playlist: "menu", rotate: 90)])
        let hdmi = config.assignment(name: "HDMI-A-1", description: "", make: "", model: "", serial: nil)
        XCTAssertEqual(hdmi?.playlist.name, "menu")
        XCTAssertEqual(hdmi?.rotate, 90)
        XCTAssertEqual(
            config.assignment(name: "DP-1", description: "", make: "", model: "", serial: nil)?.playlist.name, "lobby")
        // Make, model and serial match too.
        let rules = SignageConfig(
            playlists: config.playlists, panels: [PanelRule(match: "SN123*", playlist: "menu", rotate: 0)],
            defaultPlaylist: nil, sync: true, source: "")
        XCTAssertEqual(
            rules.assignment(name: "DP-1", description: "", make: "Dell", model: "U2720Q", serial: "SN12345")?.playlist
                .name, "menu")
        XCTAssertNil(
            rules.assignment(name: "DP-2", description: "", make: "Dell", model: "U2720Q", serial: "XY")?.playlist.name)
    }

    func testEveryConfigurationErrorIsRefusedWithItsPath() {
        assertRefused("{", mentions: ["not valid JSON"])
        assertRefused("[]", mentions: ["expected an object"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "default": "a", "loop": true}"#,
            mentions: ["loop", "unknown key"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000", "colour": 1}]}, "default": "a"}"#,
            mentions: ["playlists.a[0].colour"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"match": "x", "playlist": "a", "extra": 1}]}"#,
            mentions: ["panels[0].extra"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "default": "a", "sync": "yes"}"#,
            mentions: ["sync", "true or false"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000", "duration": "5"}]}, "default": "a"}"#,
            mentions: ["playlists.a[0].duration"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000", "duration": -1}]}, "default": "a"}"#,
            mentions: ["playlists.a[0].duration"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "red"}]}, "default": "a"}"#, mentions: ["playlists.a[0].color", "RRGGBB"])
        assertRefused(#"{"playlists": {"a": {"color": "ff0000"}}, "default": "a"}"#, mentions: ["playlists.a", "list"])
        assertRefused(#"{"playlists": {"a": []}, "default": "a"}"#, mentions: ["playlists.a", "empty"])
        assertRefused(#"{"playlists": {}, "default": "a"}"#, mentions: ["playlists"])
        assertRefused(#"{"default": "a"}"#, mentions: ["playlists"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"match": "x", "playlist": "a"}, {"match": "y", "playlist": "b"}]}"#,
            mentions: ["panels[1].playlist", "\"b\""])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"match": "x", "playlist": 3}]}"#,
            mentions: ["panels[0].playlist"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"playlist": "a"}]}"#,
            mentions: ["panels[0]", "match"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"match": "HDMI-[12", "playlist": "a"}]}"#,
            mentions: ["panels[0].match", "unclosed"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"match": "", "playlist": "a"}]}"#,
            mentions: ["panels[0].match", "empty"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "panels": [{"match": "x", "playlist": "a", "rotate": 45}]}"#,
            mentions: ["panels[0].rotate"])
        assertRefused(#"{"playlists": {"a": [{"color": "ff0000"}]}, "default": "b"}"#, mentions: ["default", "\"b\""])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}}"#,
            mentions: ["no \"panels\", no \"walls\" and no \"default\""])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "default": "a", "transition": {"seconds": -1}}"#,
            mentions: ["transition.seconds"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000"}]}, "default": "a", "transition": 2}"#,
            mentions: ["transition", "object"])
        assertRefused(
            #"{"playlists": {"a": [{"color": "ff0000", "duration": 1, "transition": {"seconds": 2}}]}, "default": "a"}"#,
            mentions: ["playlists.a[0]", "shorter"])
        assertRefused(
            #"{"playlists": {"a": [{"file": "a.png", "color": "ff0000"}]}, "default": "a"}"#,
            mentions: ["playlists.a[0]", "not both"])
        assertRefused(#"{"playlists": {"a": [{}]}, "default": "a"}"#, mentions: ["playlists.a[0]", "\"file\""])
        assertRefused(
            #"{"playlists": {"a": [{"file": "a.png", "pages": "1-2"}]}, "default": "a"}"#,
            mentions: ["playlists.a[0].pages", "PDF"])
    }

    /// A file that is not there (yet) is an item that is skipped with its
    /// reason, not an error: playback starts and the file plays once it
    /// arrives. The playlist's files are what play watches.
    func testAMissingFileIsABadItemNotAnError() throws {
        let config = try load(
            #"{"playlists": {"a": [{"file": "a.png"}, {"file": "gone.png", "duration": 4}]}, "default": "a"}"#)
        let items = try XCTUnwrap(config.playlists["a"]?.items)
        guard case let .missing(path, reason) = items[1].source else { return XCTFail("\(items[1].source)") }
        XCTAssertEqual(path, folder + "/gone.png")
        XCTAssertTrue(reason.contains("no such file") && reason.contains("playlists.a[1].file"), reason)
        XCTAssertEqual(items[1].duration, 4)
        XCTAssertEqual(items[1].label, folder + "/gone.png")
        XCTAssertEqual(config.mediaFiles, [folder + "/a.png", folder + "/gone.png"])
    }

    func testPageRangesParse() {
        XCTAssertEqual(PlaylistItemParser.parsePages("1-3"), [0, 1, 2])
        XCTAssertEqual(PlaylistItemParser.parsePages("2, 5-6"), [1, 4, 5])
        XCTAssertNil(PlaylistItemParser.parsePages("0"))
        XCTAssertNil(PlaylistItemParser.parsePages("3-1"))
        XCTAssertNil(PlaylistItemParser.parsePages("a"))
        XCTAssertNil(PlaylistItemParser.parsePages(""))
        XCTAssertNil(PlaylistItemParser.parsePages("+2"), "digits only, as the schema says")
        XCTAssertNil(PlaylistItemParser.parsePages("1-+3"))
    }

    /// The schedule: the item at a wall-clock time, from the epoch (sync).
    func testScheduleFollowsTheClock() {
        let schedule = PlaySchedule(durations: [2, 3, 5], origin: 0)
        XCTAssertEqual(schedule.position(at: 0).index, 0)
        XCTAssertEqual(schedule.position(at: 1.99).index, 0)
        XCTAssertEqual(schedule.position(at: 2).index, 1)
        XCTAssertEqual(schedule.position(at: 4.99).index, 1)
        XCTAssertEqual(schedule.position(at: 5).index, 2)
        XCTAssertEqual(schedule.position(at: 10).index, 0)
        // Today: the slot boundaries are exact multiples of the cycle.
        let t = 1_800_000_003.5
        let p = schedule.position(at: t)
        XCTAssertEqual(p.index, 1)
        XCTAssertEqual(p.start, 1_800_000_002, accuracy: 1e-6)
        XCTAssertEqual(p.end, 1_800_000_005, accuracy: 1e-6)
        // Unsynced: counted from when the panel appeared.
        XCTAssertEqual(PlaySchedule(durations: [2, 3, 5], origin: 100).position(at: 100.5).index, 0)
    }

    /// A frame drawn near the end of its item's slot reaches the screen in
    /// the next slot: the first item at start is passed over then.
    func testAFrameThatWouldReachTheScreenAfterItsSlotIsLate() {
        let schedule = PlaySchedule(durations: [0.7, 0.7, 0.7], origin: 0)
        XCTAssertFalse(schedule.slotEnds(of: 1, before: 0.8, latency: 0.05))
        XCTAssertFalse(schedule.slotEnds(of: 1, before: 1.34, latency: 0.05))
        XCTAssertTrue(schedule.slotEnds(of: 1, before: 1.36, latency: 0.05), "shown at 1.41, in item 2's slot")
        XCTAssertTrue(schedule.slotEnds(of: 1, before: 1.5, latency: 0.05), "its slot was over at the draw")
        XCTAssertTrue(schedule.slotEnds(of: 2, before: 2.08, latency: 0.05), "shown in the next cycle's first slot")
        // A playlist of one item is never late: every slot is its own.
        XCTAssertFalse(PlaySchedule(durations: [0.7], origin: 0).slotEnds(of: 0, before: 0.69, latency: 0.05))
    }
}
