// The frame-cost benchmark's ratios and its part of the summary.
import Foundation

/// Two scenes measured one after the other in each round share that round's
/// load: the median of the rounds' own ratios drifts less than the ratio of
/// two medians taken from different rounds.
enum RoundRatios {
    /// The median of `a[i] / b[i]`; nil unless both have the same rounds.
    static func median(_ a: [Double]?, over b: [Double]?) -> Double? {
        guard let a, let b, a.count == b.count else { return nil }
        let ratios = zip(a, b).filter { $0.1 > 0 }.map { $0.0 / $0.1 }.sorted()
        guard !ratios.isEmpty else { return nil }
        let middle = ratios.count / 2
        return ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
    }
}

extension FrameCostRatio {
    /// The ratios the frame-cost goals are set for, from one run's rows.
    static func all(_ runs: [FrameCostRun], pixelWork: PixelWork?) -> [FrameCostRatio] {
        func run(_ scene: String) -> FrameCostRun? { runs.first { $0.scene == scene } }
        func cost(_ scene: String) -> Double? { run(scene)?.cpuMsPerFrame }
        func ratio(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        func pairedRatio(_ a: String, _ b: String) -> Double? {
            RoundRatios.median(run(a)?.roundsMsPerFrame, over: run(b)?.roundsMsPerFrame) ?? ratio(cost(a), cost(b))
        }
        let clear = cost("clear"), plasma = cost("plasma")
        return [
            FrameCostRatio(
                name: "clear-only ÷ weston-simple-egl", value: pairedRatio("clear", "simple-egl"), goal: 1.0,
                method:
                    "CPU ms per presented frame, same sway output, same run; simple-egl clears and draws a triangle each frame"
            ),
            FrameCostRatio(
                name: "clear-only, default path ÷ EGL swap", value: pairedRatio("clear", "clear-egl"), goal: 1.05,
                method:
                    "the clear-only scene on the default path (with a software renderer: the window's own wl_shm buffers for frames that change in part, Mesa's swap for frames that change everywhere) against the same scene with SCREENPLAY_SHM_PRESENT=0 (Mesa's eglSwapBuffers for every frame), same run: what a frame that changes everywhere pays on the default path"
            ),
            FrameCostRatio(
                name: "shader writing the colour, default path ÷ EGL swap",
                value: pairedRatio("solid-shader", "solid-shader-egl"),
                goal: 1.0,
                method: "the full-screen solid shader, default path against SCREENPLAY_SHM_PRESENT=0, same run"
            ),
            FrameCostRatio(
                name: "(plasma − clear-only) ÷ plasma's pixel work",
                value: ratio(plasma.flatMap { p in clear.map { p - $0 } }, pixelWork?.cpuMsPerFrame),
                goal: 1.0,
                method:
                    "pixel work = the plasma drawn into a 1280x720 offscreen target in the benchmark's own process (llvmpipe, no Wayland, no swap, glFinish per frame); at most 1 means presenting the shader adds nothing beyond its pixels to the clear-only scene"
            ),
            FrameCostRatio(
                name: "clear ÷ shader writing the same colour", value: pairedRatio("clear", "solid-shader"), goal: 1.1,
                method: "`present color` redrawn every refresh against `present solid.frag`, CPU ms per presented frame"
            ),
            FrameCostRatio(
                name: "text scene ÷ same scene without text (30 fps)",
                value: pairedRatio("text-30fps", "clear-30fps"), goal: 1.2,
                method:
                    "clear plus one unchanging line of text at --fps 30 against the clear alone at --fps 30, CPU ms per presented frame"
            ),
        ]
    }
}

/// The frame-cost benchmark's part of the report.
enum FrameCostReport: MarkdownFormatting {
    /// The frame-cost rows of docs/performance.md's Performance table.
    static func pageRows(_ r: BenchResults) -> String {
        func frameCost(_ scene: String) -> FrameCostRun? { r.frameCost.first { $0.scene == scene } }
        func ms(_ value: Double?) -> String { value.map { "\(n($0)) ms" } ?? "–" }
        func goal(_ name: String) -> String {
            guard let g = r.frameCostRatios.first(where: { $0.name == name }), let v = g.value else { return "–" }
            return "×\(String(format: "%.2f", v)) (goal ≤ \(n(g.goal)): \(g.met == true ? "met" : "not met"))"
        }
        let clear = frameCost("clear")?.cpuMsPerFrame
        let plasmaAboveClear = frameCost("plasma")?.cpuMsPerFrame.flatMap { p in clear.map { p - $0 } }
        var md =
            "| CPU per frame, clear-only scene | \(ms(clear)) | simple-egl: \(ms(frameCost("simple-egl")?.cpuMsPerFrame)) | \(goal("clear-only ÷ weston-simple-egl")) | one output, same run, thread CPU over whole stats windows; the ratio is the median of each round's own ratio |\n"
        md +=
            "| CPU per frame, clear-only scene, default path against the EGL swap | \(ms(clear)) | SCREENPLAY_SHM_PRESENT=0: \(ms(frameCost("clear-egl")?.cpuMsPerFrame)) | \(goal("clear-only, default path ÷ EGL swap")) | as above |\n"
        md +=
            "| CPU per frame, full-screen shader, default path against the EGL swap | \(ms(frameCost("solid-shader")?.cpuMsPerFrame)) | SCREENPLAY_SHM_PRESENT=0: \(ms(frameCost("solid-shader-egl")?.cpuMsPerFrame)) | \(goal("shader writing the colour, default path ÷ EGL swap")) | as above |\n"
        md +=
            "| CPU per frame, clear against a shader writing the colour | \(ms(clear)) | shader: \(ms(frameCost("solid-shader")?.cpuMsPerFrame)) | \(goal("clear ÷ shader writing the same colour")) | as above |\n"
        md +=
            "| CPU per frame, plasma above clear-only | \(ms(plasmaAboveClear)) | its pixel work: \(ms(r.pixelWork?.cpuMsPerFrame)) | \(goal("(plasma − clear-only) ÷ plasma's pixel work")) | pixel work: the plasma offscreen, no Wayland |\n"
        md +=
            "| CPU per frame, a line of text at 30 fps | \(ms(frameCost("text-30fps")?.cpuMsPerFrame)) | no text: \(ms(frameCost("clear-30fps")?.cpuMsPerFrame)) | \(goal("text scene ÷ same scene without text (30 fps)")) | as above |\n"
        return md
    }

