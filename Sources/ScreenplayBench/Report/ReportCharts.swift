// The run's SVG charts: frame rate and frame intervals, hot-plug latency, CPU per
// frame and memory against outputs, idle wakeups.
import Foundation
import TestSupport

/// The run's charts, each an SVG file's name and text.
enum ReportCharts {
    static func all(_ r: BenchResults) -> [(String, String)] {
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
}
