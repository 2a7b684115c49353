// Walls (`--only walls`): a 1920x1080 30 fps H.264 clip on one 1920x1080@60
// sway output, as a 2x1 wall across two such outputs of one sway (one
// `play`, the clip decoded once, each tile drawing its half), and, as the
// peer, two `play` processes on those two outputs each playing the clip on
// its own panel (two decodes, two players). Alternating rounds, so a drift
// in machine load hits every case alike. The figures are CPU per second of
// the wall over one panel, and of the two decodes over one panel, medians
// of the rounds.
import Foundation
import TestSupport

/// A 2x1 wall of one video against one panel, and against two decodes.
struct WallBench: Benchmark {
    let context: BenchContext

    var rounds: Int { settings.quick ? 1 : 3 }
    var seconds: Double { settings.quick ? 4 : 10 }
    static let mode = OutputMode(width: 1920, height: 1080, refreshHz: 60)

    func run() throws {
        let folder = workDirectory + "/walls"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let clip = folder + "/clip-1080p30.mp4"
        try makeBenchClip(clip, width: 1920, height: 1080, seconds: 40)
        let files = try WallBenchFiles(folder: folder, clip: clip)
        let what = [
            "wall-one": "the clip on one panel (one 1920x1080@60 output)",
            "wall-2x1": "a 2x1 wall of the clip on two 1920x1080@60 outputs, one play",
            "wall-two-decodes": "two play processes, each the clip on its own 1920x1080@60 output",
        ]
        var runs: [LayoutCostRun] = []
        for round in 1...rounds {
            say("walls round \(round)/\(rounds): one panel, a 2x1 wall, two decodes")
            for name in ["wall-one", "wall-2x1", "wall-two-decodes"] {
                let outputs = name == "wall-one" ? [Self.mode] : [Self.mode, Self.mode]
                let rig = try SwayRig.start(outputs: outputs, timeout: 20)
                defer { rig.stop() }
                let playlists: [String] =
                    switch name {
                    case "wall-one": [files.panels[0]]
                    case "wall-2x1": [files.wall]
                    default: files.panels
                    }
                // Two players on one machine need a control socket each.
                let processes = try playlists.enumerated().map { index, playlist in
                    try RunningProcess(
                        screenplay, ["play", playlist, "--stats", "-", "--socket", "\(folder)/play-\(index).sock"],
                        environment: rig.clientEnvironment)
                }
                defer {
                    for process in processes {
                        process.terminate()
                        _ = process.wait(timeout: 5)
                    }
                }
                runs.append(
                    try measure(processes, name: name, what: what[name] ?? name, round: round, panels: outputs.count))
            }
        }
        results.wallRuns = runs
        func median(_ name: String) -> Double? {
            let values = runs.filter { $0.name == name }.compactMap(\.cpuMsPerVideoFrame).sorted()
            return values.isEmpty ? nil : values[(values.count - 1) / 2]
        }
        let one = median("wall-one")
        let method =
            "CPU ms (every thread of every play process, schedstat) over \(Int(seconds)) s per clip frame shown on every panel (video_frames of --stats summed over the panels, divided by the panels), median of \(rounds) alternating rounds"
        results.wallRatios = [
            FrameCostRatio(
                name: "a 2x1 wall of a 1920x1080 30 fps clip ÷ the clip on one panel",
                value: one.flatMap { one in median("wall-2x1").map { $0 / one } }, goal: 1.3, method: method),
            // The peer: the same two panels with a decode each. No goal in
            // the issue; sharing the decode has to beat it, so at most 1.
            FrameCostRatio(
                name: "the 2x1 wall ÷ its peer, two decodes (two play processes, one panel each)",
                value: median("wall-two-decodes").flatMap { two in median("wall-2x1").map { $0 / two } }, goal: 1,
                method: method),
        ]
    }

