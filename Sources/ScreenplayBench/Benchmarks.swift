// The benchmarks themselves. Each starts its own headless compositor through the test rig,
// runs one client, measures from outside (/proc, grim) or through --stats, and stops all.
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

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

/// Runs the benchmarks and accumulates results.
final class BenchRunner {
    let settings: BenchSettings
    let screenplay: String
    let workDirectory: String
    var results: BenchResults

    init(settings: BenchSettings, screenplay: String, workDirectory: String, info: RunInfo) {
        self.settings = settings
        self.screenplay = screenplay
        self.workDirectory = workDirectory
        results = BenchResults(run: info)
    }

    /// Prints progress to stderr (stdout stays free for the summary).
    func say(_ text: String) {
        FileHandle.standardError.write(Data("[bench \(String(format: "%6.1f", now() - started)) s] \(text)\n".utf8))
    }
    private let started = now()

    /// Runs `body`, recording a failure instead of aborting the whole run.
    func attempt(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            say("FAILED \(what): \(error)")
            results.errors.append("\(what): \(error)")
        }
    }

    // MARK: - Content files

    /// A plasma: a few sines per pixel, enough work to show rendering cost
    /// without swamping Mesa's software rasteriser on two cores.
    lazy var shaderPath: String = {
        let path = workDirectory + "/plasma.frag"
        let source = """
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                vec2 uv = fragCoord / iResolution.xy;
                float t = iTime;
                float v = sin(uv.x * 10.0 + t) + sin((uv.y * 10.0 + t) * 0.5)
                        + sin((uv.x * 10.0 + uv.y * 10.0 + t) * 0.5);
                vec2 c = uv * 10.0 + vec2(sin(t / 3.0), cos(t / 2.0)) * 5.0;
                v += sin(sqrt(c.x * c.x + c.y * c.y + 1.0) + t);
                fragColor = vec4(0.5 + 0.5 * sin(v * 3.14159), 0.5 + 0.5 * sin(v * 3.14159 + 2.094),
                                 0.5 + 0.5 * sin(v * 3.14159 + 4.188), 1.0);
            }

            """
        if !FileManager.default.createFile(atPath: path, contents: Data(source.utf8)) { say("cannot write \(path)") }
        return path
    }()

    /// A 1280×720 gradient PNG (the output's size, so both programs show it
    /// 1:1) and the colour at its centre, where the probe looks.
    lazy var image: (path: String, center: RGB) = {
        let path = workDirectory + "/gradient.png"
        let (w, h) = (1280, 720)
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        func color(_ x: Int, _ y: Int) -> RGB {
            RGB(r: UInt8(x * 255 / (w - 1)), g: UInt8(y * 255 / (h - 1)), b: 0x60)
        }
        for y in 0..<h {
            for x in 0..<w {
                let c = color(x, y)
                let i = (y * w + x) * 3
                pixels[i] = c.r
                pixels[i + 1] = c.g
                pixels[i + 2] = c.b
            }
        }
        // The rig's PNG writer is good enough: size does not matter here.
        do {
            try RigImage(width: w, height: h, pixels: pixels).writePNG(to: path)
        } catch {
            say("cannot write \(path): \(error)")
        }
        return (path, color(w / 2, h / 2))
    }()

    // MARK: - Frame pacing and CPU per frame

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

    // MARK: - Memory of the shader scene, scaling verdicts

    /// Shader peak RSS comes from the pacing and scaling runs, which start
    /// with all their outputs.
    func collectShaderMemory() {
        for run in results.pacing
        where run.program == "screenplay" && run.scene == "shader" && run.compositor == swayName {
            results.memory.append(
                MemoryPoint(
                    program: "screenplay", content: "shader", outputs: run.outputs, peakRSSMiB: run.peakRSSMiB,
                    method: "at start"))
        }
    }

    func scalingVerdicts() {
        for scene in ["shader", "clear"] {
            let runs = results.pacing.filter {
                $0.program == "screenplay" && $0.scene == scene && $0.compositor == swayName
            }
            .sorted { $0.outputs < $1.outputs }
            let points = runs.compactMap { run in run.cpuMsPerFrame.map { [Double(run.outputs), $0] } }
            results.scaling.append(verdict("CPU ms per presented frame, \(scene) scene (per output frame)", points))
        }
        if let summary = results.hotplug.first(where: { $0.program == "screenplay" }) {
            let points = summary.medianMsByOutputs.compactMap { key, value in Int(key).map { [Double($0), value] } }
                .sorted { $0[0] < $1[0] }
            results.scaling.append(verdict("hot-plug median ms, screenplay (outputs after the addition)", points))
        }
    }

    private func verdict(_ metric: String, _ points: [[Double]]) -> ScalingVerdict {
        guard let first = points.first, let last = points.last, points.count >= 2, first[1] > 0 else {
            return ScalingVerdict(metric: metric, points: points, ratio: nil, flat: nil)
        }
        let ratio = last[1] / first[1]
        return ScalingVerdict(
            metric: metric, points: points, ratio: ratio, flat: ScalingVerdict.flatBand.contains(ratio))
    }
}

extension ProcSample {
    /// A placeholder for a process that could not be read.
    static let zero = ProcSample(
        time: 0, cpuSeconds: 0, voluntarySwitches: 0, involuntarySwitches: 0, peakRSSKiB: 0, rssKiB: 0)
}
