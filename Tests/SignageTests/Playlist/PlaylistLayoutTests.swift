import Foundation
import Screenplay
import TestHarness
import XCTest

@testable import Signage

/// `"layouts"`: regions are read strictly (exit 65 naming the JSON path),
/// and a layout plays as a one-item playlist of its name, so panels,
/// schedule entries and `default` name it as they name a playlist.
extension PlaylistConfigTests {
    func layoutFile(_ regions: String, panel: String = #""layout": "m""#, extra: String = "") -> String {
        #"{"playlists": {"a": [{"color": "ff0000", "duration": 2}]}, "layouts": {"m": {"regions": [\#(regions)]}}, "panels": [{"match": "HDMI-A-1", \#(panel)}]\#(extra)}"#
    }

    func testALayoutIsRead() throws {
        let config = try load(
            """
            {"playlists": {"clips": [{"file": "a.png", "duration": 5}], "news": [{"ticker": "Open 7-22", "speed": 120}]},
             "layouts": {"menu": {"background": "101010", "regions": [
                {"name": "main", "x": 0, "y": 0, "width": "75%", "height": "90%", "playlist": "clips"},
                {"name": "clock", "x": "75%", "y": 0, "width": "25%", "height": "20%", "z": 1, "background": "000000",
                 "items": [{"clock": "%H:%M"}]},
                {"name": "ticker", "x": 0, "y": "90%", "width": "100%", "height": "10%", "playlist": "news",
                 "transition": {"seconds": 0.5}}]}},
             "panels": [{"match": "HDMI-A-1", "layout": "menu", "rotate": 90,
                         "schedule": [{"playlist": "clips", "from": "22:00", "to": "06:00"}]},
                        {"match": "DP-1", "playlist": "clips", "schedule": [{"layout": "menu", "from": "11:00", "to": "14:00"}]}],
             "default": "menu"}
            """)
        let played = try XCTUnwrap(config.playlists["menu"])
        guard case let .layout(layout)? = played.items.first?.source else { return XCTFail("\(played)") }
        XCTAssertEqual(played.items.count, 1)
        XCTAssertEqual(layout.background, RGBColor(hex: 0x101010))
        // Drawing order: by z, equal z as in the file.
        XCTAssertEqual(layout.regions.map(\.name), ["main", "ticker", "clock"])
        XCTAssertEqual(layout.regions[2].background, RGBColor(hex: 0x000000))
        XCTAssertEqual(layout.regions[2].playlist.name, "menu.clock")
        XCTAssertEqual(layout.regions[2].path, "layouts.menu.regions[1]")
        XCTAssertEqual(layout.regions[0].playlist, config.playlists["clips"])
        XCTAssertEqual(layout.regions[1].playlist.items.map(\.transition), [0.5], "the region's crossfade")
        XCTAssertEqual(config.playlists["news"]?.items.map(\.transition), [0], "the playlist itself keeps its own")
        XCTAssertEqual(
            layout.regions[0].rect(width: 1920, height: 1080).width
                + layout.regions[2].rect(width: 1920, height: 1080).width,
            1920, "75% and 25% meet without a gap")
        XCTAssertEqual(config.panels.map(\.playlist), ["menu", "clips"])
        XCTAssertEqual(config.panelSchedule(1)?.playlists.keys.sorted(), ["clips", "menu"])
        XCTAssertEqual(config.defaultPlaylist, "menu")
        // The files its regions play are watched for a reload.
        XCTAssertTrue(config.mediaFiles.contains(folder + "/a.png"))
        // A file of layouts alone, regions with their own items, needs no playlists.
        let alone = try load(
            #"{"layouts": {"m": {"regions": [{"name": "r", "x": 0, "y": 0, "width": 10, "height": 10, "items": [{"color": "00ff00"}]}]}}, "default": "m"}"#
        )
        XCTAssertEqual(alone.playlists.keys.sorted(), ["m"])
    }

