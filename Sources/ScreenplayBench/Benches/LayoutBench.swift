// Layouts (`--only layouts`): three cost ratios, each case against
// its peer in the same run, in alternating rounds so a drift in machine load
// hits both alike; each figure is the median of its rounds.
//   (a) a 1920x1080 layout: full-panel static image under a 1920x80 ticker,
//       CPU per presented frame against the same ticker alone on black;
//   (b) a layout with a 1280x720 video region, a clock and a ticker, CPU per
//       video frame against the same video full screen;
//   (c) the presenter's console at 1280x720 for 60 s with its clock running,
//       CPU per second against the console with its clock hidden.
import Documents
import Foundation
import TestSupport

/// One case of the layout benchmark for one round.
struct LayoutCostRun: Codable, Sendable {
    /// `ticker-alone`, `image-and-ticker`, `video-full`, `video-layout`,
    /// `console-clock`, `console-no-clock`.
    var name: String
    var what: String
    var round: Int
    var seconds: Double
    var presented: Int
    var draws: Int
    var cpuSeconds: Double
    var cpuMsPerFrame: Double?
    var cpuMsPerSecond: Double
    /// New video pictures drawn (`video_frames`), for the cases with video.
    var videoFrames: Int?
    /// CPU per video picture drawn: what a slow machine that cannot show
    /// every frame of the clip still measures fairly.
    var cpuMsPerVideoFrame: Double?
    /// Pixels repainted per draw, where `--stats` reports them (`redrawn_px`).
    var redrawnPixelsPerDraw: Double?
}

/// The three layout cost ratios, each case against its peer in alternating rounds.
struct LayoutBench: Benchmark {
    let context: BenchContext

    var layoutRounds: Int { settings.quick ? 1 : 3 }
    var layoutSeconds: Double { settings.quick ? 4 : 10 }
    var consoleSeconds: Double { settings.quick ? 10 : 60 }

    func run() throws {
        let folder = workDirectory + "/layouts"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = try LayoutBenchFiles(folder: folder)
        var runs: [LayoutCostRun] = []
        let big = OutputMode(width: 1920, height: 1080, refreshHz: 60)
        for round in 1...layoutRounds {
            say("layouts round \(round)/\(layoutRounds): ticker, image and ticker, video, video layout")
            for (name, what, playlist) in [
                ("ticker-alone", "a 1920x80 ticker region alone on a black 1920x1080 layout", files.tickerAlone),
                ("image-and-ticker", "the same ticker over a full-panel static image", files.imageAndTicker),
                ("video-full", "1280x720 30 fps H.264 full screen on 1920x1080", files.videoFull),
                ("video-layout", "the same video in a 1280x720 region, a seconds clock, a ticker", files.videoLayout),
            ] {
                let rig = try SwayRig.start(outputs: [big], timeout: 20)
                defer { rig.stop() }
                let process = try RunningProcess(
                    screenplay, ["play", playlist, "--stats", "-", "--all"], environment: rig.clientEnvironment)
                defer {
                    process.terminate()
                    _ = process.wait(timeout: 5)
                }
                runs.append(try measureStats(process, name: name, what: what, round: round, seconds: layoutSeconds))
            }
            say("layouts round \(round)/\(layoutRounds): the presenter's console, clock and no clock")
            // The talk under way in both (its timer started a minute ago): the
            // console repaints its timer every second either way, and the
            // ratio is what the clock adds. With the timer stopped a console
            // without a clock draws nothing at all, against which any clock
            // costs more than nothing.
            let started = ["--start-time", Self.clockMinute(Date().addingTimeInterval(-60))]
            for (name, what, extra) in [
                ("console-clock", "`present deck.pdf` console at 1280x720, talk timer and clock running", started),
                ("console-no-clock", "the same console with `--no-clock`", started + ["--no-clock"]),
            ] {
                let rig = try SwayRig.start(outputs: [benchMode, benchMode], timeout: 20)
                defer { rig.stop() }
                var environment = rig.clientEnvironment
                // The laptop's panel, where the console goes: the bench names it as a user's machine would.
                environment["SCREENPLAY_BUILTIN"] = "HEADLESS-1"
                let process = try RunningProcess(
                    screenplay, ["present", files.deck, "--stats", "-"] + extra, environment: environment)
                defer {
                    process.terminate()
                    _ = process.wait(timeout: 5)
                }
                runs.append(
                    try measureStats(
                        process, name: name, what: what, round: round, seconds: consoleSeconds, output: "console"))
            }
        }
        results.layoutRuns = runs
        computeLayoutRatios()
    }

