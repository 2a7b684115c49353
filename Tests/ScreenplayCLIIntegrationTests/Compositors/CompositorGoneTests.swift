import Foundation
import TestHarness
import TestSupport
import XCTest

/// The compositor dies. Without --reconnect: a clear message
/// and status 69, promptly. With it: wait without spinning, and restore the
/// content when a compositor comes back on the same socket.
final class CompositorGoneTests: ScreenplayTestCase {
    func testExitsWith69WhenTheCompositorDies() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let p = try CLI.start(
            ["present", "color", "aa3300", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        let killed = Date()
        rig.kill()
        let status = p.wait(timeout: 5)
        let noticed = Date().timeIntervalSince(killed)
        XCTAssertEqual(status, 69, p.stderr)
        XCTAssertTrue(p.stderr.contains("lost the connection to the compositor"), p.stderr)
        XCTAssertTrue(p.stderr.contains("--reconnect"), "the message names the way out")
        // Generous bound for a noisy machine; the event source wakes on the hang-up itself.
        XCTAssertLessThan(noticed, 2, "took \(noticed) s to notice")
    }

    func testReconnectRestoresTheContent() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 800, height: 600)])
        let p = try CLI.start(
            ["present", "color", "aa3300", "--reconnect", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        rig.kill()
        XCTAssertTrue(waitUntil(timeout: 5) { p.stderr.contains("waiting for a compositor") }, p.stderr)
        // Waiting costs (almost) nothing: a 100 ms timer, no busy loop.
        // Counted once the teardown that came before the wait is over.
        Thread.sleep(forTimeInterval: 0.5)
        let ticks = { ProcessUsage.cpuTicks(p.pid) }
        let before = ticks()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertLessThanOrEqual(ticks() - before, 5, "waiting must not spin")
        XCTAssertTrue(p.isRunning)

        try rig.restart()
        let restarted = Date()
        let color = RGB(hex: 0xaa3300)
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: "HEADLESS-2").fraction(of: color, tolerance: 1)) == 1.0 },
            "content not restored: \(p.stderr)")
        // For the log: the promise is that it comes back (within the 5 s
        // above), and the time includes sway's start and grim's captures.
        print(String(format: "reconnect: content back %.2f s after the restart", Date().timeIntervalSince(restarted)))
        XCTAssertEqual(p.statsEvents.filter { $0.event == "connect" && $0.output == "HEADLESS-2" }.count, 2)
        assertCleanStop(p)
    }

    /// `play`, which waits for the compositor by default, takes the same library path (`whenCompositorGoes`):
    /// the playlist shows again on the restarted compositor's panel. (It
    /// once hung in one run of three: the old read source's registration
    /// swallowed the new socket that took the closed one's number.)
    func testPlayReconnectRestoresThePlaylist() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 800, height: 600)])
        let dir = NSTemporaryDirectory() + "screenplay-play-reconnect-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let playlist = dir + "/signage.json"
        try #"{"playlists": {"a": [{"color": "aa3300"}]}, "default": "a"}"#.write(
            toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(
            ["play", "--stats", "-", playlist], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, p.stderr)
        rig.kill()
        XCTAssertTrue(waitUntil(timeout: 5) { p.stderr.contains("waiting for a compositor") }, p.stderr)
        XCTAssertTrue(p.isRunning)
        try rig.restart()
        let color = RGB(hex: 0xaa3300)
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: "HEADLESS-2").fraction(of: color, tolerance: 1)) == 1.0 },
            "playlist not restored: \(p.stderr)")
        XCTAssertTrue(p.stderr.contains("reconnected to"), p.stderr)
        assertCleanStop(p)
    }
}
