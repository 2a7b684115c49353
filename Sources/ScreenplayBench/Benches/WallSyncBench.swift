// Wall sync (`--only wallsync`): a wall of a 30 fps clip on one box, its
// tiles 640x360@60 outputs of one headless sway, played by `play` with
// SCREENPLAY_PLAY_PICTURES=1 for a minute: each `picture` line says which
// picture of the mirrored video a tile showed and when its frame reached
// the screen (the frame callback on sway). Three runs: 2x1, 2x2, and 2x1
// beside a busy core. Goal: at least 99 % of pictures within one refresh
// across the tiles, none two refreshes apart (`WallSync`).
import Foundation
import TestSupport

/// A wall's tiles showing each picture on the same refresh.
struct WallSyncBench: Benchmark {
    let context: BenchContext

    var seconds: Double { settings.quick ? 10 : 60 }

    func run() throws {
        let folder = workDirectory + "/wallsync"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var runs: [WallSyncRun] = []
        for (columns, rows, busy) in [(2, 1, false), (2, 2, false), (2, 1, true)] {
            let clip = folder + "/clip-\(columns)x\(rows).mp4"
            try makeBenchClip(clip, width: 640 * columns, height: 360 * rows, seconds: seconds + 30)
            let names = (1...(columns * rows)).map { "HEADLESS-\($0)" }
            let tiles = names.enumerated().map { index, name in
                #"{"match": "\#(name)", "column": \#(index % columns), "row": \#(index / columns)}"#
            }
            let wall = folder + "/wall-\(columns)x\(rows).json"
            try
                #"{"playlists": {"clip": [{"file": "\#(clip)"}]}, "walls": [{"playlist": "clip", "tiles": [\#(tiles.joined(separator: ", "))]}]}"#
                .write(toFile: wall, atomically: true, encoding: .utf8)
            say("wall sync: \(columns)x\(rows)\(busy ? ", one core busy" : ""), \(Int(seconds)) s")
            let mode = OutputMode(width: 640, height: 360, refreshHz: 60)
            let rig = try SwayRig.start(outputs: Array(repeating: mode, count: names.count), timeout: 20)
            defer { rig.stop() }
            var environment = rig.clientEnvironment
            environment["SCREENPLAY_PLAY_PICTURES"] = "1"
            let process = try RunningProcess(screenplay, ["play", wall, "--stats", "-"], environment: environment)
            defer {
                process.terminate()
                _ = process.wait(timeout: 5)
            }
            let hog = busy ? try RunningProcess("/bin/sh", ["-c", "while :; do :; done"], environment: [:]) : nil
            defer { hog?.kill() }
            func pictures() -> [(tile: String, serial: Int, shownNs: UInt64)] {
                process.stdoutLines.compactMap { line in
                    guard line.contains("\"picture\""),
                        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                        let tile = object["output"] as? String, let serial = (object["serial"] as? NSNumber)?.intValue,
                        let shown = (object["shown_ns"] as? NSNumber)?.uint64Value
                    else { return nil }
                    return (tile, serial, shown)
                }
            }
            guard waitUntil(timeout: 40, poll: 0.1, { Set(pictures().map(\.tile)).count == names.count }) else {
                throw RigError("wall sync: not every tile showed a picture: \(process.stderr.suffix(1500))")
            }
            Thread.sleep(forTimeInterval: 2)
            let before = pictures().count
            Thread.sleep(forTimeInterval: seconds)
            let sync = WallSync(pictures: Array(pictures().dropFirst(before)), tiles: Set(names), refreshHz: 60)
            say("wall sync: \(sync)")
            runs.append(
                WallSyncRun(
                    tiles: "\(columns)x\(rows)", busy: busy, seconds: seconds, onEveryTile: sync.onEveryTile,
                    withinShare: sync.withinShare, twoOrMoreApart: sync.twoOrMoreApart,
                    largestSpreadMs: sync.largestSpreadMs, onSomeTiles: sync.onSomeTiles))
        }
        results.wallSync = runs
    }
}

/// One wall sync run, as the report shows it.
struct WallSyncRun: Codable, Sendable {
    var tiles: String
    var busy: Bool
    var seconds: Double
    var onEveryTile: Int
    var withinShare: Double
    var twoOrMoreApart: Int
    var largestSpreadMs: Double
    var onSomeTiles: Int
}

/// The wall sync benchmark's part of the report.
enum WallSyncReport: MarkdownFormatting {
    static func markdown(_ r: BenchResults) -> String {
        guard !r.wallSync.isEmpty else { return "" }
        var md = "\n## Wall sync (one box)\n\n"
        md +=
            "| wall | machine | seconds | pictures on every tile | within one refresh (goal ≥ 99 %) | two or more apart (goal 0) | largest spread ms | on some tiles only |\n|---|---|---:|---:|---:|---:|---:|---:|\n"
        for run in r.wallSync {
            md +=
                "| \(run.tiles) | \(run.busy ? "one core busy" : "quiet") | \(Int(run.seconds)) | \(run.onEveryTile) | \(String(format: "%.2f %%", 100 * run.withinShare)) | \(run.twoOrMoreApart) | \(String(format: "%.1f", run.largestSpreadMs)) | \(run.onSomeTiles) |\n"
        }
        return md
    }
}
