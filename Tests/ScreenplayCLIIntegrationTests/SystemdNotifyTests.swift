import Foundation
import TestSupport
import XCTest

/// `play` and `present` under a service manager, without systemd: the test
/// is the notify socket (NOTIFY_SOCKET, WATCHDOG_USEC) and reads what arrives.
final class SystemdNotifyTests: XCTestCase {
    func testPlayIsReadyAfterEveryPanelShowsItsFirstItemThenPingsAndSaysStopping() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 320, height: 240), .init(width: 320, height: 240),
        ])
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        let (_, playlist) = try signagePlaylist(
            """
            {"playlists": {"s": [{"color": "ff0000"}, {"color": "00ff00"}, {"color": "0000ff"}]}, "default": "s"}
            """)
        let environment = listener.environment(env(rig, builtin: "HEADLESS-1"), watchdogMicroseconds: 1_000_000)
        let p = try CLI.start(
            ["play", playlist, "--duration", "1", "--stats", "-", "--socket", controlSocketPath()],
            environment: environment)
        XCTAssertTrue(
            waitUntil(timeout: 15) { listener.texts.contains("READY=1") }, "no READY=1: \(listener.texts)\n\(p.stderr)")
        // Sent in order on one socket: the status just before READY names the
        // item on each panel, so READY came after both showed theirs.
        let texts = listener.texts
        let ready = try XCTUnwrap(texts.firstIndex(of: "READY=1"))
        let status = try XCTUnwrap(texts[..<ready].last { $0.hasPrefix("STATUS=") }, "\(texts)")
        XCTAssertTrue(status.contains("2 panels"), status)
        XCTAssertFalse(status.contains("(starting)"), "READY before a panel showed its first item: \(status)")
        XCTAssertFalse(items(p).isEmpty)
        // Pings at half the interval (0.5 s) while it runs.
        Thread.sleep(forTimeInterval: 3)
        let pings = listener.times(of: "WATCHDOG=1")
        XCTAssertGreaterThanOrEqual(pings.count, 4, "\(listener.texts)")
        for (a, b) in zip(pings, pings.dropFirst()) {
            XCTAssertLessThan(b.timeIntervalSince(a), 0.9, "a ping came late")
        }
        // The status follows the items (1 s each).
        XCTAssertGreaterThanOrEqual(listener.texts.filter { $0.hasPrefix("STATUS=") }.count, 3, "\(listener.texts)")
        XCTAssertEqual(listener.texts.filter { $0 == "READY=1" }.count, 1)
        assertCleanStop(p)
        XCTAssertTrue(waitUntil(timeout: 2) { listener.texts.last == "STOPPING=1" }, "\(listener.texts.suffix(3))")
    }

    func testReadyAtOnceWithNoPanelAndNoPingsWithoutAWatchdog() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        let (_, playlist) = try signagePlaylist(#"{"playlists": {"s": [{"color": "ff0000"}]}, "default": "s"}"#)
        let p = try CLI.start(
            ["play", playlist, "--socket", controlSocketPath()],
            environment: listener.environment(env(rig, builtin: "HEADLESS-1")))
        XCTAssertTrue(waitUntil(timeout: 5) { listener.texts.contains("READY=1") }, "\(listener.texts)\n\(p.stderr)")
        XCTAssertTrue(listener.texts.contains("STATUS=no panel connected; waiting for one"), "\(listener.texts)")
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertFalse(listener.texts.contains("WATCHDOG=1"), "no WATCHDOG_USEC, no pings")
        assertCleanStop(p)
    }

    /// A panel that is on but shows no frames (its window hidden in the
    /// parent compositor) stops the pings once --stall-grace has passed,
    /// and they come back when it shows frames again. The other panel keeps
    /// playing meanwhile.
    func testWatchdogPingsStopWhileAPanelIsStalledBeyondTheGrace() throws {
        let rig = try NestedSwayRig.start(outputs: 3)
        addTeardownBlock { rig.stop() }
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        var environment = listener.environment(rig.clientEnvironment, watchdogMicroseconds: 600_000)
        environment["SCREENPLAY_BUILTIN"] = "WL-1"
        let frag = try temporaryShader(
            "watchdog", "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.5 + 0.5 * sin(iTime), 0.2, 0.4, 1.0); }")
        let (_, playlist) = try signagePlaylist(
            "{\"playlists\": {\"s\": [{\"file\": \"\(frag)\", \"duration\": 3600}]}, \"default\": \"s\"}")
        let p = try CLI.start(
            ["play", playlist, "--stall-grace", "1", "--socket", controlSocketPath()], environment: environment)
        XCTAssertTrue(waitUntil(timeout: 15) { listener.texts.contains("READY=1") }, "\(listener.texts)\n\(p.stderr)")
        Thread.sleep(forTimeInterval: 1)

        _ = try rig.parentSwaymsg("[title=\"^wlroots - WL-2$\"]", "move", "to", "workspace", "9")
        let hidden = Date()
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("WL-2 has shown no frame") }, p.stderr)
        let stoppedAt = Date()
        Thread.sleep(forTimeInterval: 2)
        let lastPing = try XCTUnwrap(listener.times(of: "WATCHDOG=1").last)
        XCTAssertLessThan(lastPing, stoppedAt.addingTimeInterval(0.1), "pings went on while WL-2 was stalled")
        // Pings (every 0.3 s) went on through the grace (1 s) of the stall
        // (which began at the last frame, a little before the hide returned).
        XCTAssertGreaterThan(lastPing.timeIntervalSince(hidden), 0.5, "pings stopped before the grace was over")
        XCTAssertTrue(
            listener.texts.contains { $0.hasPrefix("STATUS=") && $0.contains("stalled: WL-2") }, "\(listener.texts)")
        XCTAssertTrue(p.stderr.contains("--stall-grace 1"), p.stderr)

        _ = try rig.parentSwaymsg("[title=\"^wlroots - WL-2$\"]", "move", "to", "workspace", "1")
        let shown = Date()
        XCTAssertTrue(
            waitUntil(timeout: 8) { listener.times(of: "WATCHDOG=1").contains { $0 > shown } },
            "pings resume: \(listener.texts.suffix(5))")
        assertCleanStop(p)
    }

    func testPresentIsReadyOnceItsFrameIsShownAndSaysStopping() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        let p = try CLI.start(
            ["present", "color", "336699"],
            environment: listener.environment(env(rig, builtin: "HEADLESS-1"), watchdogMicroseconds: 2_000_000))
        XCTAssertTrue(waitUntil(timeout: 10) { listener.texts.contains("READY=1") }, "\(listener.texts)\n\(p.stderr)")
        let texts = listener.texts
        let ready = try XCTUnwrap(texts.firstIndex(of: "READY=1"))
        XCTAssertEqual(texts[..<ready].last { $0.hasPrefix("STATUS=") }, "STATUS=1 panel: HEADLESS-2 colour #336699")
        XCTAssertTrue(waitUntil(timeout: 3) { listener.texts.contains("WATCHDOG=1") })
        assertCleanStop(p)
        XCTAssertTrue(waitUntil(timeout: 2) { listener.texts.last == "STOPPING=1" })
    }

    func items(_ p: RunningProcess) -> [StatsEvent] { p.statsEvents.filter { $0.event == "item" } }
}
