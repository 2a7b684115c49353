import Foundation
import TestHarness
import XCTest

@testable import Signage

/// The state file of items that hung the renderer: where it lives, what
/// it keeps, and that a changed file is forgotten (tried again).
final class HungItemsTests: ScreenplayTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "screenplay-hung-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func testTheStateFileFollowsXDGStateHomeThenHome() {
        XCTAssertEqual(
            HungItems(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.path, "/s/screenplay/hung-items.json")
        XCTAssertEqual(HungItems(environment: ["HOME": "/h"])?.path, "/h/.local/state/screenplay/hung-items.json")
        // The spec ignores a relative XDG_STATE_HOME.
        XCTAssertEqual(
            HungItems(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"])?.path,
            "/h/.local/state/screenplay/hung-items.json")
        XCTAssertNil(HungItems(environment: [:]))
    }

    func testRememberedItemsCountUntilTheirFileChanges() throws {
        let shader = folder + "/hang.frag", deck = folder + "/deck.pdf"
        try "a".write(toFile: shader, atomically: true, encoding: .utf8)
        try "%PDF".write(toFile: deck, atomically: true, encoding: .utf8)
        let items = HungItems(path: folder + "/state/screenplay/hung-items.json")
        XCTAssertEqual(items.load(), [:], "no file yet: nothing remembered")
        XCTAssertNil(items.remember(label: shader, output: "HDMI-A-1"))
        XCTAssertNil(items.remember(label: deck + "#page=3", output: "DP-2"))
        XCTAssertNil(items.remember(label: shader, output: "HDMI-A-2"), "a second hang replaces the entry")
        var loaded = items.load()
        XCTAssertEqual(Set(loaded.keys), [shader, deck + "#page=3"])
        XCTAssertEqual(loaded[shader]?.output, "HDMI-A-2")
        XCTAssertEqual(loaded[shader]?.stamp, fileStamp(shader))
        let mode =
            try FileManager.default.attributesOfItem(atPath: folder + "/state/screenplay")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700)

        try "edited, longer".write(toFile: shader, atomically: true, encoding: .utf8)
        loaded = items.load()
        XCTAssertEqual(Set(loaded.keys), [deck + "#page=3"], "an edited file is tried again")
        try "not json".write(toFile: items.path, atomically: true, encoding: .utf8)
        XCTAssertEqual(items.load(), [:], "a damaged state file remembers nothing and is no error")
    }

    func testAnUnwritableStateFileIsSaidNotThrown() throws {
        try "x".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
        let items = HungItems(path: folder + "/file/screenplay/hung-items.json")
        let failure = items.remember(label: folder + "/file", output: "HDMI-A-1")
        XCTAssertTrue(failure?.contains("cannot write " + items.path) == true, failure ?? "nil")
    }
}
