// Frame cost (`--only framecost`): CPU per presented frame of Screenplay's clear-only scene,
// a shader writing the same colour, the plasma shader and weston-simple-egl, one after
// another on the same sway output; a scoreboard-like text scene at 30 fps against the same
// scene without text; and where the time goes (perf samples by library and by symbol).
import Foundation
import TestSupport

/// One program on the frame-cost output for one window.
struct FrameCostRun: Codable, Sendable {
    /// `simple-egl`, `clear`, `solid-shader`, `plasma`, `clear-30fps`, `text-30fps`.
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

/// A ratio the issue sets a goal for, with how it is computed.
struct FrameCostRatio: Codable, Sendable {
    var name: String
    var value: Double?
    /// At most this.
    var goal: Double
    var method: String
    var met: Bool? { value.map { $0 <= goal } }
}

extension BenchRunner {
    /// A shader that writes the clear-only scene's colour (#204060): the
    /// peer of `DrawingContext.clear`.
    var solidShaderPath: String {
        let path = workDirectory + "/solid.frag"
        let source = """
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                fragColor = vec4(32.0 / 255.0, 64.0 / 255.0, 96.0 / 255.0, 1.0);
            }

            """
        if !FileManager.default.fileExists(atPath: path), !FileManager.default.createFile(atPath: path, contents: Data(source.utf8)) {
            say("cannot write \(path)")
        }
        return path
    }

    var frameCostSeconds: Double { settings.quick ? 4 : 6 }
    /// Rounds of every case in turn: a drift in machine load hits all alike,
    /// and each figure is the median of its rounds.
    var frameCostRounds: Int { settings.quick ? 1 : 3 }

    /// Every case on one sway with one 1280x720@60 output, one after
    /// another, in rounds; perf samples the last round.
    func frameCost() throws {
        let rig = try SwayRig.start(outputs: [benchMode], timeout: 20)
        defer { rig.stop() }
        let seconds = frameCostSeconds
        let cases: [(scene: String, what: String, arguments: [String], continuous: Bool, text: String?)] = [
            ("clear", "`present color 204060`, redrawn every refresh", ["color", "204060"], true, nil),
            ("solid-shader", "`present solid.frag`: a shader writing #204060", [solidShaderPath], false, nil),
            ("plasma", "`present plasma.frag`", [shaderPath], false, nil),
            ("clear-30fps", "`present color 204060 --fps 30`, redrawn every other refresh", ["color", "204060", "--fps", "30"], true, nil),
            ("text-30fps", "the same with one line of text (\"Score 42\", a fifth of the height)", ["color", "204060", "--fps", "30"], true, "Score 42"),
        ]
        var runs: [FrameCostRun] = []
        for round in 1...frameCostRounds {
            let last = round == frameCostRounds
            say("frame cost round \(round)/\(frameCostRounds): simple-egl and five scenes, \(seconds) s each\(last ? ", perf after each" : "")")
            runs.append(try frameCostSimpleEGL(rig, seconds: seconds, profiled: last))
            for c in cases {
                var environment = rig.clientEnvironment
                if let text = c.text { environment["SCREENPLAY_BENCH_TEXT"] = text }
                let presenter = try Presenter(binary: screenplay, arguments: c.arguments, environment: environment, continuous: c.continuous)
                defer { presenter.stop() }
                try presenter.waitForFrames(outputs: 1, timeout: 30)
                let run = measure(
                    presenter, label: "frame cost \(c.scene)", compositor: swayName, scene: c.scene, outputs: 1, seconds: seconds)
                runs.append(FrameCostRun(
                    scene: c.scene, program: "screenplay", what: c.what, seconds: run.seconds, frames: run.presented,
                    cpuSeconds: run.process.cpuSeconds, cpuMsPerFrame: run.cpuMsPerFrame, cpuPercent: run.process.cpuPercent,
                    roundsMsPerFrame: nil))
                if last { profile(pid: presenter.pid, scene: c.scene, program: "screenplay") }
            }
        }
        // One row per scene: the median round, with every round's figure beside it.
        for scene in ["simple-egl"] + cases.map(\.scene) {
            let mine = runs.filter { $0.scene == scene }.sorted { ($0.cpuMsPerFrame ?? .infinity) < ($1.cpuMsPerFrame ?? .infinity) }
            guard var median = mine.isEmpty ? nil : mine[(mine.count - 1) / 2] else { continue }
            median.roundsMsPerFrame = runs.filter { $0.scene == scene }.compactMap(\.cpuMsPerFrame)
            results.frameCost.append(median)
        }
        computeFrameCostRatios()
    }

