import TestHarness
import TestSupport
import XCTest

/// The memory slope fitted to window medians: a flat process whose RSS
/// dips for part of every cycle and jumps now and then reads flat whatever
/// the sampling's phase, and a leak under the same dips reads as its own rate.
final class MemoryTrendTests: ScreenplayTestCase {
    /// A playlist-like RSS: 182,000 KiB, 7,000 KiB lower during the first
    /// second of every 4 s cycle, 5,000 KiB higher for one sample in the
    /// last minute, plus `leak` KiB per second; sampled every 0.5 s for
    /// three minutes.
    private func series(leak: Double, phase: Double) -> [(seconds: Double, kib: Int)] {
        stride(from: 0.0, through: 180, by: 0.5).map { t in
            let inDip = (t + phase).truncatingRemainder(dividingBy: 4) < 1
            let spike = t == 171.5 ? 5_000 : 0
            return (t, 182_000 + Int(leak * t) - (inDip ? 7_000 : 0) + spike)
        }
    }

    func testPeriodicDipsReadFlatAtEveryPhase() throws {
        for phase in stride(from: 0.0, to: 4, by: 0.37) {
            let trend = MemoryTrend(label: "flat", samples: series(leak: 0, phase: phase), warmupSeconds: 40)
            XCTAssertEqual(try XCTUnwrap(trend.slopeKiBPerSecond), 0, accuracy: 0.05, "phase \(phase): \(trend)")
        }
    }

    func testLeakUnderDipsReadsAsItsRate() throws {
        for phase in stride(from: 0.0, to: 4, by: 0.37) {
            let trend = MemoryTrend(label: "leak", samples: series(leak: 1.2, phase: phase), warmupSeconds: 40)
            XCTAssertEqual(try XCTUnwrap(trend.slopeKiBPerSecond), 1.2, accuracy: 0.1, "phase \(phase): \(trend)")
        }
    }

    /// Too few whole windows give no slope rather than a guess.
    func testTooFewWindowsGiveNoSlope() {
        let short = MemoryTrend(
            label: "short", samples: series(leak: 5, phase: 0).filter { $0.seconds < 65 }, warmupSeconds: 40)
        XCTAssertNil(short.slopeKiBPerSecond, "\(short)")
    }

    /// Window medians that wander by up to 100 KiB with nothing growing
    /// (after its step, CI's `play` wandered 130 KiB around its median)
    /// (a fixed pseudo-random walk, so the test is the same every run).
    private func wandering(count: Int, seed: UInt64) -> [Int] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % 201 - 100
        }
    }

    private func trend(medians: [Int]) -> MemoryTrend {
        // One sample per window: each window's median is that sample.
        let samples = medians.enumerated().map { (seconds: 40 + Double($0.offset) * 10 + 5, kib: $0.element) }
        // A last sample ends the watch after the last whole window.
        let end = (seconds: 40 + Double(medians.count) * 10, kib: 0)
        return MemoryTrend(label: "t", samples: samples + [end], warmupSeconds: 40)
    }

    /// One bounded step (a third frame buffer, 900 KiB) in any window, under
    /// wandering medians, does not grow 200 KiB in both thirds.
    func testOneStepIsNotGrowthAllAlong() throws {
        for seed in 1...50 {
            for stepAt in 1..<9 {
                let noise = wandering(count: 9, seed: UInt64(seed))
                let medians = noise.enumerated().map { 195_000 + $0.element + ($0.offset >= stepAt ? 900 : 0) }
                let thirds = try XCTUnwrap(trend(medians: medians).growthByThirds)
                XCTAssertFalse(
                    thirds.early >= 200 && thirds.late >= 200, "step at \(stepAt), seed \(seed): \(medians) \(thirds)")
            }
        }
    }

    /// A leak of 13 KiB/s (the one the memory test was written for) and
    /// faster ones, under the same wandering, grow 200 KiB in both thirds;
    /// slower ones are the 30-minute soak's to find.
    func testALeakGrowsInBothThirds() throws {
        for leak in [13, 20, 50] {
            for seed in 1...50 {
                let noise = wandering(count: 9, seed: UInt64(seed))
                let medians = noise.enumerated().map { 195_000 + $0.element + leak * 10 * $0.offset }
                let thirds = try XCTUnwrap(trend(medians: medians).growthByThirds)
                XCTAssertTrue(
                    thirds.early >= 200 && thirds.late >= 200, "\(leak) KiB/s, seed \(seed): \(medians) \(thirds)")
            }
        }
    }
}
