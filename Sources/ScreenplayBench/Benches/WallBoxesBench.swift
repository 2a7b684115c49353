// A wall of boxes (`--only wallboxes`, `--minutes N`, `--boxes 2,4`): for
// each count, that many `play` processes of one wall file, each on its own
// 60 Hz output of one headless sway (`--output`), a 30 fps clip looping
// every minute, for N minutes (default 10) with SCREENPLAY_PLAY_PICTURES=1.
// At every refresh (1/60 s) the frame each box shows is its last `picture`
// line's by then; the spread is the frames between the lowest and the
// highest (`BoxSpread`). Goal: at most one frame apart at 99 % of
// refreshes. Then one box is stopped for 5 s (SIGSTOP, SIGCONT): how long
// until all are back within one frame and stay so for half a second.
// Goal: 2 s.
//
// Every box decodes the whole clip, and here one machine stands in for
// all the boxes; so the clip shrinks as boxes are added (1280x360 for
// two, 1278x240 for three, 1280x180 for four) to keep the machine's
// decoding work the same for every count. Otherwise four boxes would
// measure a 2-core machine running out of time, not the clock.
import Foundation
import TestSupport

/// Boxes of one wall showing the same frame at the same time.
struct WallBoxesBench: Benchmark {
    let context: BenchContext
    let minutes: Double
    /// How many boxes, 2 to 4.
    let boxes: Int
    static let clipSeconds = 60
    static let counts = 2...4

    /// A tile's size for `boxes` boxes: the clip is about 1280 wide and
    /// holds 1280x720 / `boxes` pixels (heights and widths kept even for H.264).
    static func tile(boxes: Int) -> (width: Int, height: Int) {
        (width: 1280 / boxes / 2 * 2, height: 720 / boxes / 2 * 2)
    }

    func run() throws {
        let folder = workDirectory + "/wallboxes-\(boxes)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = (1...boxes).map { "HEADLESS-\($0)" }
        let tile = Self.tile(boxes: boxes)
        let clip = folder + "/clip.mp4"
        try makeBenchClip(clip, width: tile.width * boxes, height: tile.height, seconds: Double(Self.clipSeconds))
        let tiles = names.enumerated().map { #"{"match": "\#($1)", "column": \#($0), "row": 0}"# }
        let wall = folder + "/wall.json"
        try
            #"{"playlists": {"clip": [{"file": "\#(clip)", "duration": 3600}]}, "walls": [{"playlist": "clip", "tiles": [\#(tiles.joined(separator: ", "))]}]}"#
            .write(toFile: wall, atomically: true, encoding: .utf8)
        say("wall of boxes: \(boxes) boxes of \(tile.width)x\(tile.height), \(minutes) min")
        let mode = OutputMode(width: tile.width, height: tile.height, refreshHz: 60)
        let rig = try SwayRig.start(outputs: Array(repeating: mode, count: names.count), timeout: 20)
        defer { rig.stop() }
        let players = try names.enumerated().map { index, name in
            let home = folder + "/box\(index + 1)"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            var environment = rig.clientEnvironment
            environment["SCREENPLAY_PLAY_PICTURES"] = "1"
            environment["XDG_STATE_HOME"] = home
            return try RunningProcess(
                screenplay, ["play", wall, "--output", name, "--socket", home + "/play.sock", "--stats", "-"],
                environment: environment)
        }
        defer {
            for box in players {
                box.terminate()
                _ = box.wait(timeout: 5)
            }
        }
        let pictures = { players.map { BoxSpread.pictures(fromLines: $0.stdoutLines) } }
        guard waitUntil(timeout: 40, poll: 0.2, { pictures().allSatisfy { !$0.isEmpty } }) else {
            throw RigError("wall of boxes: a box showed no picture: \(players.map { $0.stderr.suffix(800) })")
        }
        Thread.sleep(forTimeInterval: 3)
        let from = BoxSpread.monotonicNowNs()
        Thread.sleep(forTimeInterval: minutes * 60)
        let to = BoxSpread.monotonicNowNs()
        let refresh: UInt64 = 1_000_000_000 / 60, loop = 30 * Self.clipSeconds
        let steady = BoxSpread(boxes: pictures(), fromNs: from, toNs: to, stepNs: refresh, loopFrames: loop)
        say("wall of boxes: \(steady)")
        players[1].send(SIGSTOP)
        Thread.sleep(forTimeInterval: 5)
        players[1].send(SIGCONT)
        let resumed = BoxSpread.monotonicNowNs()
        Thread.sleep(forTimeInterval: 6)
        let recovery = BoxSpread.recovery(
            boxes: pictures(), fromNs: resumed, toNs: BoxSpread.monotonicNowNs(), stepNs: refresh,
            holdNs: 500_000_000, loopFrames: loop)
        say("wall of boxes: a box stopped for 5 s back within one frame after \(recovery.map { "\($0) s" } ?? "never")")
        results.wallBoxes.append(
            WallBoxesRun(
                boxes: boxes, tile: "\(tile.width)x\(tile.height)", minutes: minutes, samples: steady.samples,
                bySpread: steady.bySpread,
                withinOneShare: steady.withinOneShare, largest: steady.largest, recoverySeconds: recovery))
    }
}

/// The wall-of-boxes run, as the report shows it.
struct WallBoxesRun: Codable, Sendable {
    var boxes: Int
    /// One box's output, e.g. `640x360`.
    var tile: String
    var minutes: Double
    var samples: Int
    /// Refreshes by spread: 0, 1, 2, 3 or more frames.
    var bySpread: [Int]
    var withinOneShare: Double
    var largest: Int
    /// Nil: never back within one frame.
    var recoverySeconds: Double?
}

/// The wall-of-boxes benchmark's part of the report.
enum WallBoxesReport: MarkdownFormatting {
    static func markdown(_ r: BenchResults) -> String {
        guard !r.wallBoxes.isEmpty else { return "" }
        var md = "\n## Wall of boxes\n\n"
        md +=
            "| boxes | output each | minutes | refreshes sampled | same frame | one apart | two apart | three or more | at most one apart (goal ≥ 99 %) | largest | stopped 5 s: back within one frame after (goal ≤ 2 s) |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for run in r.wallBoxes {
            let share = { (count: Int) in
                String(format: "%.2f %%", 100 * Double(count) / Double(max(run.samples, 1)))
            }
            md +=
                "| \(run.boxes) | \(run.tile) | \(String(format: "%g", run.minutes)) | \(run.samples) | \(share(run.bySpread[0])) | \(share(run.bySpread[1])) | \(share(run.bySpread[2])) | \(share(run.bySpread[3])) | \(String(format: "%.2f %%", 100 * run.withinOneShare)) | \(run.largest) | \(run.recoverySeconds.map { String(format: "%.2f s", $0) } ?? "never") |\n"
        }
        return md
    }
}
