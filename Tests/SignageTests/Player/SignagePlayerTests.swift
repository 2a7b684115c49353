import Foundation
import Synchronization
import TestHarness
import XCTest

@testable import Signage

/// The player as an app meets it, before any compositor: a playlist that
/// cannot play is refused with the file and the reason, its messages reach
/// the app's `SignageMessages` (never stderr), and requests are answered
/// from the start.
final class SignagePlayerTests: ScreenplayTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "screenplay-player-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    /// What the player said, by level.
    final class Said: Sendable {
        let lines = Mutex<[String]>([])
        var messages: SignageMessages {
            SignageMessages(
                info: { text in self.lines.withLock { $0.append("info: " + text) } },
                warning: { text in self.lines.withLock { $0.append("warning: " + text) } })
        }
    }

    @MainActor
    static func player(_ path: String, said: Said) -> SignagePlayer {
        var options = PlayerOptions(path: path)
        options.messages = said.messages
        return SignagePlayer(options: options)
    }

    func testAPlaylistThatCannotPlayIsRefusedNamingTheFile() throws {
        try MainActor.assumeIsolated { [folder] in try Self.checkAPlaylistThatCannotPlayIsRefusedNamingTheFile(folder) }
    }

    @MainActor
    private static func checkAPlaylistThatCannotPlayIsRefusedNamingTheFile(_ folder: String) throws {
        let said = Said()
        let missing = folder + "/nowhere.json"
        XCTAssertThrowsError(try player(missing, said: said).load()) { error in
            let error = error as? PlaylistError
            XCTAssertEqual(error?.code, .noInput)
            XCTAssertTrue(error?.description.contains(missing) == true, error?.description ?? "")
        }
        let broken = folder + "/broken.json"
        try #"{"playlists": {"a": [{"colour": "ff0000"}]}}"#.write(toFile: broken, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try player(broken, said: said).load()) { error in
            let error = error as? PlaylistError
            XCTAssertEqual(error?.code, .dataError)
            XCTAssertTrue(error?.description.contains(broken) == true, error?.description ?? "")
            XCTAssertTrue(error?.description.contains("fix the file") == true, error?.description ?? "")
        }
    }

    func testARefusedReloadIsToldToTheAppsMessagesAndAnswered() throws {
        try MainActor.assumeIsolated { [folder] in
            try Self.checkARefusedReloadIsToldToTheAppsMessagesAndAnswered(folder)
        }
    }

    @MainActor
    private static func checkARefusedReloadIsToldToTheAppsMessagesAndAnswered(_ folder: String) throws {
        let said = Said()
        let path = folder + "/broken.json"
        try "{".write(toFile: path, atomically: true, encoding: .utf8)
        let player = player(path, said: said)
        let refusal = try XCTUnwrap(player.reload(because: "a test"))
        XCTAssertTrue(refusal.contains(path), refusal)
        let lines = said.lines.withLock { $0 }
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(
            lines.first?.hasPrefix("warning: reload refused (a test): ") == true
                && lines.first?.hasSuffix("the previous playlist keeps playing") == true, "\(lines)")
        guard case let .failure(error) = player.perform(ControlRequest(command: .reload)) else {
            return XCTFail("a reload of a broken file was taken")
        }
        XCTAssertTrue(error.reason.hasPrefix("reload refused: "), error.reason)
    }

    func testStatusAndRequestsBeforeAnyScreen() throws {
        try MainActor.assumeIsolated { [folder] in try Self.checkStatusAndRequestsBeforeAnyScreen(folder) }
    }

    @MainActor
    private static func checkStatusAndRequestsBeforeAnyScreen(_ folder: String) throws {
        let said = Said()
        let player = player(folder + "/lobby.json", said: said)
        let status = player.status()
        XCTAssertEqual(status["path"] as? String, folder + "/lobby.json")
        XCTAssertEqual((status["panels"] as? [Any])?.count, 0)
        XCTAssertEqual(player.nothingShownReason, "not connected to a compositor yet")
        XCTAssertFalse(player.showsEveryScreen)
        player.statusFields = { ["source": "the app's"] }
        XCTAssertEqual(player.status()["source"] as? String, "the app's")
        guard case let .failure(error) = player.next(output: "HDMI-*") else {
            return XCTFail("next --output HDMI-* matched a panel where there is none")
        }
        XCTAssertEqual(error.reason, "no panel matches 'HDMI-*'; the panels are: (none)")
        var replies: [Data] = []
        player.screenshot { replies.append($0) }
        let reply = try XCTUnwrap(replies.first.flatMap { String(data: $0, encoding: .utf8) })
        XCTAssertTrue(reply.contains("no panel is connected"), reply)
        XCTAssertEqual(replies.count, 1)
    }
}
