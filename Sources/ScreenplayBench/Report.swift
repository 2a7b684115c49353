// Turns BenchResults into results.json, summary.md, SVG charts and docs/performance.md's table.
import Foundation
import TestSupport

enum Report {
    /// Writes everything into `directory` and returns the summary's Markdown.
    static func write(_ results: BenchResults, to directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        try encoder.encode(results).write(to: URL(fileURLWithPath: directory + "/results.json"))
        let summary = markdown(results)
        try Data(summary.utf8).write(to: URL(fileURLWithPath: directory + "/summary.md"))
        for (name, svg) in charts(results) {
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

        md += memoryBreakdownMarkdown(r)
        md += "\n## Scaling with the number of outputs\n\n"
        md +=
            "Flat = value at the most outputs within \(n(ScalingVerdict.flatBand.lowerBound))–\(n(ScalingVerdict.flatBand.upperBound))× the value at one output.\n\n"
        md += "| metric | (outputs: value) | ratio | flat? |\n|---|---|---:|---|\n"
        for v in r.scaling {
            let points = v.points.map { "\(Int($0[0])): \(n($0[1]))" }.joined(separator: ", ")
            md += "| \(v.metric) | \(points) | \(opt(v.ratio)) | \(v.flat.map { $0 ? "yes" : "no" } ?? "–") |\n"
        }

        md += frameCostMarkdown(r)
        md += layoutMarkdown(r)
        if r.fleet != nil { md += "\n## A fleet of four boxes\n\n" + fleetTable(r) }
        if r.webMemory != nil { md += "\n## A web page's memory\n\n" + webMemoryTable(r) }
        md += webMarkdown(r)
        md += soakMarkdown(r.soak)
        md += textureMarkdown(r.textures)
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
        md += frameCostReadmeRows(r)
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
    static func updateReadme(_ path: String, with r: BenchResults) -> Bool {
        replaceBetweenMarkers(path, "bench-results", with: headline(r))
    }

    /// Puts a full-length soak's table (and when and where it ran) between
    /// docs/performance.md's bench-soak markers.
    static func updateReadmeSoak(_ path: String, with r: BenchResults) -> Bool {
        let table = soakMarkdown(r.soak).replacingOccurrences(of: "\n## Memory over time (soak)\n\n", with: "")
        let when =
            "\nMeasured \(r.run.date) on \(r.run.cores) cores (\(r.run.sway), \(r.run.weston)), commit \(r.run.gitCommit).\n"
        return replaceBetweenMarkers(path, "bench-soak", with: table + when)
    }

    static func replaceBetweenMarkers(_ path: String, _ name: String, with body: String) -> Bool {
        let start = "<!-- \(name):start -->", end = "<!-- \(name):end -->"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let a = text.range(of: start), let b = text.range(of: end), a.upperBound <= b.lowerBound
        else { return false }
        let updated = text[..<a.upperBound] + "\n" + body + text[b.lowerBound...]
        return (try? Data(updated.utf8).write(to: URL(fileURLWithPath: path))) != nil
    }

    // MARK: - Charts

    static func charts(_ r: BenchResults) -> [(String, String)] {
        var out: [(String, String)] = []
        let paced = r.pacing.filter { !$0.framesPerSecondSeries.isEmpty }
        out.append(
            (
                "pacing-frames.svg",
                SVGChart.line(
                    title: "Frames per second per output over the window", xLabel: "seconds into the window",
                    yLabel: "frames / s (mean over outputs)",
                    series: paced.map { run in
                        let longest = run.framesPerSecondSeries.map(\.count).max() ?? 0
                        let points = (0..<longest).map { i -> (x: Double, y: Double) in
                            let values = run.framesPerSecondSeries.compactMap { i < $0.count ? $0[i] : nil }
                            let step = run.program == "weston-simple-egl" ? 5.0 : 1.0
                            return (Double(i + 1) * step, values.reduce(0, +) / Double(max(1, values.count)))
                        }
                        return ChartSeries(
                            name: "\(run.label) [\(run.source)]", points: points,
                            markers: run.program == "weston-simple-egl")
                    })
            ))
        out.append(
            (
                "pacing-intervals.svg",
                SVGChart.line(
                    title: "Interval between consecutive frames (CDF)", xLabel: "ms", yLabel: "share of intervals ≤ x",
                    series: r.pacing.filter { !$0.intervalsMs.isEmpty }.map {
                        ChartSeries(name: "\($0.label) [\($0.source)]", points: SVGChart.cdf($0.intervalsMs))
                    },
                    xRange: 0...100, step: true)
            ))
        out.append(
            (
                "hotplug-latency.svg",
                SVGChart.line(
                    title: "Hot-plug: create_output to colour seen by grim (CDF)", xLabel: "ms",
                    yLabel: "share of additions ≤ x",
                    series: ["screenplay", "swaybg"].map { program in
                        ChartSeries(
                            name: program,
                            points: SVGChart.cdf(
                                r.hotplugAdditions.filter { $0.program == program }.compactMap(\.latencyMs)))
                    },
                    step: true)
            ))
        out.append(
            (
                "scaling-cpu.svg",
                SVGChart.line(
                    title: "CPU per presented frame vs outputs", xLabel: "outputs", yLabel: "CPU ms per output frame",
                    series: r.scaling.filter { $0.metric.hasPrefix("CPU") }.map {
                        ChartSeries(
                            name: $0.metric.contains("shader") ? "shader scene" : "clear-only scene",
                            points: $0.points.map { ($0[0], $0[1]) }, markers: true)
                    })
            ))
        out.append(
            (
                "scaling-hotplug.svg",
                SVGChart.line(
                    title: "Hot-plug median latency vs outputs", xLabel: "outputs after the addition",
                    yLabel: "median ms",
                    series: r.hotplug.map { h in
                        ChartSeries(
                            name: h.program,
                            points: h.medianMsByOutputs.compactMap { k, v in Double(k).map { ($0, v) } }.sorted {
                                $0.x < $1.x
                            }, markers: true)
                    })
            ))
        out.append(
            (
                "idle.svg",
                SVGChart.bars(
                    title: "Idle: wakeups per second (voluntary context switches)", unit: "/s",
                    bars: r.idle.map { ("\($0.program) \($0.content)", $0.wakeupsPerSecond) })
            ))
        out.append(
            (
                "memory.svg",
                SVGChart.line(
                    title: "Peak RSS vs outputs", xLabel: "outputs", yLabel: "VmHWM MiB",
                    series: [("screenplay", "color"), ("screenplay", "shader"), ("swaybg", "color")].map {
                        program, content in
                        ChartSeries(
                            name: "\(program) \(content)",
                            points: r.memory.filter { $0.program == program && $0.content == content }.sorted {
                                $0.outputs < $1.outputs
                            }
                            .map { (Double($0.outputs), $0.peakRSSMiB) }, markers: true)
                    })
            ))
        return out
    }

    // MARK: - Number formatting

    static func n(_ value: Double) -> String { SVGChart.format((value * 100).rounded() / 100) }

    static func opt(_ value: Double?, digits: Int = 2) -> String {
        guard let value else { return "–" }
        return String(format: "%.\(digits)f", value)
    }
}
