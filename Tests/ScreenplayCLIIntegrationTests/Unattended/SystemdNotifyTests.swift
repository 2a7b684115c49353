import Foundation
import TestHarness
import TestSupport
import XCTest

/// `play` and `present` under a service manager, without systemd: the test
/// is the notify socket (NOTIFY_SOCKET, WATCHDOG_USEC) and reads what arrives.
final class SystemdNotifyTests: ScreenplayTestCase {
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
        let status = try XCTUnwrap(listener.statusBeforeReady, "no STATUS= before READY=1: \(listener.texts)")
        XCTAssertTrue(status.contains("2 panels"), status)
        XCTAssertFalse(status.contains("(starting)"), "READY before a panel showed its first item: \(status)")
        XCTAssertFalse(items(p).isEmpty)
        // Pings at half the interval (0.5 s) while it runs.
        Thread.sleep(forTimeInterval: 3)
        let pings = listener.times(of: "WATCHDOG=1")
        XCTAssertGreaterThanOrEqual(pings.count, 4, "\(listener.texts)")
        for (a, b) in zip(pings, pings.dropFirst()) {
            // systemd restarts the service when a whole interval (1 s) passes without one.
            XCTAssertLessThan(b.timeIntervalSince(a), 1.0, "a ping came after the watchdog interval")
        }
        // The status follows the items (1 s each).
        XCTAssertGreaterThanOrEqual(listener.texts.filter { $0.hasPrefix("STATUS=") }.count, 3, "\(listener.texts)")
        XCTAssertEqual(listener.texts.filter { $0 == "READY=1" }.count, 1)
        assertCleanStop(p)
        XCTAssertTrue(waitUntil(timeout: 2) { listener.texts.last == "STOPPING=1" }, "\(listener.texts.suffix(3))")
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
        XCTAssertEqual(listener.statusBeforeReady, "STATUS=1 panel: HEADLESS-2 colour #336699")
        XCTAssertTrue(waitUntil(timeout: 3) { listener.texts.contains("WATCHDOG=1") })
        assertCleanStop(p)
        XCTAssertTrue(waitUntil(timeout: 2) { listener.texts.last == "STOPPING=1" })
    }

    func items(_ p: RunningProcess) -> [StatsEvent] { p.statsEvents.filter { $0.event == "item" } }
}

