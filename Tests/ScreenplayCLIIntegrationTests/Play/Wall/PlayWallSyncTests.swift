import Foundation
import TestHarness
import TestSupport
import XCTest

/// A wall's tiles on one box show each picture of a video on the same
/// refresh, or where their outputs' refreshes are not aligned, within one
/// refresh of each other (`WallSync`, from `picture` lines with the time
/// each frame reached the screen). The benchmark's `wallsync` runs the
/// same for a minute on 2x1 and 2x2 walls, and beside a busy core; a 2x2
/// wall is not in the suite: four 60 Hz outputs beside another rig test
/// on two cores held the share only just (99.03 % in one run of ten).
final class PlayWallSyncTests: ScreenplayTestCase {
    func testTheTilesOfATwoTileWallShowEachPictureWithinOneRefresh() throws {
        try assertInStep(columns: 2, rows: 1)
    }

    /// Plays a `columns` x `rows` wall of 320x180 tiles (a clip of the
    /// canvas's size, 30 fps) and checks 15 s of its `picture` lines.
    func assertInStep(columns: Int, rows: Int, line: UInt = #line) throws {
        let count = columns * rows
        let rig = try startSway(Array(repeating: .init(width: 320, height: 180), count: count))
        let folder = try wallFolder()
        _ = try TestMedia.pattern(
            in: folder, name: "clip", seconds: 40, fps: 30, width: 320 * columns, height: 180 * rows)
        let names = (1...count).map { "HEADLESS-\($0)" }
        let tiles = names.enumerated().map { index, name in
            #"{"match": "\#(name)", "column": \#(index % columns), "row": \#(index / columns)}"#
        }
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"clip": [{"file": "clip.mp4"}]}, "walls": [{"playlist": "clip", "tiles": [\#(tiles.joined(separator: ", "))]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        var environment = env(rig)
        environment["SCREENPLAY_PLAY_PICTURES"] = "1"
        let p = try CLI.start(["play", path, "--stats", "-"], environment: environment)
        for output in names {
            XCTAssertNotNil(
                p.waitForEvent(timeout: 20) { $0.event == "picture" && $0.output == output }, "\(output): \(p.stderr)",
                line: line)
        }
        let start = p.statsEvents.count
        Thread.sleep(forTimeInterval: 15)
        let pictures = p.statsEvents.dropFirst(start).filter { $0.event == "picture" }.map {
            (tile: $0.output, serial: $0.int("serial"), shownNs: UInt64(max(0, $0.int("shown_ns"))))
        }
        let sync = WallSync(pictures: pictures, tiles: Set(names), refreshHz: 60)
        print("wall sync, \(columns)x\(rows) tiles, 15 s: \(sync)")
        // 15 s of a 30 fps clip is 450 pictures: most of them on every tile.
        XCTAssertGreaterThan(sync.onEveryTile, 150, "\(sync); \(p.stderr)", line: line)
        XCTAssertGreaterThanOrEqual(sync.withinShare, 0.99, "\(sync)", line: line)
        // The goal is none two refreshes apart and none skipped on a tile,
        // and the bench's quiet and busy-core minutes report both; here,
        // beside the suite's other rig tests, one tile's frame callback now
        // and then comes a refresh late (1 picture of about 440 in 2 of 10
        // runs at load 4), and beside a busy core a tile now and then skips
        // one (1 of about 470 in 2 of 10 runs, the pictures around it shown
        // on every tile), so the test holds the share and lets no more than
        // a hundredth slip either way.
        XCTAssertLessThanOrEqual(
            sync.twoOrMoreApart + sync.onSomeTiles, sync.onEveryTile / 100, "slipped: \(sync)", line: line)
        assertCleanStop(p, line: line)
    }
}
