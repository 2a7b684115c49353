// Frame cost (`--only framecost`): CPU per presented frame of Screenplay's clear-only scene,
// a shader writing the same colour (each also through the EGL swap instead of wl_shm), the
// plasma shader and weston-simple-egl, one after another on the same sway output; a scoreboard-like text scene at 30 fps against the same
// scene without text; and where the time goes (perf samples by library and by symbol).
import Foundation
import Rendering
import TestSupport

/// One program on the frame-cost output for one window.
struct FrameCostRun: Codable, Sendable {
    /// `simple-egl`, `clear`, `clear-egl`, `solid-shader`, `solid-shader-egl`, `plasma`,
    /// `clear-30fps`, `text-30fps`.
    var scene: String
    var program: String
    var what: String
    var seconds: Double
    var frames: Int
    var cpuSeconds: Double
    var cpuMsPerFrame: Double?
    var cpuPercent: Double
    /// CPU ms per frame of every round (the row is the median round).
    var roundsMsPerFrame: [Double]?
}

/// perf samples of one program, shared out by library (dso) and the symbols
/// that took the most.
struct PerfBreakdown: Codable, Sendable {
    var scene: String
    var program: String
    var samples: Int
    var byLibrary: [PerfShare]
    var bySymbol: [PerfShare]
}

struct PerfShare: Codable, Sendable {
    var name: String
    var percent: Double
}

/// The plasma drawn offscreen, for its pixel work alone.
struct PixelWork: Codable, Sendable {
    var frames: Int
    var seconds: Double
    var cpuMsPerFrame: Double
}

/// A ratio the issue sets a goal for, with how it is computed.
struct FrameCostRatio: Codable, Sendable {
    var name: String
    var value: Double?
    /// At most this.
    var goal: Double
    var method: String
    var met: Bool? { value.map { $0 <= goal } }
}

/// CPU per presented frame of each scene and its peer on one output, in rounds, with perf shares.
struct FrameCostBench: Benchmark {
    let context: BenchContext

    /// A shader that writes the clear-only scene's colour (#204060): the
    /// peer of `DrawingContext.clear`.
    var solidShaderPath: String {
        let path = workDirectory + "/solid.frag"
        let source = """
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                fragColor = vec4(32.0 / 255.0, 64.0 / 255.0, 96.0 / 255.0, 1.0);
            }

            """
        if !FileManager.default.fileExists(atPath: path),
            !FileManager.default.createFile(atPath: path, contents: Data(source.utf8))
        {
            say("cannot write \(path)")
        }
        return path
    }

    var frameCostSeconds: Double { settings.quick ? 4 : 6 }
    /// Rounds of every case in turn: a drift in machine load hits all alike,
    /// each figure is the median of its rounds, and each ratio the median of
    /// the rounds' own ratios.
    var frameCostRounds: Int { settings.quick ? 1 : 5 }

    /// Every case on one sway with one 1280x720@60 output, one after
    /// another, in rounds; perf samples the last round.
    func run() throws {
        let rig = try SwayRig.start(outputs: [benchMode], timeout: 20)
        defer { rig.stop() }
        let seconds = frameCostSeconds
        // `egl`: the same scene with SCREENPLAY_SHM_PRESENT=0 (Mesa's eglSwapBuffers instead of
        // Screenplay's own wl_shm buffers): the price of the copy into wl_shm for a frame that
        // changes everywhere.
        let cases: [(scene: String, what: String, arguments: [String], continuous: Bool, text: String?, egl: Bool)] = [
            ("clear", "`present color 204060`, redrawn every refresh", ["color", "204060"], true, nil, false),
            (
                "clear-egl", "the same through the EGL swap (`SCREENPLAY_SHM_PRESENT=0`)", ["color", "204060"], true,
                nil, true
            ),
            ("solid-shader", "`present solid.frag`: a shader writing #204060", [solidShaderPath], false, nil, false),
            (
                "solid-shader-egl", "the same through the EGL swap (`SCREENPLAY_SHM_PRESENT=0`)", [solidShaderPath],
                false, nil, true
            ),
            ("plasma", "`present plasma.frag`", [shaderPath], false, nil, false),
            (
                "clear-30fps", "`present color 204060 --fps 30`, redrawn every other refresh",
                ["color", "204060", "--fps", "30"], true, nil, false
            ),
            (
                "text-30fps", "the same with one line of text (\"Score 42\", a fifth of the height)",
                ["color", "204060", "--fps", "30"], true, "Score 42", false
            ),
        ]
        var runs: [FrameCostRun] = []
        for round in 1...frameCostRounds {
            let last = round == frameCostRounds
            say(
                "frame cost round \(round)/\(frameCostRounds): simple-egl and \(cases.count) scenes, \(seconds) s each\(last ? ", perf after each" : "")"
            )
            runs.append(try frameCostSimpleEGL(rig, seconds: seconds, profiled: last))
            for c in cases {
                var environment = rig.clientEnvironment
                if let text = c.text { environment["SCREENPLAY_BENCH_TEXT"] = text }
                if c.egl { environment["SCREENPLAY_SHM_PRESENT"] = "0" }
                let presenter = try Presenter(
                    binary: screenplay, arguments: c.arguments, environment: environment, continuous: c.continuous)
                defer { presenter.stop() }
                try presenter.waitForFrames(outputs: 1, timeout: 30)
                runs.append(try measureAligned(presenter, scene: c.scene, what: c.what, seconds: seconds))
                if last { profile(pid: presenter.pid, scene: c.scene, program: "screenplay") }
            }
        }
        results.pixelWork = try pixelWork(frames: settings.quick ? 30 : 120)
        // One row per scene: the median round, with every round's figure beside it.
        for scene in ["simple-egl"] + cases.map(\.scene) {
            let mine = runs.filter { $0.scene == scene }.sorted {
                ($0.cpuMsPerFrame ?? .infinity) < ($1.cpuMsPerFrame ?? .infinity)
            }
            guard var median = mine.isEmpty ? nil : mine[(mine.count - 1) / 2] else { continue }
            median.roundsMsPerFrame = runs.filter { $0.scene == scene }.compactMap(\.cpuMsPerFrame)
            results.frameCost.append(median)
        }
        results.frameCostRatios = FrameCostRatio.all(results.frameCost, pixelWork: results.pixelWork)
    }

