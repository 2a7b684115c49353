// What the benchmark writes to bench-results/results.json. Every number in the summary,
// the charts and the Performance tables is derived from these values, never typed in.

import TestSupport

/// Order statistics of a sample.
struct Distribution: Codable, Sendable {
    var count: Int
    var min: Double
    var median: Double
    var p95: Double
    var p99: Double
    var max: Double
    var mean: Double

    /// `nil` for an empty sample. Percentiles use the nearest-rank method,
    /// so every reported value is one that was actually observed.
    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            let index = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        count = sorted.count
        min = sorted[0]
        median = rank(0.5)
        p95 = rank(0.95)
        p99 = rank(0.99)
        max = sorted[sorted.count - 1]
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }
}

/// One frame-pacing / CPU-per-frame run: a program showing a scene on some
/// outputs of one compositor for a fixed window.
struct PacingRun: Codable, Sendable {
    /// Short identifier, also used in chart legends.
    var label: String
    /// `screenplay` or `weston-simple-egl`.
    var program: String
    /// E.g. `sway 1.7 headless` or `weston 10 headless`.
    var compositor: String
    /// `shader`, `clear` or `simple-egl`.
    var scene: String
    var outputs: Int
    /// Surface size as configured, e.g. `1280x720`.
    var surfaceSize: String?
    /// Where frame counts and intervals come from: `presentation`
    /// (wp_presentation feedback), `frame-callbacks` (arrival of
    /// wl_surface.frame callbacks) or `self-reported` (the peer's own counter).
    var source: String
    /// Length of the measured window, wall clock.
    var seconds: Double
    var presented: Int
    var discarded: Int
    /// Refresh cycles of all measured outputs in their windows.
    var refreshCycles: Double
    /// presented / refreshCycles: 1 means a frame on every refresh.
    var presentedPerCycle: Double?
    var refreshMs: Double
    /// Per output, presented frames in each once-a-second stats window.
    var framesPerSecondSeries: [[Double]]
    /// Every interval between consecutive frames (all outputs), in ms.
    var intervalsMs: [Double]
    var intervals: Distribution?
    var process: ProcDelta
    /// CPU time of the program (user + sys) per presented frame, in ms.
    var cpuMsPerFrame: Double?
    var peakRSSMiB: Double
}

/// One output added to a running client.
struct HotplugAddition: Codable, Sendable {
    /// `screenplay` or `swaybg`.
    var program: String
    var round: Int
    /// Number of outputs once this one is added.
    var outputs: Int
    var output: String
    /// From just before `create_output` was sent to the end of the first grim
    /// capture that saw the expected colour: an upper bound by up to one poll.
    var latencyMs: Double?
    /// `latencyMs` in refresh intervals of the new output.
    var latencyRefreshes: Double?
    /// Time for sway to answer `create_output` (the global appears within it).
    var ipcReplyMs: Double
    /// Duration of the successful capture: the detection resolution.
    var pollMs: Double?
    var polls: Int
}

/// Median and p95 hot-plug latency of one program.
struct HotplugSummary: Codable, Sendable {
    var program: String
    var additions: Int
    var failures: Int
    var latencyMs: Distribution?
    var latencyRefreshes: Distribution?
    var pollMs: Distribution?
    /// Median latency by number of outputs after the addition.
    var medianMsByOutputs: [String: Double]
}

/// Peak RSS of a client showing something on `outputs` outputs.
struct MemoryPoint: Codable, Sendable {
    var program: String
    var content: String
    var outputs: Int
    var peakRSSMiB: Double
    /// How the outputs came to be: `hot-plugged` one by one or `at start`.
    var method: String
    /// RSS, PSS, private, anonymous and shared memory at that moment.
    var breakdown: MemoryBreakdown? = nil
}

/// A static picture left alone.
struct IdleRun: Codable, Sendable {
    var program: String
    var content: String
    var process: ProcDelta
    var cpuPercent: Double
    var wakeupsPerSecond: Double
    var involuntarySwitchesPerSecond: Double
}

/// Whether a per-output cost stays flat as outputs grow.
struct ScalingVerdict: Codable, Sendable {
    var metric: String
    /// (outputs, value) pairs, in order of outputs.
    var points: [[Double]]
    /// value at the most outputs / value at one output.
    var ratio: Double?
    /// Flat when the ratio is within ``ScalingVerdict/flatBand``.
    var flat: Bool?

    /// Band of ratios called flat: ±25 %, wide enough for scheduling noise on
    /// two shared cores, narrow enough to catch a cost that grows with outputs.
    static let flatBand = 0.8...1.25
}

/// Facts about the run.
struct RunInfo: Codable, Sendable {
    var date: String
    var quick: Bool
    var cores: Int
    var kernel: String
    var sway: String
    var weston: String
    var gitCommit: String
    var totalSeconds: Double
    /// 1-minute load average (/proc/loadavg) when the run started and ended:
    /// other work on the machine skews every CPU-bound number.
    var loadAverageAtStart: Double
    var loadAverageAtEnd: Double
    var settings: [String: Double]
}

/// The whole results file.
struct BenchResults: Codable, Sendable {
    var run: RunInfo
    var pacing: [PacingRun] = []
    var hotplugAdditions: [HotplugAddition] = []
    var hotplug: [HotplugSummary] = []
    var idle: [IdleRun] = []
    var memory: [MemoryPoint] = []
    var scaling: [ScalingVerdict] = []
    /// The memory soak (`--only soak`): RSS slopes over half an hour.
    var soak: [SoakTrend] = []
    /// Frame cost on one output (`framecost`): runs, perf shares, ratios.
    var frameCost: [FrameCostRun] = []
    var perf: [PerfBreakdown] = []
    var frameCostRatios: [FrameCostRatio] = []
    var pixelWork: PixelWork?
    /// Video against mpv (VideoBench.swift); nil when not run.
    var video: VideoComparison?
    var signage: [SignageRun] = []
    /// A day of signage in minutes (`--only day`).
    var day: [SignageDayResult] = []
    /// GL objects over an hour of a playlist (`--only textures`).
    var textures: [TextureTrend] = []
    /// Layouts and partial redraws (`--only layouts`): every round of every case.
    var layoutRuns: [LayoutCostRun] = []
    var layoutRatios: [FrameCostRatio] = []
    /// Two panels mirroring one video against one (`--only mirrors`).
    var mirrorRuns: [LayoutCostRun] = []
    var mirrorRatios: [FrameCostRatio] = []
    /// A 2x1 wall of one video against one panel and two decodes (`--only walls`).
    var wallRuns: [LayoutCostRun] = []
    var wallRatios: [FrameCostRatio] = []
    /// A wall's tiles showing each picture together (`--only wallsync`).
    var wallSync: [WallSyncRun] = []
    /// Boxes of one wall showing the same frame (`--only wallboxes`), one run per count of boxes.
    var wallBoxes: [WallBoxesRun] = []
    /// Web pages against cog (`--only web`): every round of both programs.
    var webRuns: [WebCostRun] = []
    var webRatios: [FrameCostRatio] = []
    /// A small fleet pulling one playlist (`--only fleet`); nil when not run.
    var fleet: FleetBenchResult?
    /// A web page's memory over an hour (`--only webmemory`); nil when not run.
    var webMemory: WebMemoryResult?
    /// How each number was obtained, and what it cannot tell.
    var methods: [String: String] = [:]
    /// Benchmarks that failed, with the reason.
    var errors: [String] = []
}
