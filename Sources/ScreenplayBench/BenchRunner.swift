// The run's settings and the runner. Each benchmark (Benches/) starts its own headless
// compositor through the test rig, runs its clients, measures from outside (/proc, grim) or
// through --stats, and stops all; the runner runs the selected ones in turn.
import Foundation
import TestSupport

/// Durations and sizes of one run; `--quick` shrinks everything for a smoke test.
struct BenchSettings {
    var quick: Bool
    /// Window of the frame-pacing runs (1, 2 and 4 outputs, the peer).
    var pacingSeconds: Double { quick ? 4 : 20 }
    var pacingOutputs: [Int] { quick ? [1, 2] : [1, 2, 4] }
    /// Window of the extra runs that only feed the scaling curves.
    var scalingSeconds: Double { quick ? 3 : 10 }
    var scalingOutputs: [Int] { quick ? [1, 2] : [1, 2, 4, 8] }
    /// Hot-plug: each round starts with one output and adds up to this many.
    var hotplugMaxOutputs: Int { quick ? 3 : 8 }
    /// 5 rounds of 7 additions: 35 additions per program, at least the 30 asked for.
    var hotplugRounds: Int { quick ? 1 : 5 }
    var idleSeconds: Double { quick ? 5 : 30 }

    var asDictionary: [String: Double] {
        [
            "pacing_seconds": pacingSeconds, "scaling_seconds": scalingSeconds,
            "hotplug_max_outputs": Double(hotplugMaxOutputs), "hotplug_rounds": Double(hotplugRounds),
            "idle_seconds": idleSeconds, "output_width": 1280, "output_height": 720, "output_refresh_hz": 60,
        ]
    }
}

/// The mode of every output in every benchmark.
let benchMode = OutputMode(width: 1280, height: 720, refreshHz: 60)
let swayName = "sway 1.7 headless (pixman)"
let westonName = "weston 10 headless (pixman)"
/// Colour used where pixels are watched: unlike sway's grey background.
let probeColorHex: UInt32 = 0xFF8000

/// Runs the selected benchmarks, each a type of its own that gets the run's
/// context, and records a failed one without stopping the others.
final class BenchRunner {
    let context: BenchContext
    /// The context's results, for the report.
    var results: BenchResults {
        get { context.results }
        set { context.results = newValue }
    }

    init(settings: BenchSettings, screenplay: String, workDirectory: String, info: RunInfo) {
        context = BenchContext(settings: settings, screenplay: screenplay, workDirectory: workDirectory, info: info)
    }

    /// Prints progress to stderr (stdout stays free for the summary).
    func say(_ text: String) { context.say(text) }

    /// Runs `body`, recording a failure instead of aborting the whole run.
    func attempt(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            say("FAILED \(what): \(error)")
            results.errors.append("\(what): \(error)")
        }
    }

    /// Runs every benchmark in `only`, in a fixed order, then the verdicts
    /// drawn from several of them. The long runs are cut to two minutes
    /// each in a quick run.
    func run(
        _ only: Set<String>, soakMinutes: Double, textureMinutes: Double, webMemoryMinutes: Double,
        wallBoxMinutes: Double, wallBoxCounts: [Int]
    ) {
        let settings = context.settings
        let quick = settings.quick
        if only.contains("pacing") {
            let pacing = PacingBench(context: context)
            for outputs in settings.pacingOutputs {
                attempt("pacing shader \(outputs) output(s)") {
                    try pacing.swayScene("shader", outputs: outputs, seconds: settings.pacingSeconds)
                }
            }
            attempt("pacing weston preview") { try pacing.westonPreview(seconds: settings.pacingSeconds) }
            attempt("weston-simple-egl on sway") { try pacing.simpleEGL(on: "sway", seconds: settings.pacingSeconds) }
            attempt("weston-simple-egl on weston") {
                try pacing.simpleEGL(on: "weston", seconds: settings.pacingSeconds)
            }
        }
        if only.contains("scaling") {
            let pacing = PacingBench(context: context)
            // The shader counts from the pacing runs are reused; only the missing sizes run here.
            let shaderDone = only.contains("pacing") ? Set(settings.pacingOutputs) : []
            for outputs in settings.scalingOutputs where !shaderDone.contains(outputs) {
                attempt("scaling shader \(outputs) output(s)") {
                    try pacing.swayScene("shader", outputs: outputs, seconds: settings.scalingSeconds)
                }
            }
            for outputs in settings.scalingOutputs {
                attempt("clear-only \(outputs) output(s)") {
                    try pacing.swayScene("clear", outputs: outputs, seconds: settings.scalingSeconds)
                }
            }
        }
        if only.contains("hotplug") {
            let hotplug = HotplugBench(context: context)
            // Alternating rounds, so a drift in machine load hits both programs alike.
            for round in 1...settings.hotplugRounds {
                for program in ["screenplay", "swaybg"] {
                    attempt("hot-plug \(program) round \(round)") {
                        try hotplug.hotplugRound(program: program, round: round)
                    }
                }
            }
            hotplug.summarizeHotplug()
        }
        if only.contains("idle") {
            attempt("idle") { try IdleBench(context: context).run() }
        }
        if only.contains("framecost") {
            attempt("frame cost") { try FrameCostBench(context: context).run() }
        }
        if only.contains("soak") {
            attempt("memory soak") {
                try MemorySoak(context: context).run(minutes: quick ? min(soakMinutes, 2) : soakMinutes)
            }
        }
        if only.contains("textures") {
            attempt("texture soak") {
                try TextureSoak(context: context).run(minutes: quick ? min(textureMinutes, 2) : textureMinutes)
            }
        }
        if only.contains("video") {
            attempt("video against mpv") { try VideoBench(context: context).run() }
        }
        if only.contains("signage") {
            attempt("signage") {
                let run = try SignageBench(context: context).signage(switches: quick ? 300 : 1000)
                results.signage.append(run)
            }
        }
        if only.contains("layouts") {
            attempt("layouts") { try LayoutBench(context: context).run() }
        }
        if only.contains("mirrors") {
            attempt("mirrors") { try MirrorBench(context: context).run() }
        }
        if only.contains("walls") {
            attempt("walls") { try WallBench(context: context).run() }
        }
        if only.contains("wallsync") {
            attempt("wall sync") { try WallSyncBench(context: context).run() }
        }
        if only.contains("wallboxes") {
            for count in wallBoxCounts {
                attempt("wall of \(count) boxes") {
                    try WallBoxesBench(
                        context: context, minutes: quick ? min(wallBoxMinutes, 1) : wallBoxMinutes, boxes: count
                    ).run()
                }
            }
        }
        if only.contains("web") {
            attempt("web pages against cog") { try WebBench(context: context).run() }
        }
        if only.contains("fleet") {
            attempt("a fleet of four boxes") { try FleetBench(context: context).run() }
        }
        if only.contains("webmemory") {
            attempt("a web page's memory") {
                try WebMemoryBench(context: context).run(
                    minutes: quick ? min(webMemoryMinutes, 2) : webMemoryMinutes)
            }
        }
        if only.contains("day") {
            attempt("a day of signage") {
                let day = try SignageBench(context: context).signageDay(seconds: quick ? 120 : 600)
                results.day.append(day)
            }
        }
        let summary = ScalingSummary(context: context)
        summary.collectShaderMemory()
        summary.scalingVerdicts()
    }
}

extension ProcSample {
    /// A placeholder for a process that could not be read.
    static let zero = ProcSample(
        time: 0, cpuSeconds: 0, voluntarySwitches: 0, involuntarySwitches: 0, peakRSSKiB: 0, rssKiB: 0)
}
