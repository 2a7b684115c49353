// Mirrors (`--only mirrors`): one playlist of a 1280x720 30 fps H.264 clip
// shown by `play` on one sway output, and the same playlist on two outputs
// of one sway (every panel matches it), in alternating rounds so a drift in
// machine load hits both alike. The figure is CPU per second of two
// mirrored panels over CPU per second of one panel, median of the rounds.
import Foundation
import TestSupport

/// Two panels mirroring one video against one panel showing it.
struct MirrorBench: Benchmark {
    let context: BenchContext

    var rounds: Int { settings.quick ? 1 : 3 }
    var seconds: Double { settings.quick ? 4 : 10 }

    func run() throws {
        let folder = workDirectory + "/mirrors"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = try LayoutBenchFiles(folder: folder)
        let measure = LayoutBench(context: context)
        var runs: [LayoutCostRun] = []
        for round in 1...rounds {
            say("mirrors round \(round)/\(rounds): one panel, two mirrored panels")
            for (name, outputs) in [("mirror-one", [benchMode]), ("mirror-two", [benchMode, benchMode])] {
                let rig = try SwayRig.start(outputs: outputs, timeout: 20)
                defer { rig.stop() }
                let process = try RunningProcess(
                    screenplay, ["play", files.videoFull, "--stats", "-", "--all"], environment: rig.clientEnvironment)
                defer {
                    process.terminate()
                    _ = process.wait(timeout: 5)
                }
                let what = "1280x720 30 fps H.264 full screen on \(outputs.count) 1280x720@60 output(s), one playlist"
                runs.append(try measure.measureStats(process, name: name, what: what, round: round, seconds: seconds))
            }
        }
        results.mirrorRuns = runs
        let perSecond = runs.reduce(into: [String: [Double]]()) { $0[$1.name, default: []].append($1.cpuMsPerSecond) }
        func median(_ name: String) -> Double? {
            let values = (perSecond[name] ?? []).sorted()
            return values.isEmpty ? nil : values[(values.count - 1) / 2]
        }
        let one = median("mirror-one"), two = median("mirror-two")
        results.mirrorRatios = [
            FrameCostRatio(
                name: "two panels mirroring one video ÷ one panel (1280x720@60 each)",
                value: one.flatMap { one in two.map { $0 / one } }, goal: 1.3,
                method:
                    "CPU ms per second (every thread, schedstat) over \(Int(seconds)) s, median of \(rounds) alternating rounds; video_frames (summed over the panels) shows whether each panel drew the clip's frames"
            )
        ]
    }
}

/// The mirror benchmark's part of the report.
enum MirrorReport: MarkdownFormatting {
    static func markdown(_ r: BenchResults) -> String {
        guard !r.mirrorRatios.isEmpty else { return "" }
        var md = "\n## Mirrored panels\n\n" + ratioTable(r.mirrorRatios)
        md += "\n| case | rounds: CPU ms per second | rounds: video frames drawn (all panels) |\n|---|---|---|\n"
        for name in ["mirror-one", "mirror-two"] {
            let runs = r.mirrorRuns.filter { $0.name == name }
            md +=
                "| \(name): \(runs.first?.what ?? "") | \(runs.map { n($0.cpuMsPerSecond) }.joined(separator: ", ")) | "
            md += "\(runs.map { "\($0.videoFrames ?? 0)" }.joined(separator: ", ")) |\n"
        }
        return md
    }
}
