// Frame pacing (`--only pacing`) and the scaling runs (`--only scaling`): the plasma
// shader or the clear-only scene on 1 to 8 sway outputs, the shader in a --preview window on
// weston (which answers presentation feedback), and weston-simple-egl, the peer, on both;
// frames counted through --stats, CPU and memory from /proc.
import Foundation
import TestSupport

/// Runs one scene for one window and keeps it as a pacing run.
struct PacingBench: Benchmark {
    let context: BenchContext

    /// Screenplay on `outputs` sway outputs: the shader scene, or the
    /// clear-only scene (`present color` redrawn every refresh).
    func swayScene(_ scene: String, outputs: Int, seconds: Double) throws {
        say("\(scene) scene on \(outputs) sway output(s) for \(seconds) s")
        let rig = try SwayRig.start(outputs: Array(repeating: benchMode, count: outputs), timeout: 20)
        defer { rig.stop() }
        let arguments = scene == "shader" ? [shaderPath] : ["color", "204060"]
        let presenter = try Presenter(
            binary: screenplay, arguments: arguments, environment: rig.clientEnvironment, continuous: scene == "clear")
        defer { presenter.stop() }
        try presenter.waitForFrames(outputs: outputs, timeout: 30)
        let run = measure(
            presenter, label: "screenplay \(scene) · sway · \(outputs) out", compositor: swayName, scene: scene,
            outputs: outputs, seconds: seconds)
        if presenter.process.exitStatus != nil {
            // Why the compositor let go of the client, if it said so.
            results.errors.append("sway log tail for \(run.label): \(rig.log.suffix(1500))")
        }
        results.pacing.append(run)
    }

    /// Screenplay's `--preview` window on weston, which does deliver
    /// wp_presentation feedback (sway's headless backend discards it).
    func westonPreview(seconds: Double) throws {
        say("shader scene in a --preview window on weston for \(seconds) s (presentation feedback)")
        let rig = try WestonRig.start(width: benchMode.width, height: benchMode.height, timeout: 20)
        defer { rig.stop() }
        let presenter = try Presenter(
            binary: screenplay, arguments: [shaderPath, "--preview"], environment: rig.clientEnvironment)
        defer { presenter.stop() }
        try presenter.waitForFrames(outputs: 1, timeout: 30)
        let run = measure(
            presenter, label: "screenplay shader · weston · window", compositor: westonName, scene: "shader",
            outputs: 1, seconds: seconds)
        results.pacing.append(run)
    }

    /// Samples /proc and the stats stream over a window of `seconds`.
    func measure(
        _ presenter: Presenter, label: String, compositor: String, scene: String, outputs: Int, seconds: Double
    ) -> PacingRun {
        let firstLine = presenter.lineCount
        let before = ProcSample.read(pid: presenter.pid)
        Thread.sleep(forTimeInterval: seconds)
        let after = ProcSample.read(pid: presenter.pid)
        if let status = presenter.process.exitStatus {
            // A zombie's /proc entry has no memory lines; the run is incomplete anyway.
            results.errors.append(
                "\(label): screenplay exited with status \(status) during the window: \(presenter.process.stderr.suffix(1500))"
            )
            say("screenplay exited during \(label) (status \(status))")
        }
        let lines = presenter.frames(from: firstLine, to: presenter.lineCount)
        let byOutput = Dictionary(grouping: lines, by: \.output)
        var cycles = 0.0
        var refreshNs = 0
        for (_, list) in byOutput {
            for line in list where line.refreshNs > 0 {
                cycles += line.windowSeconds * 1e9 / Double(line.refreshNs)
                refreshNs = line.refreshNs
            }
        }
        let presented = lines.reduce(0) { $0 + $1.presented }
        let intervals = lines.flatMap { $0.intervalsMicroseconds.map { Double($0) / 1000 } }
        let delta = before.flatMap { b in after.map { ProcDelta(from: b, to: $0) } }
        let process = delta ?? ProcDelta(from: ProcSample.zero, to: ProcSample.zero)
        return PacingRun(
            label: label, program: "screenplay", compositor: compositor, scene: scene, outputs: outputs,
            surfaceSize: presenter.firstSize, source: Set(lines.map(\.source)).sorted().joined(separator: "+"),
            seconds: process.seconds, presented: presented, discarded: lines.reduce(0) { $0 + $1.discarded },
            refreshCycles: cycles, presentedPerCycle: cycles > 0 ? Double(presented) / cycles : nil,
            refreshMs: Double(refreshNs) / 1e6,
            framesPerSecondSeries: byOutput.keys.sorted().map { key in
                byOutput[key]!.map { $0.windowSeconds > 0 ? Double($0.presented) / $0.windowSeconds : 0 }
            },
            intervalsMs: intervals, intervals: Distribution(intervals), process: process,
            cpuMsPerFrame: presented > 0 ? 1000 * process.cpuSeconds / Double(presented) : nil,
            peakRSSMiB: Double(after?.peakRSSKiB ?? 0) / 1024)
    }

