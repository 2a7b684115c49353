import Foundation
import TestSupport
import XCTest

/// `play URL` against a real nginx on 127.0.0.1: the playlist and its
/// files are cached, a new playlist takes over only when complete and
/// verified, and the old one plays on through every fault.
extension PlayTests {
    /// nginx on loopback, stopped at teardown.
    func startWebServer() throws -> WebServer {
        let server = try WebServer(folder: try mediaFolder())
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// A solid PNG's bytes and their SHA-256 as sha256sum prints it.
    func png(_ hex: UInt32, width: Int = 64) throws -> (data: Data, sha256: String) {
        let path = try mediaFolder() + "/image.png"
        try writePNG(path, hex, width: width, height: width * 9 / 16)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let sum = try runProcess("/usr/bin/sha256sum", [path], timeout: 10)
        return (data, String(sum.stdout.prefix(64)))
    }

    /// A playlist of one file item with its hash and size.
    func onePlaylist(_ file: String, sha256: String, bytes: Int) -> Data {
        Data(
            """
            {"playlists": {"lobby": [{"file": "\(file)", "duration": 2, "sha256": "\(sha256)", "bytes": \(bytes)}]},
             "default": "lobby"}
            """.utf8)
    }

    func shows(_ rig: SwayRig, _ hex: UInt32, timeout: TimeInterval = 20) -> Bool {
        waitUntil(timeout: timeout) {
            (try? rig.capture(output: "HEADLESS-1").pixel(x: 160, y: 120)) == RGB(hex: hex)
        }
    }

    func warnings(_ p: RunningProcess, containing text: String) -> [Substring] {
        p.stderr.split(separator: "\n").filter { $0.contains(text) }
    }

    /// As docs/fleet.md says: `play --cache DIR URL`. The
    /// playlist and its file play from the cache; a new file uploaded first
    /// and the playlist last take over once complete (a `reload`, no
    /// restart); an unchanged playlist costs one 304 a poll.
    func testPlaylistFromURLPlaysAndTakesOverANewOneWhenComplete() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        let cache = try mediaFolder()
        let red = try png(0xff0000)
        try server.publish("lobby/media/red.png", red.data)
        try server.publish("lobby/panel.json", onePlaylist("media/red.png", sha256: red.sha256, bytes: red.data.count))
        let url = server.base + "/lobby/panel.json"
        let p = try CLI.start(["play", "--cache", cache, "--poll", "1", "--stats", "-", url], environment: env(rig))
        XCTAssertNotNil(
            p.waitForEvent { $0.event == "item" && ($0.raw["source"] as? String)?.hasSuffix("-red.png") == true },
            p.stderr)
        XCTAssertTrue(shows(rig, 0xff0000), "red never showed: \(p.stderr)")
        let green = try png(0x00ff00)
        try server.publish("lobby/media/green.png", green.data)
        try server.publish(
            "lobby/panel.json", onePlaylist("media/green.png", sha256: green.sha256, bytes: green.data.count))
        XCTAssertNotNil(p.waitForEvent { $0.event == "reload" && ($0.raw["ok"] as? Bool) == true }, p.stderr)
        XCTAssertTrue(shows(rig, 0x00ff00), "green never showed: \(p.stderr)")
        XCTAssertTrue(p.stderr.contains("\(url): new playlist complete (1 files"), p.stderr)
        // Unchanged from here on: the polls are answered 304, and nothing else is fetched.
        let before = server.accessLog.count
        XCTAssertTrue(
            waitUntil(timeout: 10) { server.accessLog.dropFirst(before).filter { $0.contains("\" 304 ") }.count >= 2 },
            "no 304 answers: \(server.accessLog.suffix(5))")
        let later = server.accessLog.dropFirst(before)
        XCTAssertTrue(later.allSatisfy { $0.contains("GET /lobby/panel.json") && $0.contains("\" 304 ") }, "\(later)")
        XCTAssertTrue(later.allSatisfy { $0.contains("screenplay/") }, "the User-Agent names screenplay: \(later)")
        XCTAssertEqual(server.accessLog.filter { $0.contains("GET /lobby/media/green.png") }.count, 1)
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// A one-item playlist replaced by another of the same name whose item
    /// differs (a fleet's usual change: one poster for another) shows the
    /// new item at the next boundary; the panel once took the old item on
    /// screen for the new one at the same index and kept it for good.
    func testOneItemPlaylistReplacedKeepingItsName() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        try writePNG(folder + "/red.png", 0xff0000)
        try writePNG(folder + "/green.png", 0x00ff00)
        let path = try writePlaylist(folder, #"{"playlists": {"lobby": [{"file": "red.png"}]}, "default": "lobby"}"#)
        let p = try CLI.start(["play", "--stats", "-", path], environment: env(rig))
        XCTAssertTrue(shows(rig, 0xff0000), "red never showed: \(p.stderr)")
        try #"{"playlists": {"lobby": [{"file": "green.png"}]}, "default": "lobby"}"#.write(
            toFile: path + ".new", atomically: true, encoding: .utf8)
        XCTAssertEqual(rename(path + ".new", path), 0)
        XCTAssertTrue(shows(rig, 0x00ff00, timeout: 25), "green never showed: \(p.stderr)")
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// A red shader (drawn every refresh, so `frames` lines count
    /// presented frames while it plays) published as the lobby playlist.
    func publishRedShader(_ server: WebServer) throws {
        let source = Data("void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0, 0.0, 0.0 * iTime, 1.0); }\n".utf8)
        try server.publish("lobby/red.frag", source)
        try server.publish(
            "lobby/panel.json", Data(#"{"playlists": {"lobby": [{"file": "red.frag"}]}, "default": "lobby"}"#.utf8))
    }

    /// `play URL --poll 1` with the lobby's red shader on screen.
    func startPlayingRed(
        _ rig: SwayRig, _ server: WebServer, cache: String? = nil, _ extra: [String] = []
    ) throws -> RunningProcess {
        let cache = try cache ?? mediaFolder()
        let p = try CLI.start(
            ["play", "--cache", cache, "--poll", "1", "--stats", "-"] + extra + [server.base + "/lobby/panel.json"],
            environment: env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        XCTAssertTrue(shows(rig, 0xff0000), "red never showed: \(p.stderr)")
        return p
    }

    /// The fault's line is logged, and the red shader plays on: frames are
    /// still presented after it, red is on screen, and no reload happened
    /// but the first download's (`reloads`).
    func assertRedPlaysOn(
        _ p: RunningProcess, _ rig: SwayRig, after line: String, reloads: Int = 1, file: StaticString = #filePath,
        lineNumber: UInt = #line
    ) {
        XCTAssertTrue(
            waitUntil(timeout: 20) { p.stderr.contains(line) }, "no line with \(line): \(p.stderr)", file: file,
            line: lineNumber)
        let seen = p.frames(for: "HEADLESS-1").count
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.frames(for: "HEADLESS-1").count >= seen + 2 }, "no frames lines", file: file,
            line: lineNumber)
        let presented = p.frames(for: "HEADLESS-1").dropFirst(seen).map { $0.int("presented") }
        XCTAssertTrue(presented.allSatisfy { $0 > 0 }, "frames stopped: \(presented)", file: file, line: lineNumber)
        XCTAssertTrue(shows(rig, 0xff0000, timeout: 5), "red is gone after \(line)", file: file, line: lineNumber)
        XCTAssertEqual(
            p.statsEvents.filter { $0.event == "reload" }.count, reloads, "only the first download reloads", file: file,
            line: lineNumber)
        XCTAssertTrue(p.isRunning, p.stderr, file: file, line: lineNumber)
    }

    /// The playlist gone (404), then the server failing (500): each is
    /// one warning naming the URL and status, the old playlist plays on,
    /// and the proof-of-play file keeps its line for what was shown.
    func testURLAnswering404Then500KeepsTheOldPlaylist() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        try publishRedShader(server)
        let proof = try mediaFolder() + "/proof.jsonl"
        let p = try startPlayingRed(rig, server, ["--proof", proof])
        let url = server.base + "/lobby/panel.json"
        XCTAssertEqual(unlink(server.root + "/lobby/panel.json"), 0)
        assertRedPlaysOn(p, rig, after: "cannot fetch the playlist \(url): HTTP 404 (upload the file, or fix the URL)")
        try server.publish("fail-500", Data())
        assertRedPlaysOn(p, rig, after: "cannot fetch the playlist \(url): HTTP 500 (the server failed")
        XCTAssertTrue(p.stderr.contains("the playlist cached at "), p.stderr)
        assertCleanStop(p)
        let lines = try String(contentsOfFile: proof, encoding: .utf8).split(separator: "\n").map(String.init)
        let shown = lines.compactMap(StatsEvent.init)
        XCTAssertEqual(shown.count, lines.count, "a proof line is not JSON: \(lines)")
        XCTAssertEqual(
            shown.filter { ($0.raw["source"] as? String)?.hasSuffix("-red.frag") == true }.count,
            items(p).filter { ($0.raw["source"] as? String)?.hasSuffix("-red.frag") == true }.count, "\(lines)")
        XCTAssertFalse(shown.isEmpty)
    }

    /// A new playlist whose file has the wrong hash, then one whose file is
    /// larger than --max-file-size: neither is used, each warning names the
    /// file and what to fix, and the old playlist plays on.
    func testWrongHashAndTooLargeFileAreRefused() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        try publishRedShader(server)
        let cache = try mediaFolder()
        let p = try startPlayingRed(rig, server, cache: cache, ["--max-file-size", "7K"])
        let green = try png(0x00ff00)
        let wrong = String(green.sha256.reversed())
        try server.publish("lobby/green.png", green.data)
        try server.publish("lobby/panel.json", onePlaylist("green.png", sha256: wrong, bytes: green.data.count))
        assertRedPlaysOn(
            p, rig,
            after:
                "playlists.lobby[0].file: \(server.base)/lobby/green.png: wrong SHA-256: playlists.lobby[0].file expects \(wrong), the file downloaded (\(green.data.count) bytes) has \(green.sha256)"
        )
        // Larger than the limit, and the playlist does not say so: the download stops at the limit.
        let large = try png(0x00ff00, width: 128)
        XCTAssertGreaterThan(large.data.count, 7 << 10)
        try server.publish("lobby/large.png", large.data)
        try server.publish(
            "lobby/panel.json", Data(#"{"playlists": {"lobby": [{"file": "large.png"}]}, "default": "lobby"}"#.utf8))
        assertRedPlaysOn(p, rig, after: "large.png: larger than the limit of 7168 bytes")
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(atPath: cache + "/media").allSatisfy {
                !$0.hasSuffix("green.png") && !$0.hasSuffix("large.png")
            },
            "a refused file was kept")
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// HTTPS with a private CA and a token: without --ca-file the
    /// certificate is refused (TLS is verified), without the token the
    /// server's 401 is named with the fix, and with both the playlist
    /// plays; every request names screenplay, its version and the box.
    func testHTTPSWithAPrivateCAAndATokenFromAFile() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try WebServer(folder: try mediaFolder(), tls: true)
        try server.start()
        addTeardownBlock { server.stop() }
        let shader = Data("void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0, 0.0, 0.0 * iTime, 1.0); }\n".utf8)
        try server.publish("private/red.frag", shader)
        try server.publish(
            "private/panel.json", Data(#"{"playlists": {"p": [{"file": "red.frag"}]}, "default": "p"}"#.utf8))
        let url = server.base + "/private/panel.json"
        let token = try mediaFolder() + "/token"
        try "s3cret-token\n".write(toFile: token, atomically: true, encoding: .utf8)
        func play(_ options: [String], until line: String) throws {
            let p = try CLI.start(["play", "--cache", try mediaFolder()] + options + [url], environment: env(rig))
            XCTAssertTrue(waitUntil(timeout: 15) { p.stderr.contains(line) }, "no \(line): \(p.stderr)")
            XCTAssertTrue(p.isRunning)
            assertCleanStop(p)
        }
        try play(["--token-file", token], until: "cannot fetch the playlist \(url): TLS failed: ")
        try play(["--ca-file", server.caFile], until: "\(url): HTTP 401 (check the token in --token-file")
        let p = try CLI.start(
            [
                "play", "--cache", try mediaFolder(), "--ca-file", server.caFile, "--token-file", token, "--box-id",
                "lobby-7", url,
            ],
            environment: env(rig))
        XCTAssertTrue(shows(rig, 0xff0000), "the private playlist never played: \(p.stderr)")
        XCTAssertFalse(
            try runProcess("/bin/ps", ["-o", "args=", "-p", String(p.pid)], timeout: 10).stdout.contains("s3cret"),
            "the token shows in ps")
        let served = server.accessLog.filter { $0.contains("\" 200 ") }
        XCTAssertEqual(served.count, 2, "\(server.accessLog)")
        XCTAssertTrue(served.allSatisfy { $0.contains("\"screenplay/0.1.0 (box lobby-7)\"") }, "\(served)")
        assertCleanStop(p)
    }
}
