import Foundation
import TestHarness
import XCTest

@testable import Signage

/// The overrides in force, kept under XDG_STATE_HOME so a restart brings
/// them back: one file per playlist path, gone when none is left, and a
/// broken one told with the fix rather than thrown.
final class OverrideStoreTests: ScreenplayTestCase {
    func testTheStateFileIsKeptPerPlaylistAndDeletedWhenEmpty() throws {
        let folder = NSTemporaryDirectory() + "screenplay-override-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try XCTUnwrap(
            OverrideStore(playlist: "/srv/a%b/signage.json", environment: ["XDG_STATE_HOME": folder]))
        XCTAssertEqual(store.path, folder + "/screenplay/override/%2Fsrv%2Fa%25b%2Fsignage.json.json")
        XCTAssertTrue(store.load().entries.isEmpty)
        let entries = [
            OverrideEntry(kind: .text, what: "FIRE", output: nil, since: 1000, until: 2200),
            OverrideEntry(
                kind: .file, what: "/srv/closed.png", output: "DP-*", except: ["DP-2"], since: 1100, until: nil),
        ]
        XCTAssertNil(store.save(entries, playlist: "/srv/a%b/signage.json"))
        XCTAssertEqual(store.load().entries, entries)
        XCTAssertNil(store.save([], playlist: "/srv/a%b/signage.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path))
        try "{broken".write(toFile: store.path, atomically: true, encoding: .utf8)
        let (kept, problem) = store.load()
        XCTAssertTrue(kept.isEmpty)
        XCTAssertTrue(problem?.contains("delete it to start without overrides") == true, problem ?? "")
    }
}