    /// CPU of every thread of `process` over `seconds` of steady state
    /// (after its first frames line and two more seconds), with the frames
    /// its `--stats` counted on `output` (any output when nil) in that span.
    func measureStats(
        _ process: RunningProcess, name: String, what: String, round: Int, seconds: Double, output: String? = nil
    ) throws -> LayoutCostRun {
        func frames() -> [[String: Any]] {
            process.stdoutLines.compactMap { line in
                guard line.contains("\"frames\""),
                    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["event"] as? String == "frames"
                else { return nil }
                // A role (the presenter's console) or an output name.
                if let output, object["role"] as? String != output,
                    !(object["output"] as? String ?? "").contains(output)
                {
                    return nil
                }
                return object
            }
        }
        guard waitUntil(timeout: 30, poll: 0.05, { !frames().isEmpty || !process.isRunning }), process.isRunning else {
            throw RigError("\(name): no frames line from screenplay: \(process.stderr.suffix(1500))")
        }
        Thread.sleep(forTimeInterval: 2)
        let before = frames().count
        guard let cpu0 = taskCPUNanoseconds(process.pid) else { throw RigError("\(name): screenplay exited") }
        let t0 = now()
        Thread.sleep(forTimeInterval: seconds)
        guard let cpu1 = taskCPUNanoseconds(process.pid) else {
            throw RigError("\(name): screenplay exited: \(process.stderr.suffix(1500))")
        }
        let elapsed = now() - t0
        let counted = frames().dropFirst(before)
        func sum(_ key: String) -> Int { counted.reduce(0) { $0 + (($1[key] as? NSNumber)?.intValue ?? 0) } }
        let presented = sum("presented"), draws = sum("draws")
        let redrawn = counted.contains { $0["redrawn_px"] != nil } ? sum("redrawn_px") : nil
        let videoFrames = counted.contains { $0["video_frames"] != nil } ? sum("video_frames") : nil
        let cpuSeconds = Double(cpu1 - cpu0) / 1e9
        let run = LayoutCostRun(
            name: name, what: what, round: round, seconds: elapsed, presented: presented, draws: draws,
            cpuSeconds: cpuSeconds, cpuMsPerFrame: presented > 0 ? 1000 * cpuSeconds / Double(presented) : nil,
            cpuMsPerSecond: 1000 * cpuSeconds / elapsed, videoFrames: videoFrames,
            cpuMsPerVideoFrame: videoFrames.flatMap { $0 > 0 ? 1000 * cpuSeconds / Double($0) : nil },
            redrawnPixelsPerDraw: redrawn.map { Double($0) / Double(max(1, draws)) })
        say(
            "layouts: \(name): \(String(format: "%.2f", run.cpuMsPerSecond)) ms CPU/s, \(presented) frames, \(draws) draws"
                + (videoFrames.map { ", \($0) video frames" } ?? "")
        )
        return run
    }

    /// HH:MM of `date` in local time, as `--start-time` takes it.
    static func clockMinute(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }

    private func computeLayoutRatios() {
        func median(_ name: String, _ value: (LayoutCostRun) -> Double?) -> Double? {
            let values = results.layoutRuns.filter { $0.name == name }.compactMap(value).sorted()
            return values.isEmpty ? nil : values[(values.count - 1) / 2]
        }
        func ratio(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        let perFrame: (LayoutCostRun) -> Double? = { $0.cpuMsPerFrame }
        let perSecond: (LayoutCostRun) -> Double? = { $0.cpuMsPerSecond }
        let perVideoFrame: (LayoutCostRun) -> Double? = { $0.cpuMsPerVideoFrame }
        results.layoutRatios = [
            FrameCostRatio(
                name: "image and ticker ÷ ticker alone (1920x1080, 60 Hz)",
                value: ratio(median("image-and-ticker", perFrame), median("ticker-alone", perFrame)), goal: 1.3,
                method:
                    "CPU ms per presented frame (every thread, schedstat) over \(Int(layoutSeconds)) s, median of \(layoutRounds) alternating rounds"
            ),
            FrameCostRatio(
                name: "video in a layout with clock and ticker ÷ video full screen",
                value: ratio(median("video-layout", perVideoFrame), median("video-full", perVideoFrame)), goal: 1.15,
                method:
                    "CPU ms per video frame drawn (play's `video_frames`; every thread) over \(Int(layoutSeconds)) s, median of \(layoutRounds) alternating rounds; both play the same 30 fps clip, and a machine that cannot show all of it drops frames in either"
            ),
            FrameCostRatio(
                name: "console with clock ÷ console with --no-clock (1280x720)",
                value: ratio(median("console-clock", perSecond), median("console-no-clock", perSecond)), goal: 1.2,
                method:
                    "CPU per second over \(Int(consoleSeconds)) s with the talk timer running in both, median of \(layoutRounds) alternating rounds"
            ),
        ]
    }
}

/// The media and playlists the layout benchmark plays.
struct LayoutBenchFiles {
    let tickerAlone: String
    let imageAndTicker: String
    let videoFull: String
    let videoLayout: String
    let deck: String

