/// Where a refresh duration came from, so logs and `doctor` can say how much
/// to trust it.
public enum RefreshSource: String, Sendable, Equatable, CaseIterable {
    /// The `refresh` field of presentation feedback: what the compositor
    /// actually scans out at, so it wins over everything else.
    case presentation
    /// The output's current mode (`wl_output.mode`, in millihertz).
    case outputMode
    /// Nothing usable was known; 60 Hz is assumed.
    case fallback
}

/// A resolved refresh period and the source it was taken from.
public struct RefreshRate: Sendable, Equatable, CustomStringConvertible {
    /// Length of one refresh cycle in nanoseconds; always positive.
    public let durationNs: Int64
    /// Which input the duration was taken from.
    public let source: RefreshSource

    /// Lowest refresh rate accepted from any source, in hertz.
    public static let minimumHertz: Int64 = 1
    /// Highest refresh rate accepted from any source, in hertz.
    public static let maximumHertz: Int64 = 1000
    /// The duration assumed when nothing better is known: 60 Hz, rounded to
    /// the nearest nanosecond.
    public static let fallbackDurationNs: Int64 = 16_666_667

    /// Creates a refresh rate from an already-validated duration.
    ///
    /// Non-positive durations are replaced by the 60 Hz fallback so that
    /// consumers can divide by `durationNs` unconditionally.
    public init(durationNs: Int64, source: RefreshSource) {
        if durationNs > 0 {
            self.durationNs = durationNs
            self.source = source
        } else {
            self.durationNs = Self.fallbackDurationNs
            self.source = .fallback
        }
    }

    /// The refresh rate in hertz.
    public var hertz: Double { 1e9 / Double(durationNs) }

    /// A short human-readable form, e.g. `59.94 Hz (outputMode)`.
    public var description: String {
        "\(formatFixed(hertz, digits: 2)) Hz (\(source.rawValue))"
    }

    /// Resolves the refresh period from what the compositor has told us.
    ///
    /// Preference order: the presentation feedback's refresh (if non-zero and
    /// sane), then the output mode's refresh in millihertz (if non-zero and
    /// sane), else 60 Hz. "Sane" means between 1 Hz and 1000 Hz inclusive;
    /// anything outside is treated as garbage from a broken driver or a VRR
    /// output reporting no fixed rate. Never divides by zero.
    public static func resolve(presentationRefreshNs: UInt64?, modeRefreshMilliHz: Int32?) -> RefreshRate {
        let shortestNs = UInt64(nanosecondsPerSecond / maximumHertz)
        let longestNs = UInt64(nanosecondsPerSecond / minimumHertz)
        if let ns = presentationRefreshNs, ns >= shortestNs, ns <= longestNs {
            return RefreshRate(durationNs: Int64(ns), source: .presentation)
        }
        if let mHz = modeRefreshMilliHz, Int64(mHz) >= minimumHertz * 1000, Int64(mHz) <= maximumHertz * 1000 {
            // 1e12 / mHz, rounded to nearest: 60000 mHz gives 16_666_667 ns.
            let milli = Int64(mHz)
            let ns = (nanosecondsPerSecond * 1000 + milli / 2) / milli
            return RefreshRate(durationNs: ns, source: .outputMode)
        }
        return RefreshRate(durationNs: fallbackDurationNs, source: .fallback)
    }
}

/// Formats `value` with exactly `digits` decimals without Foundation, so the
/// module stays dependency-free. Non-finite values are spelled out.
func formatFixed(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<max(digits, 0) { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return String(value) }
    let units = Int64(scaled)
    let whole = units / Int64(scale)
    let frac = units % Int64(scale)
    let sign = value < 0 && units != 0 ? "-" : ""
    if digits <= 0 { return "\(sign)\(whole)" }
    var fracText = String(frac)
    while fracText.count < digits { fracText = "0" + fracText }
    return "\(sign)\(whole).\(fracText)"
}
