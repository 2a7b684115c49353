import Foundation
import TestHarness
import TestSupport
import XCTest

/// A wall of several boxes: each box is a `play` of the same wall file on
/// its own outputs (here one headless sway's two outputs, each box told
/// its own with `--output`), decoding the video itself. Each puts the
/// video where the wall clock says, so at any instant the boxes show the
/// same frame or the next (`BoxSpread`, from their `picture` lines), and
/// a box stopped for seconds catches up within two. The benchmark's
/// `wallboxes` runs the same for ten minutes.
final class PlayWallBoxesTests: ScreenplayTestCase {
    /// The clip: 30 fps, looping in its hour-long slot every `clipSeconds`
    /// (a minute, as the benchmark's: each loop's end is a seek on every box).
    static let fps = 30
    static let clipSeconds = 60

    func testTwoBoxesShowTheSameFrameAndAStoppedOneCatchesUpWithinTwoSeconds() throws {
        let names = ["HEADLESS-1", "HEADLESS-2"]
        let rig = try startSway(Array(repeating: .init(width: 320, height: 180), count: names.count))
        let folder = try wallFolder()
        let wall = try writeWall(in: folder, names: names)
        // The second box starts 1.5 s after the first: where each video is
        // must come from the clock, not from when its box started.
        let boxes = try names.enumerated().map { index, name in
            if index > 0 { Thread.sleep(forTimeInterval: 1.5) }
            return try startBox(wall, output: name, folder: folder + "/box\(index + 1)", env(rig))
        }
        defer { for box in boxes where box.isRunning { box.kill() } }
        for (box, name) in zip(boxes, names) {
            XCTAssertNotNil(
                box.waitForEvent(timeout: 20) { $0.event == "picture" && $0.raw["frame"] != nil },
                "\(name): no picture with a frame number; \(box.stderr)")
        }
        // The boxes' first seeks to the clock's position.
        Thread.sleep(forTimeInterval: 3)
        let from = BoxSpread.monotonicNowNs()
        Thread.sleep(forTimeInterval: 30)
        let to = BoxSpread.monotonicNowNs()
        let refresh: UInt64 = 1_000_000_000 / 60
        let loop = Self.fps * Self.clipSeconds
        let steady = BoxSpread(
            boxes: boxes.map(pictures), fromNs: from, toNs: to, stepNs: refresh, loopFrames: loop)
        print("wall of two boxes, 30 s: \(steady)")
        // One sample a refresh over 30 s: 1,800, every box showing by then.
        XCTAssertGreaterThan(steady.samples, 1700, "\(steady)")
        // The goal, 99 % of refreshes within one frame, is the ten-minute
        // benchmark's (`wallboxes`: 99.47 % at load 3 to 4). Thirty seconds on
        // a loaded machine gave 95.45 % to 100 %, so the test asks for 90 %:
        // enough to fail without the clock (0 %), not one machine's margin.
        XCTAssertGreaterThanOrEqual(steady.withinOneShare, 0.90, "\(steady); \(boxes.map(\.stderr))")

        // The second box stopped for 5 s is 5 s behind when let go.
        boxes[1].send(SIGSTOP)
        Thread.sleep(forTimeInterval: 5)
        boxes[1].send(SIGCONT)
        let resumed = BoxSpread.monotonicNowNs()
        Thread.sleep(forTimeInterval: 4.5)
        let stoppedSpread = BoxSpread.spread(boxes: boxes.map(pictures), at: resumed, loopFrames: loop) ?? 0
        XCTAssertGreaterThan(stoppedSpread, 100, "the stopped box showed the frame of 5 s before when let go")
        let recovery = BoxSpread.recovery(
            boxes: boxes.map(pictures), fromNs: resumed, toNs: BoxSpread.monotonicNowNs(), stepNs: refresh,
            holdNs: 500_000_000, loopFrames: loop)
        print(
            "wall of two boxes: a box stopped for 5 s was back within one frame after \(recovery.map { String(format: "%.2f s", $0) } ?? "never")"
        )
        XCTAssertLessThanOrEqual(try XCTUnwrap(recovery, "never back within one frame: \(boxes[1].stderr)"), 2.0)
        for box in boxes { assertCleanStop(box) }
    }

    private func pictures(_ box: RunningProcess) -> BoxSpread.Pictures {
        BoxSpread.pictures(fromLines: box.stdoutLines)
    }

    /// One wall across `names`, each a tile, playing a looping clip of the canvas's size.
    private func writeWall(in folder: String, names: [String]) throws -> String {
        _ = try TestMedia.pattern(
            in: folder, name: "clip", seconds: Double(Self.clipSeconds), fps: Self.fps, width: 320 * names.count,
            height: 180)
        let tiles = names.enumerated().map { #"{"match": "\#($1)", "column": \#($0), "row": 0}"# }
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"clip": [{"file": "clip.mp4", "duration": 3600}]}, "walls": [{"playlist": "clip", "tiles": [\#(tiles.joined(separator: ", "))]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A box: `play` of `wall` on `output` only, with its own control
    /// socket and state folder as a box of its own has.
    private func startBox(_ wall: String, output: String, folder: String, _ base: [String: String]) throws
        -> RunningProcess
    {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var environment = base
        environment["SCREENPLAY_PLAY_PICTURES"] = "1"
        environment["XDG_STATE_HOME"] = folder
        return try CLI.start(
            ["play", wall, "--output", output, "--socket", folder + "/play.sock", "--stats", "-"],
            environment: environment)
    }
}