    private func frameCostSimpleEGL(_ rig: SwayRig, seconds: Double, profiled: Bool) throws -> FrameCostRun {
        let peer = try Peer("weston-simple-egl", "/usr/bin/stdbuf", ["-oL", "weston-simple-egl", "-f"], environment: rig.clientEnvironment)
        defer { peer.stop() }
        // It reports every 5 s; the first report covers start-up and is skipped.
        let reports = max(1, Int((seconds / 5).rounded()))
        guard waitUntil(timeout: 20, poll: 0.02, { peer.simpleEGLReports.count >= 1 || !peer.process.isRunning }),
            peer.process.isRunning, let before = ProcSample.read(pid: peer.pid)
        else { throw RigError("weston-simple-egl did not report: \(peer.process.stderr.suffix(2000))") }
        guard waitUntil(timeout: Double(reports) * 5 + 10, poll: 0.02, { peer.simpleEGLReports.count >= 1 + reports }),
            let after = ProcSample.read(pid: peer.pid)
        else { throw RigError("weston-simple-egl stopped reporting: \(peer.process.stderr.suffix(2000))") }
        let frames = peer.simpleEGLReports[1...reports].reduce(0) { $0 + $1.frames }
        let delta = ProcDelta(from: before, to: after)
        let run = FrameCostRun(
            scene: "simple-egl", program: "weston-simple-egl", what: "`weston-simple-egl -f`: a clear and a triangle each frame",
            seconds: delta.seconds, frames: frames, cpuSeconds: delta.cpuSeconds,
            cpuMsPerFrame: frames > 0 ? 1000 * delta.cpuSeconds / Double(frames) : nil, cpuPercent: delta.cpuPercent,
            roundsMsPerFrame: nil)
        if profiled { profile(pid: peer.pid, scene: "simple-egl", program: "weston-simple-egl") }
        return run
    }

    /// Samples `pid` with perf for a few seconds (after the measured window,
    /// so sampling does not weigh on the figures) and keeps the shares.
    private func profile(pid: Int32, scene: String, program: String) {
        let data = workDirectory + "/perf-\(scene).data"
        let record = try? runProcess(
            "perf", ["record", "-q", "-F", "499", "-p", String(pid), "-o", data, "--", "sleep", settings.quick ? "2" : "4"],
            timeout: 30)
        guard let record, record.status == 0 else {
            results.errors.append("perf record of \(scene): \(record?.stderr.suffix(500) ?? "perf did not run") (install linux-perf)")
            return
        }
        func shares(_ sort: String, limit: Int) -> (samples: Int, shares: [PerfShare]) {
            guard let report = try? runProcess(
                "perf", ["report", "-i", data, "--stdio", "--no-children", "--sort", sort, "--percent-limit", "1"], timeout: 60),
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
                guard words.count >= 2, words[0].hasSuffix("%"), let percent = Double(words[0].dropLast()) else { continue }
                out.append(PerfShare(name: words.dropFirst().joined(separator: " "), percent: percent))
            }
            return (samples, Array(out.prefix(limit)))
        }
        let libraries = shares("dso", limit: 12)
        let symbols = shares("dso,sym", limit: 12)
        results.perf.append(PerfBreakdown(
            scene: scene, program: program, samples: libraries.samples, byLibrary: libraries.shares, bySymbol: symbols.shares))
    }

