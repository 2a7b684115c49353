/// How ``Statistics/percentile(_:_:method:)`` picks a value between samples.
public enum PercentileMethod: Sendable, Equatable {
    /// Linear interpolation between the two closest ranks (Hyndman & Fan
    /// type 7, the default of NumPy and R): position `(n − 1) · p / 100`.
    case linear
    /// The smallest sample with at least `p` percent of samples at or below
    /// it: rank `⌈p / 100 · n⌉`. Always returns an observed value.
    case nearestRank
}

/// One bucket of a histogram: values in `lowerBound ..< upperBound`.
public struct HistogramBucket: Sendable, Equatable {
    /// Inclusive lower edge.
    public var lowerBound: Double
    /// Exclusive upper edge.
    public var upperBound: Double
    /// Number of values in the bucket.
    public var count: Int

    /// Creates a bucket.
    public init(lowerBound: Double, upperBound: Double, count: Int) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
        self.count = count
    }
}

/// Descriptive statistics over samples such as frame intervals.
///
/// Every function ignores NaN and infinite values, because a single bad
/// sample must not poison a benchmark's summary, and returns `nil` when no
/// finite value remains.
public enum Statistics {
    /// A summary of one sample set.
    public struct Summary: Sendable, Equatable {
        /// Number of finite samples.
        public var count: Int
        /// Arithmetic mean.
        public var mean: Double
        /// Median (linear percentile 50).
        public var median: Double
        /// 95th percentile (linear).
        public var p95: Double
        /// 99th percentile (linear).
        public var p99: Double
        /// Smallest sample.
        public var min: Double
        /// Largest sample.
        public var max: Double
        /// Population standard deviation.
        public var standardDeviation: Double
    }

    private static func finiteSorted(_ values: [Double]) -> [Double] {
        values.filter(\.isFinite).sorted()
    }

    /// Arithmetic mean.
    public static func mean(_ values: [Double]) -> Double? {
        let finite = values.filter(\.isFinite)
        guard !finite.isEmpty else { return nil }
        return finite.reduce(0, +) / Double(finite.count)
    }

    /// Median: the middle value, or the mean of the two middle values.
    public static func median(_ values: [Double]) -> Double? {
        percentile(values, 50, method: .linear)
    }

    /// The `p`-th percentile (`p` clamped to 0...100) using `method`;
    /// linear interpolation by default.
    public static func percentile(_ values: [Double], _ p: Double, method: PercentileMethod = .linear) -> Double? {
        let sorted = finiteSorted(values)
        guard !sorted.isEmpty, !p.isNaN else { return nil }
        let fraction = Swift.min(Swift.max(p, 0), 100) / 100
        switch method {
        case .linear:
            let position = fraction * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down))
            let upper = Swift.min(lower + 1, sorted.count - 1)
            let weight = position - Double(lower)
            return sorted[lower] + (sorted[upper] - sorted[lower]) * weight
        case .nearestRank:
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
        }
    }

    /// Smallest finite value.
    public static func min(_ values: [Double]) -> Double? {
        values.filter(\.isFinite).min()
    }

    /// Largest finite value.
    public static func max(_ values: [Double]) -> Double? {
        values.filter(\.isFinite).max()
    }

    /// Population standard deviation.
    public static func standardDeviation(_ values: [Double]) -> Double? {
        let finite = values.filter(\.isFinite)
        guard let mean = mean(finite) else { return nil }
        let variance = finite.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(finite.count)
        return variance.squareRoot()
    }

    /// Count, mean, median, p95, p99, min, max and standard deviation at once.
    public static func summary(_ values: [Double]) -> Summary? {
        let sorted = finiteSorted(values)
        guard let first = sorted.first, let last = sorted.last,
            let mean = mean(sorted), let median = median(sorted),
            let p95 = percentile(sorted, 95), let p99 = percentile(sorted, 99),
            let sd = standardDeviation(sorted)
        else { return nil }
        return Summary(
            count: sorted.count, mean: mean, median: median, p95: p95, p99: p99,
            min: first, max: last, standardDeviation: sd)
    }

    /// Groups values into buckets `[origin + k·width, origin + (k+1)·width)`
    /// and returns the non-empty ones in ascending order. Empty buckets are
    /// left out so one outlier cannot produce thousands of rows. Returns an
    /// empty array if `bucketWidth` is not a positive finite number.
    public static func histogram(_ values: [Double], bucketWidth: Double, origin: Double = 0) -> [HistogramBucket] {
        guard bucketWidth > 0, bucketWidth.isFinite, origin.isFinite else { return [] }
        var counts: [Int: Int] = [:]
        for value in values where value.isFinite {
            let index = ((value - origin) / bucketWidth).rounded(.down)
            // Values too far out for an Int bucket index are not meaningful
            // frame timings; dropping them beats trapping.
            guard index > -9e18, index < 9e18 else { continue }
            counts[Int(index), default: 0] += 1
        }
        return counts.keys.sorted().map { index in
            HistogramBucket(
                lowerBound: origin + Double(index) * bucketWidth,
                upperBound: origin + Double(index + 1) * bucketWidth,
                count: counts[index] ?? 0)
        }
    }
}
