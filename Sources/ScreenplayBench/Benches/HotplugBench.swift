// Hot-plug: outputs added one at a time to a running client, each timed from sway's
// `create_output` to the client's colour showing on it in grim; the client's peak
// memory at each output count comes along.
import Foundation
import TestSupport

/// Hot-plug to first frame: rounds of outputs added to a running client, and their summary.
struct HotplugBench: Benchmark {
    let context: BenchContext

    /// One round: a client on one output, then outputs added one at a time
    /// up to the maximum, each timed from `create_output` to the colour
    /// showing in grim.
    func hotplugRound(program: String, round: Int) throws {
        say("hot-plug round \(round) with \(program): 1 → \(settings.hotplugMaxOutputs) outputs")
        let rig = try SwayRig.start(outputs: [benchMode], timeout: 20)
        defer { rig.stop() }
        let ipc = try SwayIPC(socketPath: rig.swaySocket)
        // A wildcard output rule, so every created output comes up in the benchmark mode.
        try ipc.command("output * mode \(benchMode.swaySyntax)")
        let hex = String(probeColorHex, radix: 16, uppercase: true)
        let expected = RGB(hex: probeColorHex)
        let pid: Int32
        let stop: () -> Void
        if program == "screenplay" {
            let presenter = try Presenter(
                binary: screenplay, arguments: ["color", hex], environment: rig.clientEnvironment, stats: false)
            pid = presenter.pid
            stop = presenter.stop
        } else {
            let peer = try Peer(
                "swaybg", "swaybg", ["-o", "*", "-c", "#" + hex, "-m", "solid_color"],
                environment: rig.clientEnvironment)
            pid = peer.pid
            stop = peer.stop
        }
        defer { stop() }
        let probe = PixelProbe(environment: rig.clientEnvironment)
        guard probe.waitFor(expected, x: benchMode.width / 2, y: benchMode.height / 2, timeout: 20) != nil else {
            throw RigError("\(program) never showed #\(hex) on the first output")
        }
        recordMemory(program: program, pid: pid, outputs: 1)
        for outputs in 2...settings.hotplugMaxOutputs {
            // Let the previous output's work finish so additions do not overlap.
            Thread.sleep(forTimeInterval: 0.3)
            let known = Set(try ipc.outputs().map(\.name))
            let start = now()
            try ipc.command("create_output")
            let replied = now()
            guard let added = try ipc.outputs().first(where: { !known.contains($0.name) }) else {
                throw RigError("create_output added no output")
            }
            let seen = probe.waitFor(
                expected, x: added.rect.x + added.rect.width / 2, y: added.rect.y + added.rect.height / 2, timeout: 10)
            let latency = seen.map { 1000 * ($0.ended - start) }
            results.hotplugAdditions.append(
                HotplugAddition(
                    program: program, round: round, outputs: outputs, output: added.name, latencyMs: latency,
                    latencyRefreshes: latency.map { $0 / (1000 / benchMode.refreshHz) },
                    ipcReplyMs: 1000 * (replied - start),
                    pollMs: seen.map { 1000 * ($0.ended - $0.started) }, polls: seen?.polls ?? 0))
            recordMemory(program: program, pid: pid, outputs: outputs)
        }
    }

    /// Keeps the peak RSS at `outputs` outputs: HWM only grows, and outputs
    /// are only added, so it is the peak of a client with that many outputs.
    /// Only the first round's value is kept, for a clean series.
    private func recordMemory(program: String, pid: Int32, outputs: Int) {
        guard let sample = ProcSample.read(pid: pid),
            !results.memory.contains(where: { $0.program == program && $0.content == "color" && $0.outputs == outputs })
        else { return }
        results.memory.append(
            MemoryPoint(
                program: program, content: "color", outputs: outputs, peakRSSMiB: Double(sample.peakRSSKiB) / 1024,
                method: "hot-plugged", breakdown: MemoryBreakdown.read(pid: pid)))
    }

    func summarizeHotplug() {
        for program in ["screenplay", "swaybg"] {
            let mine = results.hotplugAdditions.filter { $0.program == program }
            guard !mine.isEmpty else { continue }
            let ok = mine.compactMap(\.latencyMs)
            var byOutputs: [String: Double] = [:]
            for count in Set(mine.map(\.outputs)) {
                if let d = Distribution(mine.filter { $0.outputs == count }.compactMap(\.latencyMs)) {
                    byOutputs[String(count)] = d.median
                }
            }
            results.hotplug.append(
                HotplugSummary(
                    program: program, additions: mine.count, failures: mine.count - ok.count,
                    latencyMs: Distribution(ok), latencyRefreshes: Distribution(mine.compactMap(\.latencyRefreshes)),
                    pollMs: Distribution(mine.compactMap(\.pollMs)), medianMsByOutputs: byOutputs))
        }
    }
}

/// The hot-plug benchmark's part of the report.
enum HotplugReport: MarkdownFormatting {
    /// Latency from create_output to the first frame, by program.
    static func markdown(_ r: BenchResults) -> String {
        var md = "\n## Hot-plug to first frame\n\n"
        md +=
            "From just before sway's `create_output` (sent on the IPC socket; the wl_output global appears while sway "
        md += "handles it) to the end of the first 1x1 grim capture of the new output's centre showing the colour. "
        md += "The same probe times both programs; each number is an upper bound by up to one poll (poll column).\n\n"
        md +=
            "| program | additions (failed) | median ms | p95 ms | median refreshes | p95 refreshes | poll median ms |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|\n"
        for h in r.hotplug {
            md +=
                "| \(h.program) | \(h.additions) (\(h.failures)) | \(opt(h.latencyMs?.median)) | \(opt(h.latencyMs?.p95)) | "
            md += "\(opt(h.latencyRefreshes?.median)) | \(opt(h.latencyRefreshes?.p95)) | \(opt(h.pollMs?.median)) |\n"
        }
        return md
    }
}
