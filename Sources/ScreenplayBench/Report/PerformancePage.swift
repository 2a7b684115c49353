// docs/performance.md's tables: the headline rows of a run and a soak's memory table,
// written between the page's markers.
import Foundation
import TestSupport

/// docs/performance.md's tables, each written between its markers; a page
/// left without its markers is left alone.
enum PerformancePage: MarkdownFormatting {
    /// The compact table for docs/performance.md's Performance section.
    static func headline(_ r: BenchResults) -> String {
        func pacing(_ program: String, _ scene: String, _ compositor: String, outputs: Int = 1) -> PacingRun? {
            r.pacing.first {
                $0.program == program && $0.scene == scene && $0.compositor == compositor && $0.outputs == outputs
            }
        }
        func pace(_ run: PacingRun?) -> String {
            guard let run else { return "–" }
            var text = "\(opt(run.presentedPerCycle, digits: 3)) frames/refresh"
            if let d = run.intervals { text += ", interval p95 \(n(d.p95)) ms" }
            return text + " (\(run.source))"
        }
        func cpu(_ run: PacingRun?) -> String { run.flatMap { $0.cpuMsPerFrame }.map { "\(n($0)) ms" } ?? "–" }
        func idle(_ program: String, _ content: String) -> String {
            guard let run = r.idle.first(where: { $0.program == program && $0.content == content }) else { return "–" }
            return
                "\(String(format: "%.2f", run.process.cpuSeconds)) CPU s / \(Int(run.process.seconds)) s, \(n(run.wakeupsPerSecond)) wakeups/s"
        }
        func hotplug(_ program: String) -> String {
            guard let h = r.hotplug.first(where: { $0.program == program }), let d = h.latencyMs,
                let f = h.latencyRefreshes
            else { return "–" }
            return "\(n(d.median)) / \(n(d.p95)) ms (\(n(f.median)) / \(n(f.p95)) refreshes, n=\(d.count))"
        }
        func memory(_ program: String, _ content: String) -> String {
            let points = r.memory.filter { $0.program == program && $0.content == content }.sorted {
                $0.outputs < $1.outputs
            }
            guard let first = points.first, let last = points.last else { return "–" }
            return "\(n(first.peakRSSMiB)) MiB (\(first.outputs)) → \(n(last.peakRSSMiB)) MiB (\(last.outputs))"
        }
        let shaderCPU = r.scaling.first { $0.metric.contains("shader") }
        let hotplugScaling = r.scaling.first { $0.metric.contains("hot-plug") }
        func flat(_ v: ScalingVerdict?) -> String {
            guard let v, let ratio = v.ratio, let flat = v.flat, let first = v.points.first, let last = v.points.last
            else { return "–" }
            return "\(flat ? "flat" : "not flat"): ×\(n(ratio)) from \(Int(first[0])) to \(Int(last[0])) outputs"
        }
        func ratio(_ a: Double?, _ b: Double?) -> String {
            guard let a, let b, b > 0 else { return "–" }
            return "×" + String(format: "%.2f", a / b)
        }
        let screenplayHotplug = r.hotplug.first { $0.program == "screenplay" }?.latencyMs
        let swaybgHotplug = r.hotplug.first { $0.program == "swaybg" }?.latencyMs
        let hotplugGoal: String = {
            guard let a = screenplayHotplug?.median, let b = swaybgHotplug?.median else { return "–" }
            return
                "×\(String(format: "%.2f", a / b)), \(a - b >= 0 ? "+" : "")\(n(a - b)) ms (goal ≤ +5 ms: \(a - b <= 5 ? "met" : "not met"))"
        }()
        func memoryAt1(_ program: String) -> MemoryBreakdown? {
            r.memory.first { $0.program == program && $0.content == "color" && $0.outputs == 1 }?.breakdown
        }
        func mib(_ kib: Int?) -> String { kib.map { "\(n(Double($0) / 1024)) MiB" } ?? "–" }
        func memoryRow(_ label: String, _ key: KeyPath<MemoryBreakdown, Int>) -> String {
            let a = memoryAt1("screenplay")?[keyPath: key], b = memoryAt1("swaybg")?[keyPath: key]
            return
                "| \(label), colour, 1 output | \(mib(a)) | swaybg: \(mib(b)) | \(ratio(a.map(Double.init), b.map(Double.init))) | smaps_rollup after the first frame |\n"
        }
        let egl = pacing("weston-simple-egl", "simple-egl", swayName)
        var md = "| measure | Screenplay | peer | Screenplay ÷ peer | method |\n|---|---|---|---|---|\n"
        md +=
            "| pacing, shader, 1 sway output | \(pace(pacing("screenplay", "shader", swayName))) | simple-egl: \(pace(egl)) | \(ratio(pacing("screenplay", "shader", swayName)?.presentedPerCycle, egl?.presentedPerCycle)) | frames per refresh over 20 s |\n"
        md +=
            "| pacing, shader, 4 sway outputs | \(pace(pacing("screenplay", "shader", swayName, outputs: 4))) | | | |\n"
        md +=
            "| pacing, shader window on weston | \(pace(pacing("screenplay", "shader", westonName))) | simple-egl: \(pace(pacing("weston-simple-egl", "simple-egl", westonName))) | \(ratio(pacing("screenplay", "shader", westonName)?.presentedPerCycle, pacing("weston-simple-egl", "simple-egl", westonName)?.presentedPerCycle)) | presentation feedback |\n"
        md += FrameCostReport.pageRows(r)
        md +=
            "| CPU per frame, plasma shader, 1 output | \(cpu(pacing("screenplay", "shader", swayName))) | simple-egl: \(cpu(egl)) | \(ratio(pacing("screenplay", "shader", swayName)?.cpuMsPerFrame, egl?.cpuMsPerFrame)) | /proc/PID/stat over 20 s (the plasma is far more pixel work than simple-egl's triangle) |\n"
        md +=
            "| hot-plug to first frame, median / p95 | \(hotplug("screenplay")) | swaybg: \(hotplug("swaybg")) | \(hotplugGoal) | create_output to grim seeing the colour, same probe for both |\n"
        md +=
            "| idle, colour | \(idle("screenplay", "color")) | swaybg: \(idle("swaybg", "color")) | | 30 s after the first frame |\n"
        md +=
            "| idle, image | \(idle("screenplay", "image")) | swaybg: \(idle("swaybg", "image")) | | 30 s after the first frame |\n"
        md += memoryRow("RSS", \.rssKiB)
        md += memoryRow("PSS (shared pages divided among users)", \.pssKiB)
        md += memoryRow(
            "private (Private_Clean + Private_Dirty: includes library code no other running process maps)", \.privateKiB
        )
        md += memoryRow("anonymous", \.anonymousKiB)
        md +=
            "| peak RSS, colour | \(memory("screenplay", "color")) | swaybg: \(memory("swaybg", "color")) | | VmHWM as outputs are added |\n"
        md += "| peak RSS, shader | \(memory("screenplay", "shader")) | | | VmHWM |\n"
        md += "| CPU per frame as outputs grow (shader) | \(flat(shaderCPU)) | | | |\n"
        md += "| hot-plug latency as outputs grow | \(flat(hotplugScaling)) | | | |\n"
        if let v = r.video, let mine = v.runs.first(where: { $0.program == "screenplay" }),
            let peer = v.runs.first(where: { $0.program == "mpv" })
        {
            func rate(_ run: VideoRun) -> String {
                let seconds = max(run.process.seconds, 0.001)
                return
                    "\(n(Double(run.videoFrames) / seconds)) frames/s shown, \(n(Double(run.dropped) / seconds)) dropped"
            }
            let shownRatio = peer.videoFrames > 0 ? Double(mine.videoFrames) / Double(peer.videoFrames) : nil
            md +=
                "| video, frames shown (720p30 H.264 on 1280x720@60) | \(rate(mine)) | mpv --fs: \(rate(peer)) | ×\(opt(shownRatio)) | new frames presented over the same window |\n"
            md +=
                "| video, CPU per video frame (720p30 H.264) | \(opt(mine.cpuMsPerVideoFrame)) ms | mpv --fs: \(opt(peer.cpuMsPerVideoFrame)) ms | ×\(opt(v.cpuRatio)) | same sway output, same run |\n"
            md +=
                "| video, peak RSS | \(n(mine.peakRSSMiB)) MiB | mpv --fs: \(n(peer.peakRSSMiB)) MiB | ×\(opt(v.rssRatio)) | VmHWM |\n"
            if let a = mine.memory, let b = peer.memory {
                md +=
                    "| video, PSS / private | \(n(Double(a.pssKiB) / 1024)) / \(n(Double(a.privateKiB) / 1024)) MiB | mpv --fs: \(n(Double(b.pssKiB) / 1024)) / \(n(Double(b.privateKiB) / 1024)) MiB | ×\(opt(v.pssRatio)) / ×\(opt(v.privateRatio)) | smaps_rollup at the end of the window |\n"
            }
        }
        md += "\nMeasured \(r.run.date) on \(r.run.cores) cores (\(r.run.sway), \(r.run.weston), software rendering; "
        md +=
            "load average \(n(r.run.loadAverageAtStart)) → \(n(r.run.loadAverageAtEnd))), commit \(r.run.gitCommit). Details: bench-results/summary.md.\n"
        return md
    }

