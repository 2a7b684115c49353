import Foundation
import TestSupport
import XCTest

/// `play URL --cache-size`: the cache stays within its bound, never at
/// the cost of a file the playing or the coming playlist uses.
extension PlayTests {
    /// A shader drawing one colour, padded with a comment to about `bytes`
    /// bytes, published as the lobby's only item (`name` under lobby/).
    func publishShader(_ server: WebServer, _ name: String, _ color: String, bytes: Int) throws {
        var source = "void mainImage(out vec4 c, in vec2 p) { c = vec4(\(color), 1.0) + 0.0 * iTime; }\n"
        let line = "// " + String(repeating: "x", count: 76) + "\n"
        while source.utf8.count + line.utf8.count <= bytes { source += line }
        let data = Data(source.utf8)
        try server.publish("lobby/" + name, data)
        try server.publish(
            "lobby/panel.json",
            Data(
                #"{"playlists": {"lobby": [{"file": "\#(name)", "bytes": \#(data.count)}]}, "default": "lobby"}"#.utf8))
    }

    /// `ctl status --json`'s "source" (the URL's state) and the whole answer, for messages.
    func sourceStatus(_ rig: SwayRig, socket: String) throws -> (source: [String: Any], stdout: String) {
        let status = try CLI.run(["ctl", "status", "--json", "--socket", socket], environment: env(rig))
        let source = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["source"]
                as? [String: Any], status.stdout)
        return (source, status.stdout)
    }

    /// A bad --cache-size stops play before anything shows, naming the option and the syntax.
    func testABadCacheSizeExitsNamingTheSyntax() throws {
        let result = try CLI.run(
            ["play", "--cache-size", "2GB", "http://127.0.0.1:9/p.json"],
            environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": try mediaFolder()])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("invalid value '2GB' for '--cache-size': expected bytes, e.g. 500M or 2G"),
            result.stderr)
    }

    func cachedMedia(_ cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/media")) ?? []).sorted()
    }

    /// As docs/fleet.md says: `play --cache DIR --cache-size
    /// SIZE URL`. Three 40 KB playlists in turn in a 100K cache: the
    /// third evicts the first (used by neither the playing nor the new
    /// one), never the second; a 120 KB playlist cannot fit, so it is
    /// refused in the log and `ctl status`, and the third plays on.
    func testCacheSizeEvictsUnusedFilesAndRefusesAPlaylistThatCannotFit() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        let cache = try mediaFolder()
        let socket = try mediaFolder() + "/play.sock"
        try publishShader(server, "red.frag", "1.0, 0.0, 0.0", bytes: 40_000)
        let url = server.base + "/lobby/panel.json"
        let p = try CLI.start(
            ["play", "--cache", cache, "--cache-size", "100K", "--poll", "1", "--stats", "-", "--socket", socket, url],
            environment: env(rig))
        XCTAssertTrue(shows(rig, 0xff0000), "red never showed: \(p.stderr)")
        try publishShader(server, "green.frag", "0.0, 1.0, 0.0", bytes: 40_000)
        XCTAssertTrue(shows(rig, 0x00ff00), "green never showed: \(p.stderr)")
        XCTAssertEqual(cachedMedia(cache).count, 2, "\(cachedMedia(cache))")
        try publishShader(server, "blue.frag", "0.0, 0.0, 1.0", bytes: 40_000)
        XCTAssertTrue(shows(rig, 0x0000ff), "blue never showed: \(p.stderr)")
        let held = cachedMedia(cache)
        XCTAssertEqual(held.count, 2, "\(held)")
        XCTAssertTrue(
            held.contains { $0.hasSuffix("-green.frag") } && held.contains { $0.hasSuffix("-blue.frag") }, "\(held)")
        try publishShader(server, "huge.frag", "1.0, 1.0, 1.0", bytes: 120_000)
        let refusal = "the new playlist from \(url) does not fit in --cache-size 102400"
        XCTAssertTrue(waitUntil(timeout: 20) { p.stderr.contains(refusal) }, p.stderr)
        XCTAssertTrue(p.stderr.contains("raise --cache-size or make the playlist smaller"), p.stderr)
        let (source, status) = try sourceStatus(rig, socket: socket)
        XCTAssertEqual(source["state"] as? String, "refused", status)
        XCTAssertTrue((source["last_error"] as? String)?.contains("--cache-size") == true, status)
        XCTAssertTrue(shows(rig, 0x0000ff, timeout: 5), "blue stopped playing")
        XCTAssertFalse(server.accessLog.contains { $0.contains("GET /lobby/huge.frag") }, "fetched what cannot fit")
        XCTAssertTrue(cachedMedia(cache).contains { $0.hasSuffix("-blue.frag") }, "\(cachedMedia(cache))")
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }
}