    /// The peer: weston-simple-egl fullscreen on one output, counted by its
    /// own five-second reports (frames drawn with eglSwapInterval 1).
    func simpleEGL(on compositor: String, seconds: Double) throws {
        say("weston-simple-egl fullscreen on \(compositor) for ≥ \(seconds) s")
        let sway = compositor == "sway" ? try SwayRig.start(outputs: [benchMode], timeout: 20) : nil
        let weston =
            compositor == "weston"
            ? try WestonRig.start(width: benchMode.width, height: benchMode.height, timeout: 20) : nil
        defer {
            sway?.stop()
            weston?.stop()
        }
        let environment = sway?.clientEnvironment ?? weston?.clientEnvironment ?? [:]
        // stdbuf: simple-egl printf()s its reports, which a pipe would buffer until exit.
        let peer = try Peer(
            "weston-simple-egl", "/usr/bin/stdbuf", ["-oL", "weston-simple-egl", "-f"], environment: environment)
        defer { peer.stop() }
        // The first report covers start-up; the window starts when it appears.
        let reports = max(1, Int((seconds / 5).rounded()))
        guard waitUntil(timeout: 20, poll: 0.02, { peer.simpleEGLReports.count >= 1 || !peer.process.isRunning }),
            peer.process.isRunning, let before = ProcSample.read(pid: peer.pid)
        else { throw RigError("weston-simple-egl did not report: \(peer.process.stderr.suffix(2000))") }
        guard waitUntil(timeout: Double(reports) * 5 + 10, poll: 0.02, { peer.simpleEGLReports.count >= 1 + reports }),
            let after = ProcSample.read(pid: peer.pid)
        else { throw RigError("weston-simple-egl stopped reporting: \(peer.process.stderr.suffix(2000))") }
        let window = peer.simpleEGLReports[1...reports]
        let frames = window.reduce(0) { $0 + $1.frames }
        let process = ProcDelta(from: before, to: after)
        // simple-egl reports "in 5 seconds" once more than 5 s have passed, so
        // its own figure overstates the rate; the window is timed here instead,
        // from the first report's arrival to the last one's (polled every 20 ms).
        let windowSeconds = process.seconds
        // Both rigs run their output at 60 Hz (sway by configuration, weston's headless backend always).
        let refreshMs = 1000 / benchMode.refreshHz
        let cycles = windowSeconds * 1000 / refreshMs
        results.pacing.append(
            PacingRun(
                label: "weston-simple-egl · \(compositor) · fullscreen", program: "weston-simple-egl",
                compositor: compositor == "sway" ? swayName : westonName, scene: "simple-egl", outputs: 1,
                surfaceSize: "\(benchMode.width)x\(benchMode.height)", source: "self-reported",
                seconds: process.seconds,
                presented: frames, discarded: 0, refreshCycles: cycles, presentedPerCycle: Double(frames) / cycles,
                refreshMs: refreshMs,
                framesPerSecondSeries: [window.map { Double($0.frames) / (windowSeconds / Double(window.count)) }],
                intervalsMs: [], intervals: nil, process: process,
                cpuMsPerFrame: frames > 0 ? 1000 * process.cpuSeconds / Double(frames) : nil,
                peakRSSMiB: Double(after.peakRSSKiB) / 1024))
    }
}

/// The pacing and scaling runs' part of the report.
enum PacingReport: MarkdownFormatting {
    /// Every pacing run: its frames per refresh, intervals, CPU per frame and peak memory.
    static func markdown(_ r: BenchResults) -> String {
        var md = "## Frame pacing and CPU per presented frame\n\n"
        md += "Source says where frame counts and intervals come from: `presentation` = wp_presentation feedback "
        md +=
            "(weston only: sway 1.7's headless backend answers no feedback at all, neither presented nor discarded), `frame-callbacks` = arrival of "
        md +=
            "wl_surface.frame callbacks in the client, `self-reported` = the peer's own frame counter (no intervals).\n\n"
        md +=
            "| run | source | outputs | window s | presented / refresh | discarded | interval median / p95 / max ms | CPU ms / frame | CPU % | peak RSS MiB |\n"
        md += "|---|---|---:|---:|---:|---:|---|---:|---:|---:|\n"
        for run in r.pacing {
            let intervals = run.intervals.map { "\(n($0.median)) / \(n($0.p95)) / \(n($0.max))" } ?? "–"
            md +=
                "| \(run.label) | \(run.source) | \(run.outputs) | \(n(run.seconds)) | \(opt(run.presentedPerCycle, digits: 3)) | "
            md +=
                "\(run.discarded) | \(intervals) | \(opt(run.cpuMsPerFrame)) | \(n(run.process.cpuPercent)) | \(n(run.peakRSSMiB)) |\n"
        }
        return md
    }
}
