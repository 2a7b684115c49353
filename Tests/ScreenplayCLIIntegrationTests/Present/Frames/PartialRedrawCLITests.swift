import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// Frames that changed in part redraw that part, run as
/// docs/library.md tells a user: `screenplay doctor` names the capability, the
/// `--stats` frames lines count `redrawn_px`, and the presenter's console
/// repaints only its top bar each second, or nothing with `--no-clock`.
final class PartialRedrawCLITests: ScreenplayTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "screenplay-partial-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testDoctorSaysWhetherFramesRedrawInPart() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let r = try CLI.run(["doctor", "--json", "--builtin", "HEADLESS-1"], environment: env(rig))
        XCTAssertEqual(r.status, 0, r.stdout)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(object["findings"] as? [[String: String]])
        let finding = try XCTUnwrap(findings.first { $0["topic"] == "partial redraws" }, r.stdout)
        let text = finding["text"] ?? ""
        XCTAssertTrue(
            text.contains("EGL_EXT_buffer_age offered") || text.contains("EGL_EXT_buffer_age not offered")
                || text.contains("its own wl_shm buffers"), text)
        XCTAssertTrue(text.contains("EGL_KHR_swap_buffers_with_damage"), text)
        if text.contains("not offered (") {
            XCTAssertEqual(finding["level"], "warning")
            XCTAssertTrue(text.contains("Fix:"), "a missing capability names the fix: \(text)")
        }
    }

    /// An animated shader changes everywhere: every draw repaints the whole window.
    func testAFullFrameCountsTheWholeWindow() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let shader = dir + "/plasma.frag"
        try "void mainImage(out vec4 c, in vec2 p) { c = vec4(fract(iTime), p.x / iResolution.x, 0.5, 1.0); }\n"
            .write(toFile: shader, atomically: true, encoding: .utf8)
        let p = try CLI.start(
            ["present", "--fps", "30", "--builtin", "HEADLESS-1", "--stats", "-", shader], environment: env(rig))
        XCTAssertTrue(waitUntil(timeout: 10) { p.frames(for: "HEADLESS-2").count >= 3 }, p.stderr)
        let lines = p.frames(for: "HEADLESS-2").dropFirst()
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            XCTAssertGreaterThan(line.int("draws"), 0, "an animated shader draws every second")
            XCTAssertEqual(line.int("redrawn_px"), line.int("draws") * 640 * 480, "\(line.raw)")
        }
    }

    /// The console with its clock: after the slides are in, each second
    /// repaints the top bar alone, and its right third shows the clock.
    func testThePresenterConsoleRepaintsOnlyItsClockBar() throws {
        let (p, rig, size) = try startPresenter([])
        let bar = size.width * max(40, size.height * 9 / 100)
        var run: [StatsEvent] = []
        XCTAssertTrue(
            waitUntil(timeout: 20) {
                run = Array(self.consoleFrames(p).suffix(4))
                return run.count == 4 && run.map { $0.int("draws") }.reduce(0, +) >= 3
                    && run.allSatisfy { $0.int("redrawn_px") == $0.int("draws") * bar }
            },
            "four seconds in a row repaint the \(bar)-pixel bar each second, not the \(size.width * size.height)-pixel window: \(consoleFrames(p).map { [$0.int("draws"), $0.int("redrawn_px")] })\n\(p.stderr)"
        )
        let image = try rig.capture(output: "HEADLESS-1")
        XCTAssertFalse(image.isUniform(in: clockArea(size), tolerance: 8), "the clock shows at the bar's right")
        // Below the bar the picture is whole after the partial frames: the
        // current slide's background beside its title.
        XCTAssertGreaterThan(
            image.fraction(
                of: RGB(hex: SampleDeck.backgrounds[0]), tolerance: 4,
                in: PixelRect(x: 20, y: 110, width: 700, height: 80)),
            0.95, "the current slide under the repainted bar")
    }

    /// `--no-clock`: no clock at the bar's right, and with the talk timer
    /// not started nothing changes, so the console draws nothing at all.
    func testNoClockHidesTheClockAndLeavesAnIdleConsoleUndrawn() throws {
        let (p, rig, size) = try startPresenter(["--no-clock"])
        var run: [StatsEvent] = []
        XCTAssertTrue(
            waitUntil(timeout: 20) {
                run = Array(self.consoleFrames(p).suffix(3))
                return run.count == 3 && run.allSatisfy { $0.int("draws") == 0 && $0.int("redrawn_px") == 0 }
            },
            "three seconds in a row without a draw: \(consoleFrames(p).map { [$0.int("draws"), $0.int("redrawn_px")] })\n\(p.stderr)"
        )
        let image = try rig.capture(output: "HEADLESS-1")
        XCTAssertTrue(image.isUniform(in: clockArea(size), tolerance: 8), "no clock at the bar's right")
    }

    /// `present talk.pdf` with a laptop panel (`--builtin`) and a projector;
    /// the console's pixel size, which is the whole of HEADLESS-1.
    private func startPresenter(_ options: [String]) throws -> (RunningProcess, SwayRig, (width: Int, height: Int)) {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        try rig.focusOutput("HEADLESS-1")
        let deck = try SampleDeck.write(to: dir)
        let p = try CLI.start(
            ["present", deck.pdf, "--builtin", "HEADLESS-1", "--stats", "-"] + options, environment: env(rig))
        let connect = p.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "console" }
        let size = (width: connect?.int("width") ?? 0, height: connect?.int("height") ?? 0)
        XCTAssertEqual([size.width, size.height], [1280, 720], "the console fills the laptop panel\n\(p.stderr)")
        return (p, rig, size)
    }

    private func consoleFrames(_ p: RunningProcess) -> [StatsEvent] {
        p.statsEvents.filter { $0.event == "frames" && $0.raw["role"] as? String == "console" }
    }

    /// The right quarter of the console's top bar, inside its margins:
    /// where the wall clock is drawn, right-aligned (the centred timer's
    /// "starts on the first page change" ends before it).
    private func clockArea(_ size: (width: Int, height: Int)) -> PixelRect {
        let barHeight = max(40, size.height * 9 / 100), margin = max(8, size.height / 60)
        return PixelRect(
            x: size.width * 3 / 4, y: margin, width: size.width / 4 - margin, height: barHeight - 2 * margin)
    }
}
