import Foundation
import TestHarness
import XCTest

@testable import Fleet

/// `--cache-size`: which files eviction takes and never takes.
final class MediaCacheBudgetTests: ScreenplayTestCase {
    func file(_ name: String, _ bytes: Int64, at modified: Double) -> CachedFile {
        CachedFile(path: "/c/media/" + name, bytes: bytes, modified: modified)
    }

    /// Oldest first, only as many as needed, never a protected file.
    func testEvictionTakesTheOldestUnprotectedFilesUntilTheNewOnesFit() {
        let files = [
            file("new", 30, at: 300), file("old", 30, at: 100), file("active", 30, at: 50),
            file("middle", 30, at: 200), file("pending", 10, at: 10),
        ]
        let protected: Set = ["/c/media/active", "/c/media/pending"]
        // 130 held + 40 coming in 150: 20 must go, so the oldest unprotected one.
        XCTAssertEqual(
            MediaCacheBudget.plan(files: files, protected: protected, incoming: 40, limit: 150), ["/c/media/old"])
        XCTAssertEqual(
            MediaCacheBudget.plan(files: files, protected: protected, incoming: 70, limit: 150),
            ["/c/media/old", "/c/media/middle"])
        XCTAssertEqual(MediaCacheBudget.plan(files: files, protected: protected, incoming: 0, limit: 500), [])
        // Protected 40 + 120 coming cannot fit in 150, whatever goes.
        XCTAssertNil(MediaCacheBudget.plan(files: files, protected: protected, incoming: 120, limit: 150))
        XCTAssertEqual(MediaCacheBudget.needed(files: files, protected: protected, incoming: 120), 160)
    }

    /// On disk: the unprotected old file goes, the active and pending stay;
    /// a half-done eviction (a crash) leaves a cache the next plan finishes.
    func testMakeRoomRemovesOnlyUnusedFilesAndCanBeRepeatedAfterACrash() throws {
        let root = NSTemporaryDirectory() + "screenplay-budget-\(getpid())-\(UUID().uuidString.prefix(8))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        let cache = MediaCache(root: root)
        try cache.create()
        func put(_ name: String, _ bytes: Int, age: Double) -> String {
            let path = cache.media + "/" + name
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(count: bytes)))
            var times = [timeval(tv_sec: Int(Date().timeIntervalSince1970 - age), tv_usec: 0)]
            times.append(times[0])
            utimes(path, times)
            return path
        }
        let active = put("a-active.png", 400, age: 1000)
        let old1 = put("b-old1.png", 300, age: 500)
        let old2 = put("c-old2.png", 300, age: 400)
        let recent = put("d-recent.png", 300, age: 10)
        let budget = MediaCacheBudget(cache: cache, limit: 1000)
        // A crash after the first unlink of a plan that removes two:
        unlink(old1)
        XCTAssertEqual(budget.makeRoom(protected: [active], incoming: 300), .fits(evicted: [old2]))
        XCTAssertTrue(FileManager.default.fileExists(atPath: active))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recent))
        XCTAssertEqual(budget.makeRoom(protected: [active, recent], incoming: 301), .cannotFit(needed: 1001))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recent), "a refused plan removes nothing")
    }

    /// Before its activate_at the new local copy has not taken over: the
    /// files of the copy before it still play and stay protected; after it, they do not.
    func testThePreviousCopyIsProtectedUntilActivateAt() throws {
        let folder = NSTemporaryDirectory() + "screenplay-budget-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        func copy(_ file: String, activateAt: String?) -> String {
            let at = activateAt.map { #", "activate_at": "\#($0)""# } ?? ""
            return #"{"playlists": {"a": [{"file": "\#(file)"}]}, "default": "a"\#(at)}"#
        }
        let local = folder + "/k.json", previous = folder + "/k.previous.json"
        try copy("/c/media/old.png", activateAt: nil).write(toFile: previous, atomically: true, encoding: .utf8)
        try copy("/c/media/new.png", activateAt: "2999-01-01T00:00:00Z").write(
            toFile: local, atomically: true, encoding: .utf8)
        XCTAssertEqual(
            MediaCacheBudget.playing(localPath: local, previous: previous).sorted(),
            ["/c/media/new.png", "/c/media/old.png"])
        try copy("/c/media/new.png", activateAt: "2001-01-01T00:00:00Z").write(
            toFile: local, atomically: true, encoding: .utf8)
        XCTAssertEqual(MediaCacheBudget.playing(localPath: local, previous: previous), ["/c/media/new.png"])
    }
}
