import Foundation

/// Whether a wall's boxes (separate `play` processes) show the same video
/// frame at the same time, from each box's `picture` lines
/// (`SCREENPLAY_PLAY_PICTURES=1`): each says which frame of the video a
/// tile showed (`frame`) and when that frame reached the screen
/// (`shown_ns`, CLOCK_MONOTONIC, so every process on one machine shares it).
///
/// At each sampled instant, a box shows the frame of its last picture
/// shown by then; the spread is how many frames lie between the lowest
/// and the highest across boxes, the shorter way round a looping clip
/// (its last frame and its first are one apart).
public struct BoxSpread: Sendable, CustomStringConvertible {
    /// One box's pictures: frame number and when it was shown (ns), in the
    /// order shown (`play` writes them so).
    public typealias Pictures = [(frame: Int, shownNs: UInt64)]

    /// Instants sampled (every box had shown a picture by then).
    public private(set) var samples = 0
    /// Instants by spread: 0, 1, 2, and 3 or more frames.
    public private(set) var bySpread = [0, 0, 0, 0]
    /// The largest spread seen, in frames.
    public private(set) var largest = 0

    /// The share of instants whose boxes were at most one frame apart.
    public var withinOneShare: Double { samples > 0 ? Double(bySpread[0] + bySpread[1]) / Double(samples) : 0 }

    /// Samples `boxes` every `stepNs` from `fromNs` to `toNs`; `loopFrames`
    /// is the clip's length in frames when it loops (0: it does not).
    public init(boxes: [Pictures], fromNs: UInt64, toNs: UInt64, stepNs: UInt64, loopFrames: Int) {
        var t = fromNs
        while t <= toNs {
            defer { t += stepNs }
            guard let spread = Self.spread(boxes: boxes, at: t, loopFrames: loopFrames) else { continue }
            samples += 1
            bySpread[min(spread, 3)] += 1
            largest = max(largest, spread)
        }
    }

    /// The spread across `boxes` at `t` (ns), nil while one has shown nothing yet.
    public static func spread(boxes: [Pictures], at t: UInt64, loopFrames: Int) -> Int? {
        var frames: [Int] = []
        for pictures in boxes {
            // The last picture shown by `t` (in time order: a binary search).
            var (low, high) = (0, pictures.count)
            while low < high {
                let middle = (low + high) / 2
                if pictures[middle].shownNs <= t { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            frames.append(pictures[low - 1].frame)
        }
        return range(frames, loopFrames: loopFrames)
    }

    /// The smallest arc holding every frame of `frames` on a loop of
    /// `loopFrames` (0: a line).
    public static func range(_ frames: [Int], loopFrames: Int) -> Int {
        guard let low = frames.min(), let high = frames.max() else { return 0 }
        guard loopFrames > 0 else { return high - low }
        let sorted = frames.map { (($0 % loopFrames) + loopFrames) % loopFrames }.sorted()
        var widestGap = sorted[0] + loopFrames - sorted[sorted.count - 1]
        for (a, b) in zip(sorted, sorted.dropFirst()) { widestGap = max(widestGap, b - a) }
        return loopFrames - widestGap
    }

    /// Seconds from `fromNs` (a stopped box let go) until the boxes are
    /// at most one frame apart and stay so for `holdNs`, sampled every
    /// `stepNs` up to `toNs`; nil when that never happens.
    public static func recovery(
        boxes: [Pictures], fromNs: UInt64, toNs: UInt64, stepNs: UInt64, holdNs: UInt64, loopFrames: Int
    ) -> Double? {
        var t = fromNs
        var heldSince: UInt64?
        while t <= toNs {
            if let spread = spread(boxes: boxes, at: t, loopFrames: loopFrames), spread <= 1 {
                if heldSince == nil { heldSince = t }
                if let since = heldSince, t - since >= holdNs { return Double(since - fromNs) / 1e9 }
            } else {
                heldSince = nil
            }
            t += stepNs
        }
        return nil
    }

    /// The pictures with a frame number in a box's `--stats` lines, in the order written.
    public static func pictures(fromLines lines: [String]) -> Pictures {
        lines.compactMap { line in
            guard line.contains("\"picture\""),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let frame = (object["frame"] as? NSNumber)?.intValue,
                let shown = (object["shown_ns"] as? NSNumber)?.uint64Value
            else { return nil }
            return (frame, shown)
        }
    }

    /// CLOCK_MONOTONIC now, in ns: the clock of `shown_ns`.
    public static func monotonicNowNs() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    public var description: String {
        String(
            format: "%d instants, %.2f %% at most one frame apart (0: %d, 1: %d, 2: %d, 3 or more: %d; largest %d)",
            samples, 100 * withinOneShare, bySpread[0], bySpread[1], bySpread[2], bySpread[3], largest)
    }
}