    /// Replaces the text between docs/performance.md's bench markers with the
    /// headline table. Leaves the page alone if the markers are missing.
    static func updateHeadline(_ path: String, with r: BenchResults) -> Bool {
        replaceBetweenMarkers(path, "bench-results", with: headline(r))
    }

    /// Puts a full-length soak's table (and when and where it ran) between
    /// docs/performance.md's bench-soak markers.
    static func updateSoak(_ path: String, with r: BenchResults) -> Bool {
        let table = SoakReport.markdown(r.soak).replacingOccurrences(of: "\n## Memory over time (soak)\n\n", with: "")
        let when =
            "\nMeasured \(r.run.date) on \(r.run.cores) cores (\(r.run.sway), \(r.run.weston)), commit \(r.run.gitCommit).\n"
        return replaceBetweenMarkers(path, "bench-soak", with: table + when)
    }

    /// Puts the layout ratios (and when and where they ran) between the
    /// page's bench-layouts markers.
    static func updateLayouts(_ path: String, with r: BenchResults) -> Bool {
        replaceBetweenMarkers(path, "bench-layouts", with: LayoutReport.table(r) + measuredLine(r))
    }

    /// Puts the fleet table between the page's bench-fleet markers.
    static func updateFleet(_ path: String, with r: BenchResults) -> Bool {
        replaceBetweenMarkers(path, "bench-fleet", with: FleetReport.table(r) + measuredLine(r))
    }

    /// Puts the web table (and when and where it ran) between the page's
    /// bench-web markers.
    static func updateWeb(_ path: String, with r: BenchResults) -> Bool {
        replaceBetweenMarkers(path, "bench-web", with: WebReport.table(r) + measuredLine(r))
    }

    static func updateWebMemory(_ path: String, with r: BenchResults) -> Bool {
        replaceBetweenMarkers(path, "bench-webmemory", with: WebMemoryReport.table(r) + measuredLine(r))
    }

    /// When, where and at which commit a table between the page's markers ran.
    static func measuredLine(_ r: BenchResults) -> String {
        "\nMeasured \(r.run.date) on \(r.run.cores) cores (\(r.run.sway), software rendering), commit \(r.run.gitCommit).\n"
    }

    static func replaceBetweenMarkers(_ path: String, _ name: String, with body: String) -> Bool {
        let start = "<!-- \(name):start -->", end = "<!-- \(name):end -->"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let a = text.range(of: start), let b = text.range(of: end), a.upperBound <= b.lowerBound
        else { return false }
        let updated = text[..<a.upperBound] + "\n" + body + text[b.lowerBound...]
        return (try? Data(updated.utf8).write(to: URL(fileURLWithPath: path))) != nil
    }
}
