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

        md += PacingReport.markdown(r)
        md += HotplugReport.markdown(r)
        md += IdleReport.markdown(r)
        md += MemoryReport.peakRSS(r)
        md += MemoryReport.breakdown(r)
        md += ScalingReport.markdown(r)
        md += FrameCostReport.markdown(r)
        md += LayoutReport.markdown(r)
        md += MirrorReport.markdown(r)
        md += WallReport.markdown(r)
        md += WallSyncReport.markdown(r)
        md += WallBoxesReport.markdown(r)
        md += FleetReport.markdown(r)
        md += WebMemoryReport.markdown(r)
        md += WebReport.markdown(r)
        md += SoakReport.markdown(r.soak)
        md += TextureReport.markdown(r.textures)
        md += VideoReport.markdown(r)
        md += SignageReport.markdown(r)

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
