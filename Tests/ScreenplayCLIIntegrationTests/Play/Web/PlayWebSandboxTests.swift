import Foundation
import TestSupport
import XCTest

/// A `web` item where WebKit's sandbox (bubblewrap) cannot start: WebKit
/// itself would neither paint nor fail, so the item would wait forever.
/// `play` runs in a user namespace of its own whose PID-namespace limit is 0
/// (namespaced: nothing outside changes), so bubblewrap's new PID namespace
/// is refused as the kiosk unit's `RestrictNamespaces=yes` refuses it.
/// Weston runs as root, so its socket is reachable from that namespace.
extension PlayTests {
    func testAPageWhoseSandboxCannotStartIsSkippedWithTheFix() throws {
        let rig = try WestonRig.start(width: 320, height: 240)
        addTeardownBlock { rig.stop() }
        let folder = try mediaFolder()
        try squarePage("00ff00").write(to: URL(fileURLWithPath: folder + "/board.html"))
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"lobby": [{"color": "ff0000", "duration": 2}, {"web": "board.html", "duration": 2}]},
             "default": "lobby"}
            """)
        try CLI.requireBinary()
        let p = try RunningProcess(
            "/usr/bin/unshare",
            [
                "--user", "--map-root-user", "/bin/sh", "-c",
                "echo 0 >/proc/sys/user/max_pid_namespaces && exec \"$0\" \"$@\"", CLI.binary, "play", playlist,
            ], environment: rig.clientEnvironment)
        let said = waitUntil(timeout: 30) { p.stderr.contains("skipped: WebKit's sandbox cannot start") }
        XCTAssertTrue(said, "no line skips the page with the sandbox's reason: \(p.stderr)")
        let line = p.stderr.split(separator: "\n").first { $0.contains("WebKit's sandbox cannot start") } ?? ""
        XCTAssertTrue(line.contains("board.html"), "the line names the item: \(line)")
        XCTAssertTrue(line.contains("bwrap: Creating new namespace failed"), "bubblewrap's own words: \(line)")
        XCTAssertTrue(line.contains("user.max_user_namespaces"), "outside a unit, the fix for a host: \(line)")
        // Playback goes on with the good item; the page never shows.
        var red = false
        var green = false
        _ = waitUntil(timeout: 8) {
            let pixel = try? rig.capture().pixel(x: 200, y: 200)
            if pixel == RGB(hex: 0xff0000) { red = true }
            if pixel == RGB(hex: 0x00ff00) { green = true }
            return false
        }
        XCTAssertTrue(red, "the colour item does not play: \(p.stderr)")
        XCTAssertFalse(green, "the page painted although its sandbox could not start")
        XCTAssertEqual(
            p.stderr.components(separatedBy: "WebKit's sandbox cannot start").count - 1, 1, "said once: \(p.stderr)")
        assertCleanStop(p)
    }
}