    private func computeFrameCostRatios() {
        func cost(_ scene: String) -> Double? { results.frameCost.first { $0.scene == scene }?.cpuMsPerFrame }
        func ratio(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        let clear = cost("clear"), egl = cost("simple-egl"), solid = cost("solid-shader"), plasma = cost("plasma")
        results.frameCostRatios = [
            FrameCostRatio(
                name: "clear-only ÷ weston-simple-egl", value: ratio(clear, egl), goal: 1.0,
                method: "CPU ms per presented frame, same sway output, same run; simple-egl clears and draws a triangle each frame"),
            FrameCostRatio(
                name: "(plasma − clear-only) ÷ plasma's pixel work", value: ratio(plasma.flatMap { p in clear.map { p - $0 } }, plasma.flatMap { p in solid.map { p - $0 } }),
                goal: 1.0,
                method: "pixel work = plasma − a shader writing one colour (same path, only the fragment work differs); at most 1 means the clear-only scene costs no more than the cheapest shader"),
            FrameCostRatio(
                name: "clear ÷ shader writing the same colour", value: ratio(clear, solid), goal: 1.1,
                method: "`present color` redrawn every refresh against `present solid.frag`, CPU ms per presented frame"),
            FrameCostRatio(
                name: "text scene ÷ same scene without text (30 fps)", value: ratio(cost("text-30fps"), cost("clear-30fps")), goal: 1.2,
                method: "clear plus one unchanging line of text at --fps 30 against the clear alone at --fps 30, CPU ms per presented frame"),
        ]
    }
}

extension Report {
    static func frameCostMarkdown(_ r: BenchResults) -> String {
        guard !r.frameCost.isEmpty else { return "" }
        var md = "\n## Frame cost (one sway output, one run)\n\n"
        md += "Each program runs alone on the same 1280x720@60 sway output, one after another; CPU = user+sys of the "
        md += "client (all threads) from /proc over the window, divided by the frames it presented (Screenplay: `--stats` "
        md += "frame-callback counts; weston-simple-egl: its own 5-second reports).\n\n"
        md += "The cases run in rounds, each in turn, so a drift in machine load hits all alike; a row is the median "
        md += "round, with every round's figure beside it.\n\n"
        md += "| scene | what | window s | frames | CPU ms / frame | rounds | CPU % |\n|---|---|---:|---:|---:|---|---:|\n"
        for run in r.frameCost {
            let rounds = (run.roundsMsPerFrame ?? []).map { n($0) }.joined(separator: ", ")
            md += "| \(run.scene) | \(run.what) | \(n(run.seconds)) | \(run.frames) | \(opt(run.cpuMsPerFrame)) | \(rounds) | \(n(run.cpuPercent)) |\n"
        }
        md += "\n| ratio | value | goal | met? | method |\n|---|---:|---:|---|---|\n"
        for ratio in r.frameCostRatios {
            md += "| \(ratio.name) | \(opt(ratio.value)) | ≤ \(n(ratio.goal)) | \(ratio.met.map { $0 ? "yes" : "no" } ?? "–") | \(ratio.method) |\n"
        }
        if !r.perf.isEmpty {
            md += "\n### Where the time goes (perf)\n\n"
            md += "`perf record -F 499 -p PID` for a few seconds right after each window (all threads; shares of the "
            md += "samples, 1 % and up). Library first, then the symbols that took the most.\n\n"
            for p in r.perf {
                md += "**\(p.program), \(p.scene)** (\(p.samples) samples): "
                md += p.byLibrary.map { "\(shortName($0.name)) \(n($0.percent)) %" }.joined(separator: ", ") + "\n\n"
                md += p.bySymbol.prefix(8).map { "- \(n($0.percent)) % \(shortName($0.name))" }.joined(separator: "\n") + "\n\n"
            }
        }
        return md
    }

    /// A library's file name without its directory.
    private static func shortName(_ text: String) -> String {
        text.split(separator: " ").map { word in
            word.hasPrefix("/") ? Substring(word.split(separator: "/").last ?? word) : word
        }.joined(separator: " ")
    }
}
