import Foundation
import TestHarness
import XCTest

@testable import Signage

/// State under XDG_STATE_HOME is replaced whole (never left half written),
/// and the last good playlist is kept per playlist path.
final class StateFilesTests: ScreenplayTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "screenplay-state-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func testAnAtomicWriteReplacesTheFileAndLeavesNoTemporaryOne() throws {
        let path = folder + "/deep/er/state.json"
        XCTAssertNil(StateDirectory.writeAtomically(Data("one".utf8), to: path))
        XCTAssertNil(StateDirectory.writeAtomically(Data("two".utf8), to: path))
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("two".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/deep/er"), ["state.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/deep")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700, "state is private to the user")
    }

    func testAFailedAtomicWriteKeepsTheOldFileAndSaysWhy() throws {
        let path = folder + "/state.json"
        XCTAssertNil(StateDirectory.writeAtomically(Data("old".utf8), to: path))
        try "x".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
        let failure = StateDirectory.writeAtomically(Data("new".utf8), to: folder + "/file/state.json")
        XCTAssertTrue(failure?.hasPrefix("cannot write \(folder)/file/state.json") == true, failure ?? "nil")
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("old".utf8))
    }

    func testTheLastGoodPlaylistIsKeptPerPlaylistPath() throws {
        let environment = ["XDG_STATE_HOME": folder]
        let lobby = try XCTUnwrap(LastGoodPlaylist(playlist: "/srv/signage/lobby.json", environment: environment))
        let door = try XCTUnwrap(LastGoodPlaylist(playlist: "/srv/signage/door.json", environment: environment))
        XCTAssertEqual(lobby.path, folder + "/screenplay/last-good/%2Fsrv%2Fsignage%2Flobby.json")
        XCTAssertNil(lobby.load())
        XCTAssertNil(lobby.save(Data("{}".utf8)))
        XCTAssertNil(door.load(), "another playlist has its own")
        XCTAssertEqual(lobby.load()?.data, Data("{}".utf8))
        XCTAssertNil(LastGoodPlaylist(playlist: "/x.json", environment: [:]), "nowhere to keep it")
    }
}
