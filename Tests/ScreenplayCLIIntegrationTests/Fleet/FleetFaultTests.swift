import Foundation
import TestSupport
import XCTest

/// `play URL` when the network misbehaves: redirects that never end, a
/// connection cut short, a server that trickles, no server at all, and
/// the box killed in the middle of a download.
extension PlayTests {
    /// The python3 server beside nginx, serving its files; stopped at teardown.
    func startFaultyServer(serving server: WebServer) throws -> FaultyServer {
        let faulty = try FaultyServer(root: server.root)
        addTeardownBlock { faulty.stop() }
        return faulty
    }

    /// A file behind a redirect loop, then one whose connection breaks off
    /// half way (python3: nginx will not cut a response on purpose): both
    /// refused with their reason, the old playlist plays on.
    func testRedirectLoopAndTruncatedDownloadAreRefused() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        let faulty = try startFaultyServer(serving: server)
        try publishRedShader(server)
        let p = try startPlayingRed(rig, server)
        try server.publish(
            "lobby/panel.json", Data(#"{"playlists": {"lobby": [{"file": "/loop.png"}]}, "default": "lobby"}"#.utf8))
        assertRedPlaysOn(p, rig, after: "/loop.png: more than 5 redirects (a redirect loop?)")
        let green = try png(0x00ff00)
        try server.publish("lobby/green.png", green.data)
        let cut = faulty.base + "/cut/lobby/green.png"
        try server.publish(
            "lobby/panel.json", Data(#"{"playlists": {"lobby": [{"file": "\#(cut)"}]}, "default": "lobby"}"#.utf8))
        assertRedPlaysOn(p, rig, after: "\(cut): the transfer broke off after \(green.data.count / 2) bytes")
        assertCleanStop(p)
    }

    /// A file that arrives one byte a second blocks nothing: the shader
    /// keeps presenting frames, `ctl status` answers at once and says a
    /// download is under way, and the old playlist stays.
    func testSlowServerDoesNotBlockPlayback() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        let faulty = try startFaultyServer(serving: server)
        try publishRedShader(server)
        let socket = try mediaFolder() + "/play.sock"
        let p = try startPlayingRed(rig, server, ["--socket", socket])
        try server.publish("lobby/green.png", try png(0x00ff00).data)
        let slow = faulty.base + "/slow/lobby/green.png"
        try server.publish(
            "lobby/panel.json", Data(#"{"playlists": {"lobby": [{"file": "\#(slow)"}]}, "default": "lobby"}"#.utf8))
        // The download has begun: its partial file is there.
        XCTAssertTrue(
            waitUntil(timeout: 10) { faulty.requests(containing: "/slow/") > 0 }, "the slow file was never asked for")
        let seen = p.frames(for: "HEADLESS-1").count
        for _ in 0..<3 {
            let started = Date()
            let status = try CLI.run(["ctl", "status", "--json", "--socket", socket], environment: env(rig))
            XCTAssertEqual(status.status, 0, status.stderr)
            XCTAssertLessThan(Date().timeIntervalSince(started), 2, "ctl status waited on the download")
            XCTAssertTrue(status.stdout.contains("\"url\""), status.stdout)
            Thread.sleep(forTimeInterval: 1)
        }
        XCTAssertTrue(waitUntil(timeout: 5) { p.frames(for: "HEADLESS-1").count >= seen + 3 })
        let presented = p.frames(for: "HEADLESS-1").dropFirst(seen).map { $0.int("presented") }
        // A download that blocked the loop would leave whole seconds with no
        // frame; a loaded machine may slow one second (it gave 10 once, in
        // a long batch beside builds).
        XCTAssertTrue(presented.allSatisfy { $0 > 0 }, "a second with no frame while downloading: \(presented)")
        XCTAssertLessThanOrEqual(
            presented.filter { $0 <= 10 }.count, 1, "frames slowed while downloading: \(presented)")
        XCTAssertTrue(shows(rig, 0xff0000, timeout: 5))
        XCTAssertEqual(p.statsEvents.filter { $0.event == "reload" }.count, 1)
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// The server down at boot: the box plays the playlist it cached on
    /// its last run at once, and says so in the log, `ctl status` and
    /// systemd's STATUS=; when the server comes back it says that too.
    func testServerDownAtBootPlaysTheCachedPlaylist() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        try publishRedShader(server)
        let cache = try mediaFolder()
        let first = try startPlayingRed(rig, server, cache: cache)
        assertCleanStop(first)
        server.stop()
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        let socket = try mediaFolder() + "/play.sock"
        let url = server.base + "/lobby/panel.json"
        let p = try CLI.start(
            ["play", "--cache", cache, "--poll", "1", "--stats", "-", "--socket", socket, url],
            environment: listener.environment(env(rig)))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        XCTAssertTrue(shows(rig, 0xff0000), "the cached playlist did not play: \(p.stderr)")
        XCTAssertTrue(p.stderr.contains("\(url): starting with the playlist cached at "), p.stderr)
        // Frames from the start (the first second may end before the first one).
        XCTAssertNotNil(p.waitForEvent { $0.event == "frames" && $0.int("presented") > 0 })
        assertRedPlaysOn(p, rig, after: "cannot fetch the playlist \(url): ", reloads: 0)
        XCTAssertTrue(p.stderr.contains("the playlist cached at "), p.stderr)
        let (source, status) = try sourceStatus(rig, socket: socket)
        XCTAssertEqual(source["state"] as? String, "unreachable", status)
        XCTAssertTrue((source["playing"] as? String)?.hasPrefix("the playlist cached at ") == true, status)
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                listener.texts.contains {
                    $0.hasPrefix("STATUS=") && $0.contains("\(url) unreachable: playing the copy cached at")
                }
            }, "\(listener.texts.suffix(3))")
        try server.start()
        XCTAssertTrue(waitUntil(timeout: 20) { p.stderr.contains("\(url): reachable again") }, p.stderr)
        assertCleanStop(p)
    }

    /// As docs/fleet.md says, `play --cache DIR URL` and
    /// nothing else, on a box that has never reached its server: the
    /// panel shows the placeholder saying what it waits for, play keeps
    /// trying, and the playlist plays once the server is up.
    func testEmptyCacheShowsThePlaceholderUntilTheServerComes() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try WebServer(folder: try mediaFolder())
        addTeardownBlock { server.stop() }
        try publishRedShader(server)
        let url = server.base + "/lobby/panel.json"
        let p = try CLI.start(["play", "--cache", try mediaFolder(), url], environment: env(rig))
        XCTAssertTrue(
            waitUntil(timeout: 15) { p.stderr.contains("every item of playlist \"waiting for \(url)\" failed") },
            p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                p.stderr.contains("cannot fetch the playlist \(url): ")
                    && p.stderr.contains("nothing cached yet: the placeholder stays")
            }, p.stderr)
        XCTAssertTrue(p.isRunning)
        try server.start()
        XCTAssertTrue(shows(rig, 0xff0000, timeout: 30), "the playlist never played once the server came: \(p.stderr)")
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// The box killed (SIGKILL: a power cut for the process) while a new
    /// file is half downloaded: the next start plays the cached playlist
    /// at once, resumes the file with a Range request (nginx answers 206,
    /// and the bytes sent add up to about one file), checks it and plays
    /// the new playlist.
    func testKilledMidDownloadResumesAfterRestart() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        try publishRedShader(server)
        let cache = try mediaFolder()
        let first = try startPlayingRed(rig, server, cache: cache)
        // Noise does not compress: about 100 KB, sent at 32 KB/s.
        var generator = SystemRandomNumberGenerator()
        let (width, height) = (192, 176)
        let pixels = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = try mediaFolder() + "/noise.png"
        try RigImage(width: width, height: height, pixels: pixels).writePNG(to: path)
        let noise = try Data(contentsOf: URL(fileURLWithPath: path))
        let sum = String(try runProcess("/usr/bin/sha256sum", [path], timeout: 10).stdout.prefix(64))
        try server.publish("throttled/noise.png", noise)
        try server.publish("lobby/panel.json", onePlaylist("/throttled/noise.png", sha256: sum, bytes: noise.count))
        func partSize() -> Int {
            let parts = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/partial")) ?? []
            return parts.filter { $0.hasSuffix(".part") }.compactMap {
                (try? FileManager.default.attributesOfItem(atPath: cache + "/partial/" + $0))?[.size] as? Int
            }.max() ?? 0
        }
        XCTAssertTrue(waitUntil(timeout: 10) { partSize() >= 20_000 }, "the download never got going: \(first.stderr)")
        first.send(SIGKILL)
        XCTAssertNotNil(first.wait(timeout: 5))
        XCTAssertLessThan(partSize(), noise.count, "the download finished before the kill")

        let p = try startPlayingRed(rig, server, cache: cache)
        XCTAssertNotNil(
            p.waitForEvent(timeout: 20) {
                $0.event == "item" && ($0.raw["source"] as? String)?.hasSuffix("-noise.png") == true
            }, "the resumed file never played: \(p.stderr)")
        let requests = server.accessLog.filter { $0.contains("GET /throttled/noise.png") }
        XCTAssertTrue(requests.contains { $0.contains("\" 206 ") }, "no Range resume: \(requests)")
        let sent = requests.compactMap { line in
            line.components(separatedBy: "\" ").dropFirst().first?.split(separator: " ").dropFirst().first
                .flatMap { Int($0) }
        }.reduce(0, +)
        XCTAssertLessThan(sent, noise.count + noise.count / 4, "resumed, not fetched again: \(requests)")
        assertCleanStop(p)
    }
}
