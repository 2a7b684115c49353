import Foundation
import TestHarness
import TestSupport
import XCTest

/// An output that reports refresh 0 (nested sway) paces by frame
/// callbacks with the 60 Hz fallback: no division by zero, no busy loop. The
/// CPU the same shader costs there stays within 1.5x of a 60 Hz output.
final class RefreshZeroTests: ScreenplayTestCase {
    /// CPU ticks of `present shader` over `seconds` after the first frames, and the frames line seen.
    private func measure(environment: [String: String], output: String, frag: String, seconds: Double) throws -> (
        ticks: Int, frames: [StatsEvent]
    ) {
        let p = try CLI.start(["present", frag, "--stats", "-"], environment: environment)
        XCTAssertNotNil(
            p.waitForEvent { $0.event == "frames" && $0.output == output && $0.int("presented") > 0 }, p.stderr)
        let before = ProcessUsage.cpuTicks(p.pid)
        let framesBefore = p.frames(for: output).count
        Thread.sleep(forTimeInterval: seconds)
        let used = ProcessUsage.cpuTicks(p.pid) - before
        let frames = Array(p.frames(for: output).dropFirst(framesBefore))
        assertCleanStop(p)
        return (used, frames)
    }

    func testRefreshZeroCostsAboutWhatSixtyHertzCosts() throws {
        let frag = try temporaryShader(
            "refresh0",
            "void mainImage(out vec4 c, in vec2 p) { c = vec4(p / iResolution.xy, 0.5 + 0.5 * sin(iTime), 1.0); }")

        let nested = try NestedSwayRig.start(outputs: 2)
        var nestedEnv = nested.clientEnvironment
        nestedEnv["SCREENPLAY_BUILTIN"] = "WL-1"
        let zero = try measure(environment: nestedEnv, output: "WL-2", frag: frag, seconds: 5)
        nested.stop()
        XCTAssertFalse(zero.frames.isEmpty)
        for w in zero.frames {
            XCTAssertEqual(w.int("refresh_ns"), 16_666_667, "refresh 0 falls back to 60 Hz")
            XCTAssertLessThanOrEqual(
                Double(w.int("presented")) / ((w.raw["window_s"] as? Double) ?? 1), 65, "no busy loop")
        }

        let rig = try startSway([.init(width: 640, height: 480), .init(width: 1280, height: 720, refreshHz: 60)])
        let sixty = try measure(
            environment: env(rig, builtin: "HEADLESS-1"), output: "HEADLESS-2", frag: frag, seconds: 5)
        XCTAssertGreaterThan(sixty.ticks, 0)
        // Per presented frame: the two runs come one after the other, and a
        // machine loaded during one presents fewer frames in it; a busy loop
        // on refresh 0 would cost many times a frame's CPU, not a little more.
        func perFrame(_ m: (ticks: Int, frames: [StatsEvent])) -> Double {
            Double(m.ticks) / Double(max(1, m.frames.map { $0.int("presented") }.reduce(0, +)))
        }
        let ratio = perFrame(zero) / max(perFrame(sixty), 1e-9)
        let summary =
            "refresh 0: \(zero.ticks) ticks for \(zero.frames.map { $0.int("presented") }.reduce(0, +)) frames, 60 Hz: \(sixty.ticks) ticks for \(sixty.frames.map { $0.int("presented") }.reduce(0, +)) frames, ratio per frame \(ratio)"
        print(summary)
        XCTAssertLessThanOrEqual(ratio, 2, "CPU per frame on a refresh-0 output against 60 Hz: \(summary)")
    }
}
