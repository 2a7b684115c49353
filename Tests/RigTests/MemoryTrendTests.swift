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
}
