// The memory soak: scenes left running for half an hour, as signage boxes and
// scoreboards are, with the RSS slope after warm-up of every Screenplay
// process and of the compositor under it. Short runs hid a leak of 13 KiB/s
// (presentation feedback that sway never answers, piling up on both sides).
import Documents
import Foundation
import TestSupport

/// One watched process of the soak.
struct SoakTrend: Codable, Sendable {
    /// E.g. `screenplay shader` or `sway (under the three above)`.
    var label: String
    var compositor: String
    var minutes: Double
    var warmupMinutes: Double
    /// RSS slope after the warm-up (least squares over every sample).
    var slopeKiBPerMinute: Double?
    var rssFirstKiB: Int?
    var rssLastKiB: Int?
    var samples: Int
    /// (seconds, KiB) of every sample, so a bump is told from a trend.
    var series: [[Double]] = []
    /// The slopes of RSS's two parts, fitted as RSS's is: anonymous pages
    /// (heap, stacks, buffers: where a leak grows) and file-backed and
    /// shared pages (library code faulted in the first time a path runs,
    /// memfd buffers shared with the compositor). A step in the second is
    /// a page read once, not growth.
    var anonSlopeKiBPerMinute: Double?
    var fileSlopeKiBPerMinute: Double?
    /// (seconds, anonymous KiB, file-backed and shared KiB) of every sample.
    var parts: [[Double]] = []
    /// (last - first 30 s median after warm-up) per minute: a temporary
    /// bump moves the slope but not this.
    var netKiBPerMinute: Double? {
        guard let first = rssFirstKiB, let last = rssLastKiB, minutes > warmupMinutes else { return nil }
        return Double(last - first) / (minutes - warmupMinutes)
    }
    /// Below 1 KiB per minute: the goal.
    var meetsGoal: Bool? { slopeKiBPerMinute.map { $0 < 1 } }
}

/// The memory soak: every scene at once for half an hour, RSS sampled every second.
struct MemorySoak: Benchmark {
    let context: BenchContext

