import Foundation
import TestSupport
import XCTest

/// When a fleet switches: at an operator's `activate_at` on every box at
/// once, and never to a playlist the server replaced while it downloaded.
extension PlayTests {
    /// The proof-of-play file's lines, each checked to be whole JSON.
    func proofLines(_ proof: String) throws -> [StatsEvent] {
        let lines = try String(contentsOfFile: proof, encoding: .utf8).split(separator: "\n").map(String.init)
        let shown = lines.compactMap(StatsEvent.init)
        XCTAssertEqual(shown.count, lines.count, "a proof line is not JSON: \(lines)")
        return shown
    }

    func source(_ event: StatsEvent) -> String { event.raw["source"] as? String ?? "" }

    /// Two boxes (two `play URL` with their own caches, each on its own
    /// output) get a playlist with `activate_at` a few seconds ahead: both
    /// keep the old one until then and switch on the same refresh.
    func testActivateAtSwitchesEveryBoxAtTheSameInstant() throws {
        let rig = try startSway([
            .init(width: 320, height: 240, refreshHz: 60), .init(width: 320, height: 240, refreshHz: 60),
        ])
        let server = try startWebServer()
        try publishRedShader(server)
        let url = server.base + "/lobby/panel.json"
        let boxes = try ["HEADLESS-1", "HEADLESS-2"].map { output in
            try CLI.start(
                [
                    "play", "--cache", try mediaFolder(), "--poll", "1", "--stats", "-", "--output", output,
                    "--socket", try mediaFolder() + "/play.sock", url,
                ], environment: env(rig))
        }
        for box in boxes { XCTAssertNotNil(box.waitForEvent { $0.event == "item" }, box.stderr) }
        let green = try png(0x00ff00)
        try server.publish("lobby/green.png", green.data)
        // Far enough ahead for both boxes to poll (1 s) and download it.
        let at = (Date().timeIntervalSince1970 + 6).rounded(.up)
        let when = iso8601(at)
        try server.publish(
            "lobby/panel.json",
            Data(
                #"{"playlists": {"lobby": [{"file": "green.png", "duration": 30}]}, "default": "lobby", "activate_at": "\#(when)"}"#
                    .utf8))
        for box in boxes {
            XCTAssertTrue(
                waitUntil(timeout: 5) { box.stderr.contains("it takes over on every panel at once at \(when)") },
                box.stderr)
        }
        var switches: [(at: Double, ns: Int)] = []
        for box in boxes {
            let item = try XCTUnwrap(
                box.waitForEvent(timeout: 15) { $0.event == "item" && self.source($0).hasSuffix("-green.png") },
                box.stderr)
            let shownAt = try XCTUnwrap(isoSeconds(item.raw["at"] as? String ?? ""), "\(item.raw)")
            switches.append((shownAt, item.int("presented_ns")))
            XCTAssertTrue(box.stderr.contains("takes over now (activate_at \(when))"), box.stderr)
        }
        for (shownAt, _) in switches {
            XCTAssertGreaterThanOrEqual(shownAt, at - 0.001, "green came on before activate_at")
            XCTAssertLessThan(shownAt, at + 0.5, "green came on long after activate_at")
        }
        // Both presented on one refresh (16.7 ms; one main thread each, on a loaded machine a little more).
        let apart = abs(Double(switches[0].ns - switches[1].ns)) / 1e6
        XCTAssertLessThanOrEqual(apart, 2 * 16.7, "the boxes switched \(apart) ms apart")
        XCTAssertTrue(shows(rig, 0x00ff00, timeout: 5))
        for box in boxes { assertCleanStop(box) }
    }

    /// The server publishes playlist B while A's file is half downloaded:
    /// the box ends on B, A never plays (not even once complete), frames
    /// never stop, and the proof-of-play file has a whole line for every
    /// item shown.
    func testPlaylistReplacedWhileItsFileDownloadsEndsOnTheNewOne() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        try publishRedShader(server)
        let cache = try mediaFolder()
        let proof = try mediaFolder() + "/proof.jsonl"
        let p = try startPlayingRed(rig, server, cache: cache, ["--proof", proof])
        let pixels = (0..<192 * 176 * 3).map { _ in UInt8.random(in: 0...255) }
        let path = try mediaFolder() + "/noise.png"
        try RigImage(width: 192, height: 176, pixels: pixels).writePNG(to: path)
        let noise = try Data(contentsOf: URL(fileURLWithPath: path))
        let seen = p.frames(for: "HEADLESS-1").count
        // nginx sends /throttled/ at 32 KB/s: about three seconds for this file.
        try server.publish("throttled/noise.png", noise)
        try server.publish(
            "lobby/panel.json", onePlaylist("/throttled/noise.png", sha256: sha256(path), bytes: noise.count))
        XCTAssertTrue(waitUntil(timeout: 10) { self.partial(cache) > 0 }, "A's download never began")
        XCTAssertLessThan(partial(cache), noise.count, "A's file came before B was published")
        // B: a green shader, drawn every refresh like the red one, so every frames line counts.
        try publishShader(server, "green.frag", "0.0, 1.0, 0.0", bytes: 1000)
        XCTAssertTrue(shows(rig, 0x00ff00, timeout: 20), "B never showed: \(p.stderr)")
        let shown = p.frames(for: "HEADLESS-1").count
        XCTAssertTrue(waitUntil(timeout: 10) { p.frames(for: "HEADLESS-1").count >= shown + 2 })
        let presented = p.frames(for: "HEADLESS-1").dropFirst(seen).map { $0.int("presented") }
        assertCleanStop(p)
        XCTAssertTrue(presented.allSatisfy { $0 > 0 }, "frames stopped: \(presented)")
        XCTAssertFalse(items(p).contains { source($0).hasSuffix("-noise.png") }, "A played: \(items(p).map(source))")
        XCTAssertEqual(
            p.statsEvents.filter { $0.event == "reload" && $0.raw["ok"] as? Bool == true }.count, 2,
            "first download and B only")
        let proven = try proofLines(proof)
        for name in ["-red.frag", "-green.frag"] {
            XCTAssertEqual(
                proven.filter { source($0).hasSuffix(name) }.count,
                items(p).filter { source($0).hasSuffix(name) }.count,
                "proof of play for \(name): \(proven.map(source))")
        }
        XCTAssertFalse(proven.contains { source($0).hasSuffix("-noise.png") })
    }

    /// Bytes of the largest download under way in `cache`.
    func partial(_ cache: String) -> Int {
        let parts = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/partial")) ?? []
        return parts.filter { $0.hasSuffix(".part") }.compactMap {
            (try? FileManager.default.attributesOfItem(atPath: cache + "/partial/" + $0))?[.size] as? Int
        }.max() ?? 0
    }

    func sha256(_ path: String) throws -> String {
        String(try runProcess("/usr/bin/sha256sum", [path], timeout: 10).stdout.prefix(64))
    }

    func isoSeconds(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}
