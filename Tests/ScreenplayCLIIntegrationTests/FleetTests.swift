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
    func png(_ hex: UInt32) throws -> (data: Data, sha256: String) {
        let path = try mediaFolder() + "/image.png"
        try writePNG(path, hex)
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

    /// As README's "Running a fleet" says: `play --cache DIR URL`. The
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
