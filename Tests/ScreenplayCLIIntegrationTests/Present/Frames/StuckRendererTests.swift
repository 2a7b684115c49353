import Foundation
import TestHarness
import TestSupport
import XCTest

/// A draw that does not return, on headless sway: signals still end the
/// process within 2 s, the grace period ends it with status 70 naming the
/// output and the file, and `play` skips the item after the restart.
///
/// Where the main thread waits for such a draw is the driver's business
/// (llvmpipe rasterizes on threads of its own and blocks the swap; another
/// driver may block the draw call, or queue the work and return), so the
/// tests assert what the user is promised, not where the wait happens.
final class StuckRendererTests: ScreenplayTestCase {
    /// A shader whose frames never finish on any CPU this suite runs on.
    ///
    /// An endless loop is not enough: llvmpipe ends every shader invocation
    /// after 65,535 loop iterations, so a bare `while (true)` frame
    /// finishes after a few seconds, sooner on a faster CPU. Each iteration
    /// here costs 32 vec4 sines instead of one add: about 8 million
    /// transcendentals per pixel and 2.5e12 for a 640x480 frame, tens of
    /// minutes on this machine class and minutes on a large one, far past
    /// every wait below. `x` only grows, so the compiler cannot drop the loop.
    static let hangSource = """
        #define S a = sin(a.yzwx * 1.37 + vec4(x));
        #define S8 S S S S S S S S
        void mainImage(out vec4 c, in vec2 p) {
            float x = p.x;
            vec4 a = vec4(p, 0.5, 0.25);
            while (x >= 0.0) {
                x += 1.0;
                S8 S8 S8 S8
            }
            c = vec4(a.x, x, 0.0, 1.0);
        }
        """

    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "screenplay-stuck-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Starts `present hang.frag` and waits until its scene is inside the
    /// endless draw (connected, then no frame for a second).
    private func startHung(_ rig: SwayRig, extra: [String] = []) throws -> (RunningProcess, String) {
        let dir = try folder()
        let shader = dir + "/hang.frag"
        try Self.hangSource.write(toFile: shader, atomically: true, encoding: .utf8)
        let p = try CLI.start(
            ["present", "--stats", "-"] + extra + [shader], environment: env(rig, builtin: "HEADLESS-1"))
        addTeardownBlock { p.kill() }
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }, p.stderr)
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertTrue(p.isRunning, p.stderr)
        // The once-a-second stats timer runs on the stuck main queue: silent.
        XCTAssertTrue(
            p.frames(for: "HEADLESS-2").allSatisfy { $0.int("presented") == 0 },
            "the shader must never finish a frame: \(p.stdout)")
        return (p, shader)
    }

    /// The promise: a signal ends the process within 2 s. Either the main
    /// thread was free to tear down (status 0, "tearing down"), or it was
    /// held by the draw and the signal queue left without teardown (status
    /// 70, naming the draw it was stuck in). Which one happens depends on
    /// where the driver makes the main thread wait.
    func testSIGTERMAndSIGINTEndAProcessStuckInADrawWithinTwoSeconds() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        for (sig, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            let (p, shader) = try startHung(rig)
            let sent = Date()
            p.send(sig)
            let status = p.wait(timeout: 10)
            let took = Date().timeIntervalSince(sent)
            XCTAssertLessThan(took, 2, "\(name) must end a stuck process within 2 s, took \(took) s")
            switch status {
            case 0:
                XCTAssertTrue(p.stderr.contains("\(name): tearing down"), "\(name), status 0 without a teardown line")
            case 70:
                XCTAssertTrue(p.stderr.contains("\(name): no teardown"), "\(name), status 70 without saying why")
                XCTAssertTrue(
                    p.stderr.contains("inside the draw on HEADLESS-2 (\(shader))"),
                    "\(name), status 70 without naming the stuck draw on HEADLESS-2 (\(shader))")
            default:
                XCTFail(
                    "\(name): expected status 0 (torn down) or 70 (stuck, left at once), got \(String(describing: status))"
                )
            }
        }
    }

    func testAfterTheGracePeriodItExitsSeventyNamingTheOutputAndTheFile() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let (p, shader) = try startHung(rig, extra: ["--stall-grace", "3"])
        // Connected at most ~2 s ago; the draw began just after.
        let status = p.wait(timeout: 15)
        XCTAssertEqual(status, 70, p.stderr)
        let message = p.stderr.split(separator: "\n").first { $0.contains("has not returned") }.map(String.init) ?? ""
        XCTAssertTrue(message.contains("the draw on HEADLESS-2 (\(shader))"), p.stderr)
        XCTAssertTrue(message.contains("--stall-grace 3"), message)
        // The measured time is the draw's own, at least the grace.
        let seconds =
            message.range(of: #"for [0-9.]+ s"#, options: .regularExpression).map {
                Double(message[$0].dropFirst(4).dropLast(2)) ?? 0
            } ?? 0
        XCTAssertGreaterThanOrEqual(seconds, 3, message)
        XCTAssertLessThan(seconds, 6, message)
    }

    /// Slow is not stuck: a shader taking tens of milliseconds per frame
    /// (its first draw, with llvmpipe compiling it, over a second here)
    /// runs on well past a three-second grace with its slow-frame warning.
    func testSlowShaderKeepsItsWarningAndIsNoHang() throws {
        // A quarter of 720p: slow for the refresh, far from the 1.5 s a
        // signal gives a draw in progress, so the clean stop below holds on
        // a loaded machine too.
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 360)])
        let shader = try temporaryShader(
            "slow-not-stuck",
            """
            void mainImage(out vec4 c, in vec2 p) {
                float v = 0.0;
                for (int i = 0; i < 600; i++) { v += sin(p.x * 0.01 + float(i) + iTime) * cos(p.y * 0.01 - float(i)); }
                c = vec4(0.5 + 0.001 * v, 0.2, 0.3, 1.0);
            }
            """)
        let p = try CLI.start(["present", "--stall-grace", "3", shader], environment: env(rig, builtin: "HEADLESS-1"))
        addTeardownBlock { p.kill() }
        XCTAssertTrue(waitUntil(timeout: 30) { p.stderr.contains("longer than the") || !p.isRunning }, p.stderr)
        Thread.sleep(forTimeInterval: 6)
        XCTAssertTrue(p.isRunning, "a slow shader is no stuck renderer: \(p.stderr)")
        XCTAssertFalse(p.stderr.contains("has not returned"), p.stderr)
        assertCleanStop(p)
    }

    func testPlayRemembersTheItemThatHungAndSkipsItAfterTheRestart() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let dir = try folder()
        try Self.hangSource.write(toFile: dir + "/hang.frag", atomically: true, encoding: .utf8)
        let playlist = dir + "/signage.json"
        try
            #"{"playlists": {"s": [{"file": "hang.frag", "duration": 1}, {"color": "ff0000", "duration": 1}]}, "default": "s"}"#
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["XDG_STATE_HOME"] = dir + "/state"
        let stateFile = dir + "/state/screenplay/hung-items.json"

        let first = try CLI.start(["play", "--stall-grace", "2", "--stats", "-", playlist], environment: environment)
        addTeardownBlock { first.kill() }
        XCTAssertEqual(first.wait(timeout: 20), 70, first.stderr)
        XCTAssertTrue(first.stderr.contains("the draw on HEADLESS-2 ("), first.stderr)
        XCTAssertTrue(first.stderr.contains("hang.frag) has not returned"), first.stderr)
        XCTAssertTrue(first.stderr.contains("skipped after the restart"), first.stderr)
        let state = try String(contentsOfFile: stateFile, encoding: .utf8)
        XCTAssertTrue(state.contains("hang.frag") && state.contains("HEADLESS-2"), state)

        // What systemd's Restart=on-failure does: the same command again.
        let second = try CLI.start(["play", "--stall-grace", "2", "--stats", "-", playlist], environment: environment)
        addTeardownBlock { second.kill() }
        XCTAssertTrue(
            waitUntil(timeout: 10) { second.stderr.contains("hang.frag: skipped: it hung the renderer on HEADLESS-2") },
            second.stderr)
        XCTAssertTrue(second.stderr.contains(stateFile), second.stderr)
        Thread.sleep(forTimeInterval: 4)  // two turns of the playlist: the hang's slot keeps the red item
        XCTAssertTrue(second.isRunning, second.stderr)
        let shown = second.statsEvents.filter { $0.event == "item" && $0.output == "HEADLESS-2" }.compactMap {
            $0.raw["source"] as? String
        }
        XCTAssertEqual(Set(shown), ["#FF0000"], second.stdout)
        assertCleanStop(second)

        // A changed file is tried again.
        try (Self.hangSource + "\n// edited\n").write(toFile: dir + "/hang.frag", atomically: true, encoding: .utf8)
        let third = try CLI.start(["play", "--stall-grace", "2", "--stats", "-", playlist], environment: environment)
        addTeardownBlock { third.kill() }
        XCTAssertEqual(third.wait(timeout: 20), 70, "the edited shader is tried (and hangs) again: \(third.stderr)")
        XCTAssertFalse(third.stderr.contains("skipped: it hung"), third.stderr)
    }
}