    static func markdown(_ r: BenchResults) -> String {
        guard !r.frameCost.isEmpty else { return "" }
        var md = "\n## Frame cost (one sway output, one run)\n\n"
        md += "Each program runs alone on the same 1280x720@60 sway output, one after another; CPU = run time of every "
        md +=
            "thread of the client (/proc/PID/task/*/schedstat, nanoseconds) over whole reporting windows, divided by the "
        md +=
            "frames presented in them (Screenplay: the `--stats` frames lines, frame-callback counts, CPU read as each line "
        md += "arrives; weston-simple-egl: its own 5-second reports, CPU read as each arrives).\n\n"
        md += "The cases run in rounds, each in turn, so a drift in load hits all alike; a row is the median round "
        md += "(every round beside it), a ratio the median of the rounds' own ratios (its scenes run in turn).\n\n"
        md +=
            "| scene | what | window s | frames | CPU ms / frame | rounds | CPU % |\n|---|---|---:|---:|---:|---|---:|\n"
        for run in r.frameCost {
            let rounds = (run.roundsMsPerFrame ?? []).map { n($0) }.joined(separator: ", ")
            md +=
                "| \(run.scene) | \(run.what) | \(n(run.seconds)) | \(run.frames) | \(opt(run.cpuMsPerFrame)) | \(rounds) | \(n(run.cpuPercent)) |\n"
        }
        if let w = r.pixelWork {
            md += "\nPlasma pixel work (offscreen, \(w.frames) frames): \(opt(w.cpuMsPerFrame)) CPU ms per frame.\n"
        }
        md += "\n| ratio | value | goal | met? | method |\n|---|---:|---:|---|---|\n"
        for ratio in r.frameCostRatios {
            md +=
                "| \(ratio.name) | \(opt(ratio.value)) | ≤ \(n(ratio.goal)) | \(ratio.met.map { $0 ? "yes" : "no" } ?? "–") | \(ratio.method) |\n"
        }
        if !r.perf.isEmpty {
            md += "\n### Where the time goes (perf)\n\n"
            md += "`perf record -F 499 -p PID` for a few seconds right after each window (all threads; shares of the "
            md += "samples, 1 % and up). Library first, then the symbols that took the most.\n\n"
            for p in r.perf {
                md += "**\(p.program), \(p.scene)** (\(p.samples) samples): "
                md += p.byLibrary.map { "\(shortName($0.name)) \(n($0.percent)) %" }.joined(separator: ", ") + "\n\n"
                md +=
                    p.bySymbol.prefix(8).map { "- \(n($0.percent)) % \(shortName($0.name))" }.joined(separator: "\n")
                    + "\n\n"
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
