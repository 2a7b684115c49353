import Foundation

/// How one process's resident memory moved while it was watched: the
/// least-squares slope after a warm-up, so a steady leak shows as a rate
/// and one-off allocations (caches filled at start) do not.
public struct MemoryTrend: Sendable, CustomStringConvertible {
    /// What was watched, for messages ("screenplay shader", "sway").
    public let label: String
    /// (seconds since the watch began, RSS in KiB), every sample.
    public let samples: [(seconds: Double, kib: Int)]
    /// Samples before this time are left out of the slope.
    public let warmupSeconds: Double

    public init(label: String, samples: [(seconds: Double, kib: Int)], warmupSeconds: Double) {
        self.label = label
        self.samples = samples
        self.warmupSeconds = warmupSeconds
    }

    /// Samples after the warm-up.
    public var measured: [(seconds: Double, kib: Int)] { samples.filter { $0.seconds >= warmupSeconds } }

    /// Growth in KiB per second after the warm-up (least squares); nil with
    /// fewer than three samples.
    public var slopeKiBPerSecond: Double? {
        let points = measured
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

    /// Growth in KiB per minute after the warm-up.
    public var slopeKiBPerMinute: Double? { slopeKiBPerSecond.map { $0 * 60 } }

    public var description: String {
        let first = measured.first?.kib ?? -1
        let last = samples.last?.kib ?? -1
        let slope = slopeKiBPerMinute.map { String(format: "%.2f KiB/min", $0) } ?? "no slope"
        return
            "\(label): \(slope) after \(Int(warmupSeconds)) s warm-up, RSS \(first) -> \(last) KiB, \(samples.count) samples"
    }

    /// Samples the RSS of every process in `pids` every `interval` seconds
    /// for `seconds`, then fits each. `check` runs after each round (to stop
    /// early on a dead process, say); returning false ends the watch.
    public static func watch(
        _ pids: [(label: String, pid: Int32)], seconds: Double, warmupSeconds: Double, interval: Double = 2,
        check: () -> Bool = { true }
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
        return zip(pids, series).map { MemoryTrend(label: $0.0.label, samples: $0.1, warmupSeconds: warmupSeconds) }
    }
}