    /// CPU per frame over whole `--stats` windows: the CPU clock is read as
    /// each frames line arrives (polled every 5 ms), so the frames counted
    /// and the CPU time cover the same span. CPU time is the sum of every
    /// thread's run time in nanoseconds (/proc/PID/task/*/schedstat), not
    /// /proc/PID/stat's 10 ms ticks, which at 5 % CPU over a few seconds
    /// are a ±5 % error on their own.
    private func measureAligned(_ presenter: Presenter, scene: String, what: String, seconds: Double) throws
        -> FrameCostRun
    {
        let windows = max(2, Int(seconds.rounded()))
        func lines() -> [FramesLine] { presenter.frames(from: 0) }
        let start = lines().count
        guard waitUntil(timeout: 5, poll: 0.005, { lines().count > start }),
            let cpu0 = taskCPUNanoseconds(presenter.pid)
        else {
            throw RigError("no frames line from screenplay (\(scene)): \(presenter.process.stderr.suffix(1500))")
        }
        let t0 = now()
        let first = lines().count
        guard waitUntil(timeout: Double(windows) + 5, poll: 0.005, { lines().count >= first + windows }),
            let cpu1 = taskCPUNanoseconds(presenter.pid)
        else {
            throw RigError(
                "screenplay stopped writing frames lines (\(scene)): \(presenter.process.stderr.suffix(1500))")
        }
        let elapsed = now() - t0
        let counted = Array(lines()[first..<(first + windows)])
        let frames = counted.reduce(0) { $0 + $1.presented }
        let cpuSeconds = Double(cpu1 - cpu0) / 1e9
        return FrameCostRun(
            scene: scene, program: "screenplay", what: what, seconds: elapsed, frames: frames, cpuSeconds: cpuSeconds,
            cpuMsPerFrame: frames > 0 ? 1000 * cpuSeconds / Double(frames) : nil,
            cpuPercent: 100 * cpuSeconds / elapsed,
            roundsMsPerFrame: nil)
    }

    /// The plasma's own pixel work: the same shader drawn into a 1280x720
    /// offscreen target (llvmpipe, in this process, no Wayland, no swap),
    /// `glFinish` after each frame, CPU of every thread per frame.
    private func pixelWork(frames: Int) throws -> PixelWork {
        let source = try String(contentsOfFile: shaderPath, encoding: .utf8)
        let context = try GraphicsContext.offscreen()
        defer { context.destroy() }
        let program = try ShadertoyProgram(context: context, source: source, sourceName: "plasma.frag")
        defer { program.destroy() }
        let target = try OffscreenTarget(context: context, width: benchMode.width, height: benchMode.height)
        defer { target.destroy() }
        // Warm up: the first frames compile llvmpipe's shader variants.
        for frame in 0..<5 {
            try program.draw(on: target, time: Double(frame) / 60, frame: frame)
            try target.finish()
        }
        guard let cpu0 = taskCPUNanoseconds(getpid()) else { throw RigError("cannot read this process's schedstat") }
        let t0 = now()
        for frame in 0..<frames {
            try program.draw(on: target, time: Double(frame) / 60, frame: frame)
            try target.finish()
        }
        let cpu1 = taskCPUNanoseconds(getpid()) ?? cpu0
        return PixelWork(
            frames: frames, seconds: now() - t0, cpuMsPerFrame: Double(cpu1 - cpu0) / 1e6 / Double(frames))
    }