    /// CPU of `processes` together over the window, once every panel has
    /// reported frames; `video_frames` summed over their panels.
    func measure(_ processes: [RunningProcess], name: String, what: String, round: Int, panels: Int) throws
        -> LayoutCostRun
    {
        func frames() -> [[String: Any]] {
            processes.flatMap { process in
                process.stdoutLines.compactMap { line in
                    guard line.contains("\"frames\""),
                        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                        object["event"] as? String == "frames"
                    else { return nil }
                    return object
                }
            }
        }
        func reporting() -> Int { Set(frames().compactMap { $0["output"] as? String }).count }
        let running = { processes.allSatisfy(\.isRunning) }
        guard waitUntil(timeout: 40, poll: 0.05, { reporting() >= panels || !running() }), running() else {
            throw RigError("\(name): not every panel reported frames: \(processes.map { $0.stderr.suffix(800) })")
        }
        Thread.sleep(forTimeInterval: 2)
        let before = frames().count
        let cpu0 = processes.compactMap { taskCPUNanoseconds($0.pid) }.reduce(0, +)
        let t0 = now()
        Thread.sleep(forTimeInterval: seconds)
        let cpu1 = processes.compactMap { taskCPUNanoseconds($0.pid) }.reduce(0, +)
        guard running() else { throw RigError("\(name): play exited: \(processes.map { $0.stderr.suffix(800) })") }
        let elapsed = now() - t0
        let counted = frames().dropFirst(before)
        func sum(_ key: String) -> Int { counted.reduce(0) { $0 + (($1[key] as? NSNumber)?.intValue ?? 0) } }
        let presented = sum("presented"), draws = sum("draws"), videoFrames = sum("video_frames")
        let cpuSeconds = Double(cpu1 - cpu0) / 1e9
        let run = LayoutCostRun(
            name: name, what: what, round: round, seconds: elapsed, presented: presented, draws: draws,
            cpuSeconds: cpuSeconds, cpuMsPerFrame: presented > 0 ? 1000 * cpuSeconds / Double(presented) : nil,
            cpuMsPerSecond: 1000 * cpuSeconds / elapsed, videoFrames: videoFrames,
            // A clip frame shown on every panel: a machine that cannot draw
            // every frame drops some, so CPU a second alone would flatter
            // the case that drops more.
            cpuMsPerVideoFrame: videoFrames > 0 ? 1000 * cpuSeconds * Double(panels) / Double(videoFrames) : nil,
            redrawnPixelsPerDraw: nil)
        say(
            "walls: \(name): \(String(format: "%.0f", run.cpuMsPerSecond)) ms CPU/s, \(videoFrames) video frames on \(panels) panel(s), \(run.cpuMsPerVideoFrame.map { String(format: "%.2f", $0) } ?? "-") ms a clip frame"
        )
        return run
    }
}

/// The wall benchmark's playlist files: the 2x1 wall, and one playlist
/// file per output (HEADLESS-1, HEADLESS-2) that plays the clip there alone.
struct WallBenchFiles {
    let wall: String
    let panels: [String]

    init(folder: String, clip: String) throws {
        wall = folder + "/wall.json"
        try
            #"{"playlists": {"clip": [{"file": "\#(clip)"}]}, "walls": [{"playlist": "clip", "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]}]}"#
            .write(toFile: wall, atomically: true, encoding: .utf8)
        panels = ["HEADLESS-1", "HEADLESS-2"].map { folder + "/panel-\($0).json" }
        for (path, output) in zip(panels, ["HEADLESS-1", "HEADLESS-2"]) {
            try
                #"{"playlists": {"clip": [{"file": "\#(clip)"}]}, "panels": [{"match": "\#(output)", "playlist": "clip"}]}"#
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}

/// The wall benchmark's part of the report.
enum WallReport: MarkdownFormatting {
    static func markdown(_ r: BenchResults) -> String {
        guard !r.wallRatios.isEmpty else { return "" }
        var md = "\n## Video walls\n\n" + ratioTable(r.wallRatios)
        md +=
            "\n| case | rounds: CPU ms per clip frame | rounds: CPU ms per second | rounds: video frames drawn (all panels) |\n|---|---|---|---|\n"
        for name in ["wall-one", "wall-2x1", "wall-two-decodes"] {
            let runs = r.wallRuns.filter { $0.name == name }
            md +=
                "| \(name): \(runs.first?.what ?? "") | \(runs.map { n($0.cpuMsPerVideoFrame ?? 0) }.joined(separator: ", ")) | \(runs.map { n($0.cpuMsPerSecond) }.joined(separator: ", ")) | "
            md += "\(runs.map { "\($0.videoFrames ?? 0)" }.joined(separator: ", ")) |\n"
        }
        return md
    }
}