    init(folder: String) throws {
        let image = folder + "/photo.png"
        let (w, h) = (1920, 1080)
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (UInt8(x * 255 / w), UInt8(y * 255 / h), 0x60)
            }
        }
        try RigImage(width: w, height: h, pixels: pixels).writePNG(to: image)
        let clip = folder + "/clip-720p30.mp4"
        try makeBenchClip(clip, width: 1280, height: 720, seconds: 40)
        deck = folder + "/deck.pdf"
        try SampleDeck.writePDF(to: deck)

        let news =
            #"{"ticker": "Screenplay layouts  ·  a ticker over a photo  ·  1920x80 at 60 Hz", "speed": 120, "size": 48}"#
        let ticker = #"{"name": "ticker", "x": 0, "y": 1000, "width": 1920, "height": 80, "z": 1, "items": [\#(news)]}"#
        func write(_ name: String, _ json: String) throws -> String {
            let path = folder + "/" + name
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        func layout(_ regions: [String]) -> String {
            """
            {"layouts": {"l": {"background": "000000", "regions": [\(regions.joined(separator: ", "))]}},
             "panels": [{"match": "*", "layout": "l"}]}
            """
        }
        tickerAlone = try write("ticker-alone.json", layout([ticker]))
        imageAndTicker = try write(
            "image-and-ticker.json",
            layout([
                #"{"name": "photo", "x": 0, "y": 0, "width": "100%", "height": "100%", "items": [{"file": "\#(image)"}]}"#,
                ticker,
            ]))
        let video = #"{"file": "\#(clip)"}"#
        videoFull = try write(
            "video-full.json", #"{"playlists": {"v": [\#(video)]}, "panels": [{"match": "*", "playlist": "v"}]}"#)
        videoLayout = try write(
            "video-layout.json",
            layout([
                #"{"name": "video", "x": 0, "y": 0, "width": 1280, "height": 720, "items": [\#(video)]}"#,
                #"{"name": "clock", "x": 1280, "y": 0, "width": 640, "height": 200, "items": [{"clock": "%H:%M:%S", "size": 96}]}"#,
                ticker,
            ]))
    }
}

/// The layout benchmark's part of the report.
enum LayoutReport: MarkdownFormatting {
    /// The three ratios with their cases, for summary.md and docs/performance.md.
    static func table(_ r: BenchResults) -> String {
        guard !r.layoutRatios.isEmpty else { return "" }
        var md = ratioTable(r.layoutRatios)
        md +=
            "\n| case | rounds: CPU ms per frame | rounds: CPU ms per second | rounds: CPU ms per video frame | pixels redrawn per draw |\n"
        md += "|---|---|---|---|---:|\n"
        var names: [String] = []
        for run in r.layoutRuns where !names.contains(run.name) { names.append(run.name) }
        for name in names {
            let runs = r.layoutRuns.filter { $0.name == name }
            let what = runs.first?.what ?? name
            md += "| \(name): \(what) | \(runs.map { opt($0.cpuMsPerFrame) }.joined(separator: ", ")) | "
            md += "\(runs.map { n($0.cpuMsPerSecond) }.joined(separator: ", ")) | "
            md += "\(runs.map { opt($0.cpuMsPerVideoFrame) }.joined(separator: ", ")) | "
            md += "\(opt(runs.last?.redrawnPixelsPerDraw, digits: 0)) |\n"
        }
        return md
    }

    static func markdown(_ r: BenchResults) -> String {
        let table = Self.table(r)
        return table.isEmpty ? "" : "\n## Layouts and partial redraws\n\n" + table
    }
}
