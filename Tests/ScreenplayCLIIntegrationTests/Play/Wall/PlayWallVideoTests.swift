import Foundation
import TestHarness
import TestSupport
import XCTest

/// A wall's content produced once: a clip decoded once, a picture
/// uploaded once and a web page rendered once for all its tiles, while
/// each tile shows its own part.
final class PlayWallVideoTests: ScreenplayTestCase {
    /// A 2x1 wall of one picture: both tiles show their parts, and the
    /// process holds one picture texture for it (the `graphics` stats line,
    /// every ten seconds), not one per tile.
    func testATwoTileWallUploadsItsPictureOnce() throws {
        let rig = try startSway([.init(width: 320, height: 180), .init(width: 320, height: 180)])
        let folder = try wallFolder()
        try writeCoordinatePicture(folder + "/wide.png", width: 640, height: 180)
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"wide": [{"file": "wide.png"}]}, "walls": [{"playlist": "wide", "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", path, "--stats", "-"], environment: env(rig))
        for (output, offset) in [("HEADLESS-1", 0), ("HEADLESS-2", 320)] {
            XCTAssertNotNil(
                p.waitForEvent(timeout: 20) { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
            var result = (count: -1, first: [String]())
            _ = waitUntil(timeout: 10) {
                guard let image = try? rig.capture(output: output) else { return false }
                result = self.misplaced(image, expected: { ($0 + offset, $1) })
                return result.count == 0
            }
            XCTAssertEqual(result.count, 0, "\(output) shows its part: \(result.first)")
        }
        let graphics = p.waitForEvent(timeout: 25) { $0.event == "graphics" }
        XCTAssertEqual(graphics?.int("picture_textures"), 1, "one texture serves both tiles: \(p.stderr)")
        assertCleanStop(p)
    }

    /// A 2x1 wall whose playlist is one clip, as a user writes it: red on
    /// the clip's left half, blue on its right. Each output shows its half
    /// and draws new pictures, while the process runs one libmpv video
    /// output thread (one decode), not one per tile.
    func testATwoTileWallDecodesItsVideoOnce() throws {
        let rig = try startSway([.init(width: 320, height: 180), .init(width: 320, height: 180)])
        let folder = try wallFolder()
        _ = try TestMedia.halves(in: folder, name: "clip", left: "red", right: "blue", seconds: 20)
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"clip": [{"file": "clip.mp4"}]}, "walls": [{"playlist": "clip", "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", path, "--stats", "-"], environment: env(rig))
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            XCTAssertNotNil(
                p.waitForEvent(timeout: 20) { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
        }
        Thread.sleep(forTimeInterval: 1)
        let start = p.statsEvents.count
        var outputThreads: [Int] = []
        for _ in 0..<8 {
            outputThreads.append(PlayMirrorTests.threads(of: p.pid, named: "mpv/vo"))
            Thread.sleep(forTimeInterval: 0.5)
        }
        let halves = ["HEADLESS-1": RGB(hex: 0xff0000), "HEADLESS-2": RGB(hex: 0x0000ff)]
        for (output, colour) in halves.sorted(by: { $0.key < $1.key }) {
            let shot = try rig.capture(output: output)
            // Away from the seam and the edges: H.264's colour is near, not exact.
            let points = [(shot.width / 4, shot.height / 2), (shot.width * 3 / 4, shot.height / 2)]
            for (x, y) in points {
                let pixel = shot.pixel(x: x, y: y)
                XCTAssertTrue(
                    abs(Int(pixel.r) - Int(colour.r)) < 40 && abs(Int(pixel.g) - Int(colour.g)) < 40
                        && abs(Int(pixel.b) - Int(colour.b)) < 40,
                    "\(output) at (\(x), \(y)) shows \(pixel), not its half's \(colour)")
            }
        }
        let frames = p.statsEvents.dropFirst(start).filter { $0.event == "frames" }
        for output in halves.keys.sorted() {
            let drawn = frames.filter { $0.output == output }.reduce(0) { $0 + max(0, $1.int("video_frames")) }
            XCTAssertGreaterThan(drawn, 10, "\(output) drew new video pictures: \(p.stderr)")
        }
        XCTAssertEqual(outputThreads, Array(repeating: 1, count: 8), "one video output thread serves both tiles")
        assertCleanStop(p)
    }

    /// A 2x1 wall of 320x180 tiles playing a video that fills the
    /// 640x180 canvas at its own size, then one of 320x180 (centred,
    /// black on each side): every tile shows exactly its part, pixel for
    /// pixel on both sides of the seam and at the bars' edges, and reads it
    /// straight from the wall's picture into its buffer rather than
    /// drawing it (`read_back`, for at least half the pictures it shows).
    /// The clip is a coordinate picture stored losslessly, so each pixel
    /// tells which pixel of the video it is.
    func testATwoTileWallReadsEachTilesPartOfItsVideoPixelExact() throws {
        let rig = try startSway([.init(width: 320, height: 180), .init(width: 320, height: 180)])
        let folder = try wallFolder()
        for (clipWidth, left) in [(640, 0), (320, 160)] {
            try writeCoordinatePicture(folder + "/still.png", width: clipWidth, height: 180)
            let clip = try TestMedia.still(
                in: folder, name: "clip\(clipWidth)", picture: folder + "/still.png", seconds: 20)
            let path = folder + "/wall\(clipWidth).json"
            try
                #"{"playlists": {"clip": [{"file": "\#(clip)"}]}, "walls": [{"playlist": "clip", "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]}]}"#
                .write(toFile: path, atomically: true, encoding: .utf8)
            let p = try CLI.start(["play", path, "--stats", "-"], environment: env(rig))
            let tiles = [("HEADLESS-1", 0), ("HEADLESS-2", 320)]
            for (output, _) in tiles {
                XCTAssertNotNil(
                    p.waitForEvent(timeout: 20) { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
            }
            let start = p.statsEvents.count
            for (output, offset) in tiles {
                // The video's pixel under each of the tile's, black (0, 0) where the video does not reach.
                let expected = { (x: Int, y: Int) -> (x: Int, y: Int) in
                    let canvas = x + offset
                    return canvas >= left && canvas < left + clipWidth ? (canvas - left, y) : (0, 0)
                }
                var result = (count: -1, first: [String]())
                _ = waitUntil(timeout: 10) {
                    guard let image = try? rig.capture(output: output) else { return false }
                    result = self.misplaced(image, expected: expected)
                    return result.count == 0
                }
                XCTAssertEqual(result.count, 0, "\(clipWidth)-pixel clip, \(output) shows its part: \(result.first)")
            }
            Thread.sleep(forTimeInterval: 3)
            let frames = p.statsEvents.dropFirst(start).filter { $0.event == "frames" }
            for (output, _) in tiles {
                let mine = frames.filter { $0.output == output }
                let pictures = mine.reduce(0) { $0 + max(0, $1.int("video_frames")) }
                let read = mine.reduce(0) { $0 + max(0, $1.int("read_back")) }
                XCTAssertGreaterThan(pictures, 10, "\(output) drew new video pictures: \(p.stderr)")
                XCTAssertGreaterThanOrEqual(
                    read, pictures / 2, "\(output): \(pictures) pictures, \(read) read back undrawn: \(p.stderr)")
            }
            assertCleanStop(p)
        }
    }

    /// A 2x1 wall of a local web page, as a user writes it: red on the
    /// canvas's left half, blue on its right. Each output shows its half,
    /// and one web process renders the page for both tiles, not one each.
    func testATwoTileWallRendersItsWebPageOnce() throws {
        let rig = try startSway([.init(width: 320, height: 180), .init(width: 320, height: 180)])
        let folder = try wallFolder()
        try Data(
            """
            <html><body style="margin:0">
            <div style="position:absolute;left:0;top:0;width:320px;height:180px;background:#ff0000"></div>
            <div style="position:absolute;left:320px;top:0;width:320px;height:180px;background:#0000ff"></div>
            </body></html>
            """.utf8
        ).write(to: URL(fileURLWithPath: folder + "/halves.html"))
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"page": [{"web": "halves.html"}]}, "walls": [{"playlist": "page", "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", path, "--stats", "-"], environment: env(rig))
        let halves = [("HEADLESS-1", RGB(hex: 0xff0000)), ("HEADLESS-2", RGB(hex: 0x0000ff))]
        for (output, colour) in halves {
            var seen: [RGB] = []
            let shown = waitUntil(timeout: 40) {
                guard let shot = try? rig.capture(output: output) else { return false }
                seen = [(2, 2), (160, 90), (317, 177)].map { shot.pixel(x: $0.0, y: $0.1) }
                return seen.allSatisfy { $0 == colour }
            }
            XCTAssertTrue(shown, "\(output) shows its half \(colour), edge to edge: \(seen); \(p.stderr)")
        }
        var processes: [Int] = []
        for _ in 0..<4 {
            processes.append(Self.webProcesses(under: p.pid).count)
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertEqual(processes, [1, 1, 1, 1], "one web process renders the page for both tiles")
        assertCleanStop(p)
    }

    /// The live WPEWebProcess descendants of `pid`.
    static func webProcesses(under pid: Int32) -> [Int32] {
        ProcessUsage.descendants(of: pid).filter { child in
            let comm = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix("WPEWebProcess")
        }
    }
}
