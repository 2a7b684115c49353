// Turns BenchResults into results.json, summary.md, SVG charts and docs/performance.md's table.
import Foundation
import TestSupport

enum Report: MarkdownFormatting {
    /// Writes everything into `directory` and returns the summary's Markdown.
    static func write(_ results: BenchResults, to directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        try encoder.encode(results).write(to: URL(fileURLWithPath: directory + "/results.json"))
        let summary = markdown(results)
        try Data(summary.utf8).write(to: URL(fileURLWithPath: directory + "/summary.md"))
        for (name, svg) in ReportCharts.all(results) {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        return summary
    }

    // MARK: - Markdown

    static func markdown(_ r: BenchResults) -> String {
        var md = "# Screenplay benchmarks\n\n"
        md += "\(r.run.date) · \(r.run.quick ? "**quick smoke run (not representative)**" : "full run") · "
        md +=
            "\(r.run.cores) cores · Linux \(r.run.kernel) · \(r.run.sway) · \(r.run.weston) · commit \(r.run.gitCommit) · "
        md +=
            "took \(Int(r.run.totalSeconds)) s, load average \(n(r.run.loadAverageAtStart)) at start and \(n(r.run.loadAverageAtEnd)) at the end. All outputs 1280x720@60, Mesa software rendering, compositors rendering with pixman.\n\n"
        md +=
            "Charts: pacing-frames.svg, pacing-intervals.svg, hotplug-latency.svg, scaling-cpu.svg, scaling-hotplug.svg, idle.svg, memory.svg.\n\n"

        md += "## Frame pacing and CPU per presented frame\n\n"
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

        md += "\n## Hot-plug to first frame\n\n"
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

        md += "\n## Idle cost (static content, after the first frame)\n\n"
        md += "CPU = utime+stime from /proc/PID/stat; wakeups = voluntary context switches summed over all threads "
        md +=
            "(/proc/PID/task/*/status). Screenplay runs without `--stats`. The four cases run side by side, each on its own sway.\n\n"
        md += "| program | content | window s | CPU s | CPU % | wakeups / s | preemptions / s | ≤ swaybg? |\n"
        md += "|---|---|---:|---:|---:|---:|---:|---|\n"
        for run in r.idle {
            var goal = ""
            if run.program == "screenplay",
                let peer = r.idle.first(where: { $0.program == "swaybg" && $0.content == run.content })
            {
                let cpuOK = run.process.cpuSeconds <= peer.process.cpuSeconds
                let wakeOK = run.wakeupsPerSecond <= peer.wakeupsPerSecond
                goal = "CPU \(cpuOK ? "yes" : "no"), wakeups \(wakeOK ? "yes" : "no")"
            }
            md +=
                "| \(run.program) | \(run.content) | \(n(run.process.seconds)) | \(String(format: "%.2f", run.process.cpuSeconds)) | "
            md +=
                "\(n(run.cpuPercent)) | \(n(run.wakeupsPerSecond)) | \(n(run.involuntarySwitchesPerSecond)) | \(goal) |\n"
        }

        md += "\n## Peak RSS (VmHWM, MiB)\n\n"
        md +=
            "Colour: outputs hot-plugged one by one in the first hot-plug round (HWM only grows, outputs are only added). "
        md += "Shader: the pacing/scaling runs, which start with all their outputs.\n\n"
        let counts = Set(r.memory.map(\.outputs)).sorted()
        let columns = [("screenplay", "color"), ("screenplay", "shader"), ("swaybg", "color")]
        md += "| outputs | " + columns.map { "\($0.0) \($0.1)" }.joined(separator: " | ") + " |\n"
        md += "|---:|" + columns.map { _ in "---:" }.joined(separator: "|") + "|\n"
        for count in counts {
            let cells = columns.map { column in
                opt(
                    r.memory.first { $0.program == column.0 && $0.content == column.1 && $0.outputs == count }?
                        .peakRSSMiB)
            }
            md += "| \(count) | " + cells.joined(separator: " | ") + " |\n"
        }

        md += MemoryBreakdownReport.markdown(r)
        md += "\n## Scaling with the number of outputs\n\n"
        md +=
            "Flat = value at the most outputs within \(n(ScalingVerdict.flatBand.lowerBound))–\(n(ScalingVerdict.flatBand.upperBound))× the value at one output.\n\n"
        md += "| metric | (outputs: value) | ratio | flat? |\n|---|---|---:|---|\n"
        for v in r.scaling {
            let points = v.points.map { "\(Int($0[0])): \(n($0[1]))" }.joined(separator: ", ")
            md += "| \(v.metric) | \(points) | \(opt(v.ratio)) | \(v.flat.map { $0 ? "yes" : "no" } ?? "–") |\n"
        }

        md += FrameCostReport.markdown(r)
        md += LayoutReport.markdown(r)
        if r.fleet != nil { md += "\n## A fleet of four boxes\n\n" + FleetReport.table(r) }
        if r.webMemory != nil { md += "\n## A web page's memory\n\n" + WebMemoryReport.table(r) }
        md += WebReport.markdown(r)
        md += SoakReport.markdown(r.soak)
        md += TextureReport.markdown(r.textures)
        if let v = r.video {
            md += "\n## Video against mpv\n\n\(v.clip); Mesa \(v.mesa); \(v.mpvVersion).\n\n"
            md +=
                "| program | window s | video frames | dropped | CPU ms / video frame | peak RSS MiB | PSS MiB | private MiB |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
            for run in v.runs {
                let pss = run.memory.map { n(Double($0.pssKiB) / 1024) } ?? "n/a"
                let own = run.memory.map { n(Double($0.privateKiB) / 1024) } ?? "n/a"
                md +=
                    "| \(run.program) | \(n(run.process.seconds)) | \(run.videoFrames) | \(run.dropped) | \(opt(run.cpuMsPerVideoFrame)) | \(n(run.peakRSSMiB)) | \(pss) | \(own) |\n"
            }
            md +=
                "\nScreenplay / mpv: CPU per video frame ×\(opt(v.cpuRatio)), peak RSS ×\(opt(v.rssRatio)) (goal ≤ 1), PSS ×\(opt(v.pssRatio)), private ×\(opt(v.privateRatio)). RSS counts every shared library page each maps (Screenplay also maps the Swift runtime and touches more of libLLVM, compiling its own shaders besides mpv's); PSS divides shared pages among their users and private memory is each program's own.\n"
        }
        if !r.signage.isEmpty {
            md += "\n## Signage (`play`, 0.1 s items)\n\n"
            md +=
                "| switches | CPU ms / switch | boundary to shown median / p95 / max ms | RSS KiB after 100 → end | fds after 100 → end |\n"
            md += "|---:|---:|---|---|---|\n"
            for s in r.signage {
                let latency = s.boundaryToShownMs.map { "\(n($0.median)) / \(n($0.p95)) / \(n($0.max))" } ?? "–"
                md +=
                    "| \(s.switches) | \(n(s.cpuMsPerSwitch)) | \(latency) | \(s.rssKiBAt100) → \(s.rssKiBAtEnd) | \(s.fdsAt100) → \(s.fdsAtEnd) |\n"
            }
        }

        if !r.day.isEmpty {
            md += "\n## A day of signage in minutes (`play`, 1 s items, three panels)\n\n"
            md +=
                "| seconds | restarts | unplugs / plugs | reloads | ctl status answered / not | crash | RSS KiB after warm-up → end | fds | proof: slots logged once / due (missing, twice, wrong) |\n"
            md += "|---:|---:|---|---:|---|---|---|---|---|\n"
            for d in r.day {
                md +=
                    "| \(Int(d.schedule.seconds)) | \(d.restarts) | \(d.unplugs) / \(d.plugs) | \(d.reloads) | \(d.statusAnswered) / \(d.statusUnanswered) | \(d.survived && d.exitStatus == 0 ? "none" : "**yes**") | \(d.rssKiBAfterWarmUp) → \(d.rssKiBAtEnd) (\(String(format: "%+.1f", d.rssGrowth * 100)) %, goal within 5 %) | \(d.fdsAfterWarmUp) → \(d.fdsAtEnd) | \(d.slotsLoggedOnce) / \(d.slotsExpected) (\(d.slotsMissing), \(d.slotsDuplicated), \(d.slotsWrongItem)) |\n"
            }
            for d in r.day where !d.examples.isEmpty {
                md += "\nProblems seen: \(d.examples.joined(separator: "; "))\n"
            }
        }

        md += "\n## Methods and caveats\n\n"
        for key in r.methods.keys.sorted() { md += "- **\(key)**: \(r.methods[key]!)\n" }
        if !r.errors.isEmpty {
            md += "\n## Failures\n\n"
            for e in r.errors { md += "- \(e)\n" }
        }
        return md
    }
}

/// Number formatting and the ratio table, shared by every part of the report.
protocol MarkdownFormatting {}

extension MarkdownFormatting {
    static func n(_ value: Double) -> String { SVGChart.format((value * 100).rounded() / 100) }

    static func opt(_ value: Double?, digits: Int = 2) -> String {
        guard let value else { return "–" }
        return String(format: "%.\(digits)f", value)
    }

    /// Ratios against peers, one row each: value, goal, whether met, how.
    static func ratioTable(_ ratios: [FrameCostRatio]) -> String {
        var md = "| ratio | value | goal | met | method |\n|---|---:|---:|---|---|\n"
        for ratio in ratios {
            md +=
                "| \(ratio.name) | ×\(opt(ratio.value)) | ≤ \(n(ratio.goal)) | \(ratio.met.map { $0 ? "yes" : "no" } ?? "–") | \(ratio.method) |\n"
        }
        return md
    }
}