    /// Shader, static picture, presenter, a playlist (image, colour and a
    /// video, crossfading) and a looping video on one sway; shader and static
    /// picture each on its own weston (one output each, the fullscreen
    /// fallback); all at once for `minutes`, sampled every second.
    func run(minutes: Double) throws {
        let seconds = minutes * 60
        let warmup = min(120, seconds / 4)
        say(
            "memory soak: shader, static, presenter, playlist and video on sway, shader and static on weston, \(Int(seconds)) s"
        )
        let sway = try SwayRig.start(outputs: Array(repeating: benchMode, count: 6), timeout: 20)
        defer { sway.stop() }
        let westonShader = try WestonRig.start(width: benchMode.width, height: benchMode.height, timeout: 20)
        defer { westonShader.stop() }
        let westonStatic = try WestonRig.start(width: benchMode.width, height: benchMode.height, timeout: 20)
        defer { westonStatic.stop() }

        let deck = try SampleDeck.write(to: workDirectory)
        var swayEnv = sway.clientEnvironment
        swayEnv["SCREENPLAY_BUILTIN"] = "HEADLESS-1"
        var clients: [(label: String, compositor: String, process: RunningProcess)] = []
        defer { for c in clients { c.process.kill() } }
        func start(
            _ label: String, _ compositor: String, _ args: [String], _ env: [String: String],
            command: String = "present"
        ) throws {
            let p = try RunningProcess(screenplay, [command] + args + ["--stats", "-"], environment: env)
            clients.append((label, compositor, p))
            guard p.waitForLine(containing: "\"connect\"", timeout: 30) != nil else {
                throw RigError("\(label) did not connect: \(p.stderr.suffix(1500))")
            }
        }
        try start("screenplay shader", swayName, [shaderPath, "--output", "HEADLESS-2"], swayEnv)
        try start("screenplay static", swayName, ["test-card", "--output", "HEADLESS-3"], swayEnv)
        try start("screenplay presenter", swayName, [deck.pdf, "--output", "HEADLESS-4"], swayEnv)
        // The playlist makes and frees a decoder every pass (about 4 s).
        let clip = try TestMedia.colourSequence(in: workDirectory, name: "soak-clip", width: 640, height: 360)
        try RigImage(width: 64, height: 36, pixels: [UInt8](repeating: 0xc0, count: 64 * 36 * 3)).writePNG(
            to: workDirectory + "/soak-poster.png")
        let playlist = workDirectory + "/soak-signage.json"
        try """
        {"playlists": {"loop": [{"file": "soak-poster.png", "duration": 0.5}, {"color": "204080", "duration": 0.5}, {"file": "soak-clip.mp4"}]},
         "default": "loop", "transition": {"seconds": 0.2}}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        try start("screenplay play", swayName, [playlist, "--output", "HEADLESS-5"], swayEnv, command: "play")
        try start("screenplay video", swayName, [clip, "--output", "HEADLESS-6"], swayEnv)
        // weston has one output, which counts as the main screen: --all.
        try start("screenplay shader", westonName, [shaderPath, "--all"], westonShader.clientEnvironment)
        try start("screenplay static", westonName, ["test-card", "--all"], westonStatic.clientEnvironment)

        var watched = clients.map { (label: $0.label, compositor: $0.compositor, pid: $0.process.pid) }
        if let pid = sway.compositorPID { watched.append(("sway (under the five above)", swayName, pid)) }
        if let pid = westonShader.compositorPID(named: "weston") {
            watched.append(("weston (under the shader)", westonName, pid))
        }
        if let pid = westonStatic.compositorPID(named: "weston") {
            watched.append(("weston (under the static picture)", westonName, pid))
        }

        let watchStart = Date()
        var parts = [[[Double]]](repeating: [], count: watched.count)
        let trends = MemoryTrend.watch(
            watched.map { ("\($0.label) · \($0.compositor)", $0.pid) }, seconds: seconds, warmupSeconds: warmup,
            interval: 1, windowSeconds: 30,
            check: {
                let t = Date().timeIntervalSince(watchStart)
                for (i, entry) in watched.enumerated() {
                    if let kinds = ResidentParts.read(pid: entry.pid) {
                        parts[i].append([t, Double(kinds.anonymousKiB), Double(kinds.fileAndSharedKiB)])
                    }
                }
                return clients.allSatisfy { $0.process.isRunning }
            })
        for c in clients where !c.process.isRunning {
            results.errors.append("memory soak: \(c.label) on \(c.compositor) exited: \(c.process.stderr.suffix(1500))")
        }
        for (index, (entry, trend)) in zip(watched, trends).enumerated() {
            say("memory soak: \(trend)")
            func partSlope(_ column: Int) -> Double? {
                MemoryTrend(
                    label: entry.label, samples: parts[index].map { ($0[0], Int($0[column])) }, warmupSeconds: warmup,
                    windowSeconds: 30
                ).slopeKiBPerMinute
            }
            results.soak.append(
                SoakTrend(
                    label: entry.label, compositor: entry.compositor, minutes: (trend.samples.last?.seconds ?? 0) / 60,
                    warmupMinutes: warmup / 60, slopeKiBPerMinute: trend.slopeKiBPerMinute,
                    rssFirstKiB: trend.medians.first?.kib, rssLastKiB: trend.medians.last?.kib,
                    samples: trend.samples.count,
                    series: trend.samples.map { [$0.seconds, Double($0.kib)] }, anonSlopeKiBPerMinute: partSlope(1),
                    fileSlopeKiBPerMinute: partSlope(2), parts: parts[index]))
        }
    }
}

/// The memory soak's part of the report.
enum SoakReport {
    /// The soak's table for summary.md.
    static func markdown(_ soak: [SoakTrend]) -> String {
        guard !soak.isEmpty else { return "" }
        var md = "\n## Memory over time (soak)\n\n"
        md += "Every program runs at once for the whole window; RSS (VmRSS) is sampled every second and the slope is "
        md +=
            "a least-squares fit to the median of each 30 s after the warm-up; net is the change from the first of those medians to the last, per minute "
        md +=
            "(a bump that comes and goes moves the slope, not the net). Goal: below 1 KiB per minute for Screenplay and for the compositor. "
        md +=
            "RSS's parts are fitted the same way: anonymous (RssAnon: heap, stacks, buffers, where a leak grows) and file and shared "
        md +=
            "(RssFile + RssShmem: library code paged in the first time a path runs, buffers shared with the compositor).\n\n"
        md +=
            "| process | compositor | minutes | warm-up min | 30 s median RSS after warm-up → end KiB | slope KiB/min | net KiB/min | anonymous KiB/min | file and shared KiB/min | < 1 KiB/min? |\n"
        md += "|---|---|---:|---:|---|---:|---:|---:|---:|---|\n"
        for t in soak {
            let slope = t.slopeKiBPerMinute.map { String(format: "%.2f", $0) } ?? "–"
            let goal = t.meetsGoal.map { $0 ? "yes" : "**no**" } ?? "–"
            md +=
                "| \(t.label) | \(t.compositor) | \(String(format: "%.1f", t.minutes)) | \(String(format: "%.1f", t.warmupMinutes)) | "
            let net = t.netKiBPerMinute.map { String(format: "%.2f", $0) } ?? "–"
            let anon = t.anonSlopeKiBPerMinute.map { String(format: "%.2f", $0) } ?? "–"
            let file = t.fileSlopeKiBPerMinute.map { String(format: "%.2f", $0) } ?? "–"
            md +=
                "\(t.rssFirstKiB.map(String.init) ?? "–") → \(t.rssLastKiB.map(String.init) ?? "–") | \(slope) | \(net) | \(anon) | \(file) | \(goal) |\n"
        }
        return md
    }
}
