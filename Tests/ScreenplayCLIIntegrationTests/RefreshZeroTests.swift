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
        let ratio = Double(zero.ticks) / Double(max(sixty.ticks, 1))
        print("refresh 0: \(zero.ticks) ticks, 60 Hz: \(sixty.ticks) ticks, ratio \(ratio)")
        XCTAssertLessThanOrEqual(
            ratio, 1.5, "CPU on a refresh-0 output vs 60 Hz: \(zero.ticks) vs \(sixty.ticks) ticks")
    }
}
