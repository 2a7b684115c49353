import Foundation

/// How one process's resident memory moved while it was watched: the
/// least-squares slope after a warm-up, so a steady leak shows as a rate
/// and one-off allocations (caches filled at start) do not.
///
/// The slope is fitted to the median of each window (`windowSeconds`), not
/// to every sample: a playlist's RSS drops by 7 MB for an eighth of every
/// cycle (a video item's decoder freed, its buffers returned to the system)
/// and jumps for a moment now and then (two decoders' buffers at once), and
/// samples taken at a steady interval hit those dips in a slow beat with
/// the cycle, which reads as a slope of either sign (-14 to +7 KiB/s in
/// three minutes of a flat playlist). A leak raises every window's median
/// at its own rate, so the medians are as strict.
public struct MemoryTrend: Sendable, CustomStringConvertible {
    /// What was watched, for messages ("screenplay shader", "sway").
    public let label: String
    /// (seconds since the watch began, RSS in KiB), every sample.
    public let samples: [(seconds: Double, kib: Int)]
    /// Samples before this time are left out of the slope.
    public let warmupSeconds: Double
    /// The slope is fitted to the median sample of each window this long.
    public let windowSeconds: Double

    public init(
        label: String, samples: [(seconds: Double, kib: Int)], warmupSeconds: Double, windowSeconds: Double = 10
    ) {
        self.label = label
        self.samples = samples
        self.warmupSeconds = warmupSeconds
        self.windowSeconds = windowSeconds
    }

    /// Samples after the warm-up.
    public var measured: [(seconds: Double, kib: Int)] { samples.filter { $0.seconds >= warmupSeconds } }

    /// The median sample of each whole window after the warm-up, at the
    /// window's mean sample time (the last window, cut short when the watch
    /// ended, may hold one sample that fell in a dip: it is left out).
    public var medians: [(seconds: Double, kib: Int)] {
        guard windowSeconds > 0, let end = samples.last?.seconds else { return [] }
        var windows: [Int: [(seconds: Double, kib: Int)]] = [:]
        for sample in measured {
            let index = Int((sample.seconds - warmupSeconds) / windowSeconds)
            guard warmupSeconds + Double(index + 1) * windowSeconds <= end else { continue }
            windows[index, default: []].append(sample)
        }
        return windows.keys.sorted().compactMap { key in
            guard let window = windows[key], !window.isEmpty else { return nil }
            let sorted = window.map(\.kib).sorted()
            return (window.map(\.seconds).reduce(0, +) / Double(window.count), sorted[sorted.count / 2])
        }
    }

    /// Growth in KiB per second after the warm-up (least squares over the
    /// window medians); nil with fewer than three windows.
    public var slopeKiBPerSecond: Double? {
        let points = medians
        guard points.count >= 3 else { return nil }
        let n = Double(points.count)
        let meanX = points.map(\.seconds).reduce(0, +) / n
        let meanY = points.map { Double($0.kib) }.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        for p in points {
            sxy += (p.seconds - meanX) * (Double(p.kib) - meanY)
            sxx += (p.seconds - meanX) * (p.seconds - meanX)
        }
        return sxx > 0 ? sxy / sxx : nil
    }

    /// Growth from the first third of the window medians to the middle
    /// third, and from the middle third to the last, each the difference of
    /// the thirds' medians; nil with fewer than six windows. A leak grows in
    /// both; a bounded step (one more frame buffer while the compositor held
    /// frames, 900 KiB at 640x360, once) grows in one only, and the median of
    /// each third keeps one window's noise out of either.
    public var growthByThirds: (early: Int, late: Int)? {
        let values = medians.map(\.kib)
        guard values.count >= 6 else { return nil }
        let third = values.count / 3
        func median(_ slice: ArraySlice<Int>) -> Int {
            let sorted = slice.sorted()
            return sorted[sorted.count / 2]
        }
        let first = median(values.prefix(third))
        let middle = median(values.dropFirst(third).prefix(values.count - 2 * third))
        let last = median(values.suffix(third))
        return (middle - first, last - middle)
    }

    /// Growth in KiB per minute after the warm-up.
    public var slopeKiBPerMinute: Double? { slopeKiBPerSecond.map { $0 * 60 } }

    public var description: String {
        let first = medians.first?.kib ?? -1
        let last = medians.last?.kib ?? -1
        let slope = slopeKiBPerMinute.map { String(format: "%.2f KiB/min", $0) } ?? "no slope"
        return
            "\(label): \(slope) after \(Int(warmupSeconds)) s warm-up, median RSS per \(Int(windowSeconds)) s \(first) -> \(last) KiB, \(samples.count) samples"
    }

    /// Samples the RSS of every process in `pids` every `interval` seconds
    /// for `seconds`, then fits the median of every `windowSeconds` of each
    /// (sample many times per window). `check` runs after each round (to stop
    /// early on a dead process, say); returning false ends the watch.
    public static func watch(
        _ pids: [(label: String, pid: Int32)], seconds: Double, warmupSeconds: Double, interval: Double = 0.5,
        windowSeconds: Double = 10, check: () -> Bool = { true }
    ) -> [MemoryTrend] {
        let start = Date()
        var series = [[(seconds: Double, kib: Int)]](repeating: [], count: pids.count)
        while true {
            let t = Date().timeIntervalSince(start)
            for (i, entry) in pids.enumerated() {
                let kib = ProcessUsage.residentKiB(entry.pid)
                if kib > 0 { series[i].append((t, kib)) }
            }
            if t >= seconds || !check() { break }
            Thread.sleep(forTimeInterval: interval)
        }
        return zip(pids, series).map {
            MemoryTrend(label: $0.0.label, samples: $0.1, warmupSeconds: warmupSeconds, windowSeconds: windowSeconds)
        }
    }
}
