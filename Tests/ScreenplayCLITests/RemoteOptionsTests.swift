import Fleet
import Foundation
import TestHarness
import XCTest

@testable import ScreenplayCLI

/// `play URL`'s options, read before anything connects,
/// and the exit statuses of the fleet client's failures.
final class RemoteOptionsTests: ScreenplayTestCase {
    func testCacheSizeTakesSuffixesAndRefusesNonsenseNamingTheOption() throws {
        XCTAssertEqual(try PlayCommand.parse(["https://h/p.json"]).remote.cacheBytes, 16 << 30)
        XCTAssertEqual(
            try PlayCommand.parse(["--cache-size", "500M", "https://h/p.json"]).remote.cacheBytes, 500 << 20)
        XCTAssertEqual(try PlayCommand.parse(["--cache-size", "2G", "https://h/p.json"]).remote.cacheBytes, 2 << 30)
        XCTAssertEqual(RemoteOptions.byteCount("1t"), 1 << 40)
        XCTAssertEqual(RemoteOptions.byteCount("64k"), 64 << 10)
        for bad in ["0", "2X", "G", "1.5G", "99999999999T", "5MB"] {
            XCTAssertThrowsError(try PlayCommand.parse(["--cache-size", bad, "https://h/p.json"]), bad) { error in
                XCTAssertTrue("\(error)".contains("'--cache-size': expected bytes, e.g. 500M or 2G"), "\(error)")
            }
        }
        XCTAssertThrowsError(try PlayCommand.parse(["--cache-size", "2G", "/srv/signage.json"])) { error in
            XCTAssertTrue("\(error)".contains("'--cache-size' applies to a playlist URL"), "\(error)")
        }
    }

    func testOptionsApplyToURLsOnly() throws {
        func parse(_ words: [String]) throws -> PlayCommand { try PlayCommand.parse(words) }
        let command = try parse([
            "--poll", "5", "--cache", "/c", "--token-file", "/t", "--max-file-size", "64M", "--box-id", "lobby-3",
            "https://example.com/p.json",
        ])
        XCTAssertEqual(command.remote.pollSeconds, 5)
        XCTAssertEqual(command.remote.maxFileBytes, 64 << 20)
        XCTAssertEqual(command.remote.boxID, "lobby-3")
        XCTAssertThrowsError(try parse(["--poll", "5", "/srv/signage.json"])) { error in
            XCTAssertTrue("\(error)".contains("'--poll' applies to a playlist URL"), "\(error)")
        }
        for bad in [["--poll", "0"], ["--max-file-size", "12X"], ["--box-id", "a b"]] {
            XCTAssertThrowsError(try parse(bad + ["http://h/p.json"]), "\(bad)")
        }
        XCTAssertEqual(RemoteOptions.byteCount("1500"), 1500)
        XCTAssertEqual(RemoteOptions.byteCount("2g"), 2 << 30)
        XCTAssertNil(RemoteOptions.byteCount("-1"))
    }

    /// The fleet client's failures exit as they did when it was part of the
    /// tool: a malformed credentials file 65, a missing one 66, a cache
    /// folder that cannot be made 73.
    func testFleetFailuresKeepTheirExitStatuses() throws {
        let file = NSTemporaryDirectory() + "remote-options-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "\nsecret\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        var options = RemoteOptions()
        options.mqtt = "mqtt://127.0.0.1"
        for (credentials, expected) in [(file, ExitCode.dataError), (file + ".missing", .noInput)] {
            options.mqttCredentialsFile = credentials
            let code = MainActor.assumeIsolated { () -> ExitCode? in
                do throws(CommandFailure) {
                    _ = try MQTTBox(options: options, boxID: "b", answer: { _, _ in nil }, statusLine: { Data() })
                    return nil
                } catch { return error.code }
            }
            XCTAssertEqual(code, expected, credentials)
        }
        // A folder under a file cannot be made.
        let command = try PlayCommand.parse(["--cache", file + "/cache", "https://h/p.json"])
        let code = MainActor.assumeIsolated { () -> ExitCode? in
            do throws(FleetFailure) {
                try RemotePlaylistSource.make(for: command)?.prepare()
                return nil
            } catch { return CommandFailure(error).code }
        }
        XCTAssertEqual(code, ExitCode.cannotCreate)
    }
}
