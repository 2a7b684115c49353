// What the runs of several benchmarks say together: the shader's peak memory by outputs,
// and whether CPU per frame and hot-plug latency stay flat as outputs grow.
import Foundation

/// Draws the scaling verdicts and the shader's memory from the pacing, scaling
/// and hot-plug runs, after every selected benchmark has run.
struct ScalingSummary: Benchmark {
    let context: BenchContext

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

/// The scaling verdicts' part of the report.
enum ScalingReport: MarkdownFormatting {
    /// Each metric by outputs, and whether it stays flat.
    static func markdown(_ r: BenchResults) -> String {
        var md = "\n## Scaling with the number of outputs\n\n"
        md +=
            "Flat = value at the most outputs within \(n(ScalingVerdict.flatBand.lowerBound))–\(n(ScalingVerdict.flatBand.upperBound))× the value at one output.\n\n"
        md += "| metric | (outputs: value) | ratio | flat? |\n|---|---|---:|---|\n"
        for v in r.scaling {
            let points = v.points.map { "\(Int($0[0])): \(n($0[1]))" }.joined(separator: ", ")
            md += "| \(v.metric) | \(points) | \(opt(v.ratio)) | \(v.flat.map { $0 ? "yes" : "no" } ?? "–") |\n"
        }
        return md
    }
}