    private func frameCostSimpleEGL(_ rig: SwayRig, seconds: Double, profiled: Bool) throws -> FrameCostRun {
        let peer = try Peer(
            "weston-simple-egl", "/usr/bin/stdbuf", ["-oL", "weston-simple-egl", "-f"],
            environment: rig.clientEnvironment)
        defer { peer.stop() }
        // It reports every 5 s; the first report covers start-up and is skipped.
        let reports = max(1, Int((seconds / 5).rounded()))
        guard waitUntil(timeout: 20, poll: 0.02, { peer.simpleEGLReports.count >= 1 || !peer.process.isRunning }),
            peer.process.isRunning, let before = ProcSample.read(pid: peer.pid), let cpu0 = taskCPUNanoseconds(peer.pid)
        else { throw RigError("weston-simple-egl did not report: \(peer.process.stderr.suffix(2000))") }
        guard waitUntil(timeout: Double(reports) * 5 + 10, poll: 0.02, { peer.simpleEGLReports.count >= 1 + reports }),
            let after = ProcSample.read(pid: peer.pid), let cpu1 = taskCPUNanoseconds(peer.pid)
        else { throw RigError("weston-simple-egl stopped reporting: \(peer.process.stderr.suffix(2000))") }
        let cpuSeconds = Double(cpu1 - cpu0) / 1e9
        let frames = peer.simpleEGLReports[1...reports].reduce(0) { $0 + $1.frames }
        let delta = ProcDelta(from: before, to: after)
        let run = FrameCostRun(
            scene: "simple-egl", program: "weston-simple-egl",
            what: "`weston-simple-egl -f`: a clear and a triangle each frame",
            seconds: delta.seconds, frames: frames, cpuSeconds: cpuSeconds,
            cpuMsPerFrame: frames > 0 ? 1000 * cpuSeconds / Double(frames) : nil,
            cpuPercent: 100 * cpuSeconds / delta.seconds,
            roundsMsPerFrame: nil)
        if profiled { profile(pid: peer.pid, scene: "simple-egl", program: "weston-simple-egl") }
        return run
    }

    /// Samples `pid` with perf for a few seconds (after the measured window,
    /// so sampling does not weigh on the figures) and keeps the shares.
    private func profile(pid: Int32, scene: String, program: String) {
        let data = workDirectory + "/perf-\(scene).data"
        let record = try? runProcess(
            "perf",
            ["record", "-q", "-F", "499", "-p", String(pid), "-o", data, "--", "sleep", settings.quick ? "2" : "4"],
            timeout: 30)
        guard let record, record.status == 0 else {
            results.errors.append(
                "perf record of \(scene): \(record?.stderr.suffix(500) ?? "perf did not run") (install linux-perf)")
            return
        }
        func shares(_ sort: String, limit: Int) -> (samples: Int, shares: [PerfShare]) {
            guard
                let report = try? runProcess(
                    "perf", ["report", "-i", data, "--stdio", "--no-children", "--sort", sort, "--percent-limit", "1"],
                    timeout: 60),
                report.status == 0
            else { return (0, []) }
            var samples = 0
            var out: [PerfShare] = []
            for line in report.stdout.split(separator: "\n") {
                if line.hasPrefix("# Samples:") {
                    // "# Samples: 1K of event 'cpu-clock:pppH'" or "# Samples: 812  of event ..."
                    let word = line.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
                    samples = word.hasSuffix("K") ? Int((Double(word.dropLast()) ?? 0) * 1000) : Int(word) ?? 0
                }
                guard !line.hasPrefix("#") else { continue }
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                guard words.count >= 2, words[0].hasSuffix("%"), let percent = Double(words[0].dropLast()) else {
                    continue
                }
                out.append(PerfShare(name: words.dropFirst().joined(separator: " "), percent: percent))
            }
            return (samples, Array(out.prefix(limit)))
        }
        let libraries = shares("dso", limit: 12)
        let symbols = shares("dso,sym", limit: 12)
        results.perf.append(
            PerfBreakdown(
                scene: scene, program: program, samples: libraries.samples, byLibrary: libraries.shares,
                bySymbol: symbols.shares))
    }
}

/// Run time of every live thread of `pid`, in nanoseconds (the first field of
/// /proc/PID/task/TID/schedstat); nil once the process is gone. Threads that
/// exited are not counted: llvmpipe's and libdispatch's threads live as long
/// as the scene does.
func taskCPUNanoseconds(_ pid: Int32) -> UInt64? {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
    var total: UInt64 = 0
    for task in tasks {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
            let first = text.split(separator: " ").first, let ns = UInt64(first)
        else { continue }
        total += ns
    }
    return total
}