/// `play` as a signage box runs it: the command line docs/signage.md shows, no
/// `SCREENPLAY_BUILTIN`, no `--all`.
final class PlayDefaultsTests: ScreenplayTestCase {
    /// A box with one HDMI television and no laptop panel: that screen (at
    /// (0,0), once the "main" screen that never played) shows the playlist,
    /// and systemd hears READY=1 only once it does. The same for an
    /// all-in-one whose only screen is its eDP panel. (Sway's headless
    /// outputs are renamed to real connector names: `SwayRig` `names`.)
    func testTheOnlyScreenOfABoxPlaysWithTheDefaults() throws {
        for name in ["HDMI-A-1", "eDP-1"] {
            let rig = try startSway([.init(width: 320, height: 240)], names: [name])
            let listener = try NotifyListener()
            addTeardownBlock { listener.stop() }
            let (_, playlist) = try signagePlaylist(#"{"playlists": {"s": [{"color": "ff0000"}]}, "default": "s"}"#)
            let p = try CLI.start(
                ["play", playlist, "--socket", controlSocketPath()], environment: listener.environment(env(rig)))
            XCTAssertTrue(
                waitUntil(timeout: 20) { (try? rig.capture(output: name).pixel(x: 160, y: 120)) == RGB(hex: 0xff0000) },
                "\(name) shows \(String(describing: try? rig.capture(output: name).pixel(x: 160, y: 120))), not the playlist's red"
            )
            XCTAssertTrue(waitUntil(timeout: 5) { listener.texts.contains("READY=1") }, "no READY=1: \(listener.texts)")
            XCTAssertEqual(listener.statusBeforeReady, "STATUS=1 panel: \(name) #FF0000", "the status READY=1 followed")
            assertCleanStop(p)
            rig.stop()
        }
    }

    /// A box whose only screen a pattern marks built-in shows nothing, and
    /// says so: READY=1 within 10 s with a STATUS= naming the screen and the
    /// reason, a warning on stderr, and `ctl status` saying the same; and
    /// with no WATCHDOG_USEC, nothing pings.
    func testNothingShownIsSaidToSystemdTheLogAndCtl() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        let (_, playlist) = try signagePlaylist(#"{"playlists": {"s": [{"color": "ff0000"}]}, "default": "s"}"#)
        let socket = controlSocketPath()
        let started = Date()
        let p = try CLI.start(
            ["play", playlist, "--socket", socket], environment: listener.environment(env(rig, builtin: "HEADLESS-1")))
        XCTAssertTrue(waitUntil(timeout: 20) { listener.texts.contains("READY=1") }, "no READY=1: \(listener.texts)")
        // 10 s is the promise; a loaded machine may add a little.
        XCTAssertLessThan(Date().timeIntervalSince(started), 13, "READY=1 came later than 10 s after start")
        let status = try XCTUnwrap(listener.statusBeforeReady, "no STATUS= before READY=1: \(listener.texts)")
        XCTAssertTrue(
            status.hasPrefix("STATUS=nothing shown: HEADLESS-1: marked built-in by the pattern \"HEADLESS-1\""),
            "the status READY=1 followed: \(status)")
        XCTAssertTrue(
            waitUntil(timeout: 5) { p.stderr.contains("nothing is shown: HEADLESS-1: marked built-in") },
            "no warning on stderr")
        let ctl = try CLI.run(["ctl", "status", "--socket", socket], environment: env(rig))
        XCTAssertEqual(ctl.status, 0, ctl.stderr)
        XCTAssertTrue(
            ctl.stdout.contains("\nnothing is shown: HEADLESS-1: marked built-in by the pattern"),
            "ctl status printed: \(ctl.stdout)")
        XCTAssertFalse(listener.texts.contains("WATCHDOG=1"), "no WATCHDOG_USEC, no pings")
        assertCleanStop(p)
    }

    /// `present` keeps the iOS rule, and on a box whose only screen is
    /// the main one says at start why nothing shows and what to do.
    func testPresentOnAOneScreenBoxSaysWhyAndTheFix() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let p = try CLI.start(["present", "color", "ff8000"], environment: env(rig))
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.stderr.contains("no external screen yet") },
            "present said nothing about the screen it does not use")
        let line = p.stderr.split(separator: "\n").first { $0.contains("no external screen yet") } ?? ""
        XCTAssertTrue(line.contains("HEADLESS-1: no built-in panel found"), "the reason, per screen: \(line)")
        XCTAssertTrue(line.contains("--builtin") && line.contains("--all"), "the fix: \(line)")
        assertCleanStop(p)
    }

    /// No screen at all (the television unplugged, for real: a nested
    /// sway's only output removed): the status says so rather than
    /// "healthy", and says it is showing again once a screen comes.
    func testNoScreenAtAllIsSaid() throws {
        let rig = try NestedSwayRig.start(outputs: 1, outputSize: .init(width: 320, height: 240))
        addTeardownBlock { rig.stop() }
        try rig.removeOutput("WL-1")
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        let (_, playlist) = try signagePlaylist(#"{"playlists": {"s": [{"color": "ff0000"}]}, "default": "s"}"#)
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = nil
        let p = try CLI.start(
            ["play", playlist, "--socket", controlSocketPath()], environment: listener.environment(environment))
        XCTAssertTrue(waitUntil(timeout: 20) { listener.texts.contains("READY=1") }, "no READY=1: \(listener.texts)")
        let status = try XCTUnwrap(listener.statusBeforeReady, "no STATUS= before READY=1: \(listener.texts)")
        XCTAssertEqual(status, "STATUS=nothing shown: no screen is connected; waiting for one")
        let added = try rig.addOutput()
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                listener.texts.last { $0.hasPrefix("STATUS=") } == "STATUS=1 panel: \(added) #FF0000"
            },
            "after \(added) came: \(listener.texts.suffix(3))")
        assertCleanStop(p)
    }
}