    func testLayoutMistakesExit65NamingTheirJSONPath() {
        let region = #""name": "r", "x": 0, "y": 0, "width": "50%", "height": "50%""#
        let cases: [(String, [String])] = [
            (
                layoutFile("{\(region), \"items\": [{\"color\": \"000000\"}], \"colour\": 1}"),
                ["layouts.m.regions[0].colour", "unknown key"]
            ),
            (layoutFile("{\(region), \"items\": []}"), ["layouts.m.regions[0].items", "no items"]),
            (layoutFile("{\(region)}"), ["layouts.m.regions[0]: ", "exactly one"]),
            (
                layoutFile("{\(region), \"playlist\": \"a\", \"items\": [{\"color\": \"000000\"}]}"),
                ["layouts.m.regions[0]: "]
            ),
            (
                layoutFile("{\(region), \"playlist\": \"nope\"}"),
                ["layouts.m.regions[0].playlist", "no playlist named \"nope\""]
            ),
            (
                layoutFile(#"{"name": "r", "x": 0, "y": 0, "width": 0, "height": 10, "playlist": "a"}"#),
                ["layouts.m.regions[0].width", "more than 0"]
            ),
            (
                layoutFile(#"{"name": "r", "x": -5, "y": 0, "width": 10, "height": 10, "playlist": "a"}"#),
                ["layouts.m.regions[0].x"]
            ),
            (
                layoutFile(#"{"name": "r", "x": 0, "y": 0, "width": 10, "height": "120%", "playlist": "a"}"#),
                ["layouts.m.regions[0].height", "up to 100%"]
            ),
            (
                layoutFile(#"{"name": "r", "x": "5e1%", "y": 0, "width": 10, "height": 10, "playlist": "a"}"#),
                ["layouts.m.regions[0].x"]
            ),
            (
                layoutFile(#"{"name": "r", "x": "60%", "y": 0, "width": "50%", "height": 10, "playlist": "a"}"#),
                ["layouts.m.regions[0]: ", "110.0% of the panel's width"]
            ),
            (
                layoutFile(#"{"name": "r", "y": 0, "width": 10, "height": 10, "playlist": "a"}"#),
                ["layouts.m.regions[0]: ", "missing \"x\""]
            ),
            (
                layoutFile("{\(region), \"playlist\": \"a\"}, {\(region), \"playlist\": \"a\"}"),
                ["layouts.m.regions[1].name", "\"r\""]
            ),
            (
                layoutFile("{\(region), \"playlist\": \"a\", \"transition\": {\"seconds\": 3}}"),
                ["layouts.m.regions[0].transition", "shorter"]
            ),
            (
                layoutFile("{\(region), \"playlist\": \"a\"}", panel: #""layout": "n""#),
                ["panels[0].layout", "no layout named \"n\""]
            ),
            (
                layoutFile("{\(region), \"playlist\": \"a\"}", panel: #""layout": "m", "playlist": "a""#),
                ["panels[0]: ", "not both"]
            ),
            (
                #"{"playlists": {"a": [{"color": "000000"}]}, "layouts": {"m": {"regions": []}}, "default": "a"}"#,
                ["layouts.m.regions"]
            ),
            (
                #"{"playlists": {"a": [{"color": "000000"}]}, "layouts": {"m": {"region": []}}, "default": "a"}"#,
                ["layouts.m.region"]
            ),
            (
                #"{"playlists": {"a": [{"color": "000000"}]}, "layouts": {"a": {"regions": [{"name": "r", "x": 0, "y": 0, "width": 1, "height": 1, "playlist": "a"}]}}, "default": "a"}"#,
                ["layouts.a", "also named"]
            ),
        ]
        for (json, mentions) in cases { assertRefused(json, mentions: mentions) }
    }

    /// What only the panel's size can tell: a region past its edge, named
    /// with the amount and what to change.
    func testARegionPastThePanelsEdgeIsNamed() throws {
        let config = try load(
            layoutFile(
                #"{"name": "wide", "x": 100, "y": 0, "width": 600, "height": "100%", "playlist": "a"}, {"name": "low", "x": 0, "y": "50%", "width": "10%", "height": 200, "playlist": "a"}"#
            ))
        guard case let .layout(layout)? = config.playlists["m"]?.items.first?.source else { return XCTFail() }
        XCTAssertNil(layout.misfit(width: 1920, height: 1080))
        let wide = try XCTUnwrap(layout.misfit(width: 640, height: 480))
        for word in [
            "region \"wide\"", "layout \"m\"", "layouts.m.regions[0]", "60 px past the right edge", "640x480", "%",
        ] {
            XCTAssertTrue(wide.contains(word), "\(wide) lacks \(word)")
        }
        // A panel less high than the region reaches: the bottom edge is named.
        let turned = try XCTUnwrap(layout.misfit(width: 720, height: 360))
        XCTAssertTrue(turned.contains("region \"low\"") && turned.contains("20 px past the bottom edge"), turned)
    }
}
