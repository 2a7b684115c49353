import Foundation
import TestSupport
import XCTest

/// `--cache-size` against a real nginx on 127.0.0.1: the cache never holds
/// more than its bound, what goes is what neither the playlist playing nor
/// the one being fetched uses (the oldest first), and a playlist that
/// cannot fit beside the one playing is refused while that one plays on.
extension PlayTests {
    func testCacheStaysWithinItsSizeAndAPlaylistThatCannotFitIsRefused() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        let cache = try mediaFolder() + "/cache"
        let colours: [(name: String, hex: UInt32)] = [
            ("red", 0xff0000), ("green", 0x00ff00), ("blue", 0x0000ff), ("yellow", 0xffff00), ("white", 0xffffff),
        ]
        var files: [String: (data: Data, sha256: String)] = [:]
        for colour in colours {
            let made = try png(colour.hex)
            files[colour.name] = made
            try server.publish("lobby/media/\(colour.name).png", made.data)
        }
        func publish(_ names: [String], declared: Bool = true) throws {
            let items = names.map { name in
                let file = files[name]!
                let integrity = declared ? #", "sha256": "\#(file.sha256)", "bytes": \#(file.data.count)"# : ""
                return #"{"file": "media/\#(name).png", "duration": 2\#(integrity)}"#
            }
            try server.publish(
                "lobby/panel.json",
                Data(#"{"playlists": {"lobby": [\#(items.joined(separator: ", "))]}, "default": "lobby"}"#.utf8))
        }
        func cached(_ name: String) -> Bool {
            FileManager.default.fileExists(atPath: cache + "/media/\(files[name]!.sha256)-\(name).png")
        }
        func held() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/media")) ?? []).reduce(0) {
                $0 + Int(MediaSize.of(cache + "/media/" + $1))
            }
        }
        // Room for two and a half of these files: two playlists of one file
        // each fit side by side, a third file does not fit beside them.
        let limit = files.values.map(\.data.count).max()! * 5 / 2
        try publish(["red"])
        let url = server.base + "/lobby/panel.json"
        let p = try CLI.start(
            ["play", "--cache", cache, "--cache-size", "\(limit)", "--poll", "1", "--stats", "-", url],
            environment: env(rig))
        XCTAssertTrue(shows(rig, 0xff0000), "red never showed: \(p.stderr)")

        try publish(["green"])
        XCTAssertTrue(shows(rig, 0x00ff00), "green never showed: \(p.stderr)")
        XCTAssertTrue(cached("red") && cached("green"), "within the bound nothing goes")

        // Blue beside green needs room: red, used by neither, goes.
        try publish(["blue"])
        XCTAssertTrue(shows(rig, 0x0000ff), "blue never showed: \(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.stderr.contains("deleted 1 cached files") }, "no eviction line: \(p.stderr)")
        XCTAssertFalse(cached("red"), "red was used by no playlist and is the oldest")
        XCTAssertTrue(cached("green") && cached("blue"))
        XCTAssertLessThanOrEqual(held(), limit)

        // Two files beside blue cannot fit: refused, blue plays on, nothing
        // the playing playlist needs is touched.
        try publish(["yellow", "white"])
        XCTAssertTrue(
            waitUntil(timeout: 20) { p.stderr.contains("does not fit in the cache beside the one playing") },
            "no refusal: \(p.stderr)")
        XCTAssertTrue(p.stderr.contains("raise --cache-size or make the playlist smaller"), p.stderr)
        let seen = p.frames(for: "HEADLESS-1").count
        XCTAssertTrue(waitUntil(timeout: 10) { p.frames(for: "HEADLESS-1").count >= seen + 2 }, "no frames lines")
        XCTAssertTrue(shows(rig, 0x0000ff), "blue is no longer shown: \(p.stderr)")
        XCTAssertTrue(cached("blue"))
        XCTAssertLessThanOrEqual(held(), limit)

        // The same without sizes in the playlist: known only once
        // downloaded, so refused then (the same reason, said once), and
        // what it brought goes again.
        try publish(["white", "yellow"], declared: false)
        XCTAssertTrue(
            waitUntil(timeout: 20) { server.accessLog.contains { $0.contains("GET /lobby/media/yellow.png") } },
            "the files without sizes were never fetched: \(server.accessLog.suffix(5))")
        XCTAssertTrue(
            waitUntil(timeout: 10) { !cached("white") && !cached("yellow") }, "the refused playlist's files stayed")
        XCTAssertFalse(cached("green"), "green, used by no playlist, made room first")
        XCTAssertTrue(shows(rig, 0x0000ff), "blue is no longer shown: \(p.stderr)")
        XCTAssertTrue(cached("blue"))
        XCTAssertLessThanOrEqual(held(), limit)
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }
}

/// A file's size in bytes (0 when it is gone).
enum MediaSize {
    static func of(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
