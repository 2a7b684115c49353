import Foundation
import TestHarness
import XCTest

@testable import Fleet
@testable import Signage

/// The parts of `play URL` that need no server: options, the playlist's
/// file URLs and their integrity, the local copy, the backoff.
final class RemotePlaylistTests: ScreenplayTestCase {
    let sha = String(repeating: "ab", count: 32)

    func testFilesResolveAgainstThePlaylistsURLWithTheirIntegrity() throws {
        let json = """
            {"playlists": {"b": [{"file": "media/one.png", "sha256": "\(sha.uppercased())", "bytes": 12},
                                 {"text-file": "/news.txt"}],
                           "a": [{"file": "https://cdn.example.com/two%20words.mp4"}, {"color": "000000"},
                                 {"file": "media/one.png"}]},
             "default": "a", "$schema": "../playlist.schema.json"}
            """
        let document = try RemotePlaylistDocument(data: Data(json.utf8), url: "https://example.com/lobby/panel.json")
        XCTAssertEqual(
            document.files.map(\.url),
            [
                "https://cdn.example.com/two%20words.mp4", "https://example.com/lobby/media/one.png",
                "https://example.com/news.txt",
            ])
        XCTAssertEqual(document.files[0].name, "two_words.mp4")
        // The second mention of one.png gives no hash: the first one's holds.
        XCTAssertEqual(document.files[1].integrity, FileIntegrity(sha256: sha, bytes: 12))
        let local =
            try JSONSerialization.jsonObject(
                with: document.rewritten(paths: [
                    "https://example.com/lobby/media/one.png": "/cache/one",
                    "https://example.com/news.txt": "/cache/news",
                    "https://cdn.example.com/two%20words.mp4": "/cache/two",
                ])) as? [String: Any]
        let playlists = try XCTUnwrap(local?["playlists"] as? [String: [[String: Any]]])
        XCTAssertEqual(playlists["b"]?[0]["file"] as? String, "/cache/one")
        XCTAssertNil(playlists["b"]?[0]["sha256"], "checked, so not in the local copy")
        XCTAssertEqual(playlists["b"]?[1]["text-file"] as? String, "/cache/news")
        XCTAssertEqual(playlists["a"]?[0]["file"] as? String, "/cache/two")
        XCTAssertNil(local?["$schema"])
    }

    func testPlaylistsThatCannotBeFetchedAreRefusedNamingThePlace() {
        let cases: [(String, String)] = [
            (#"{"playlists": {"a": [{"file": "file:///etc/passwd"}]}}"#, "playlists.a[0].file"),
            (#"{"playlists": {"a": [{"file": "x.png", "sha256": "12"}]}}"#, "playlists.a[0].sha256"),
            (#"{"playlists": {"a": [{"file": "x.png", "bytes": "12"}]}}"#, "playlists.a[0].bytes"),
            (#"{"playlist": {}}"#, "missing \"playlists\""),
            ("<html>", "not valid JSON"),
        ]
        for (json, named) in cases {
            XCTAssertThrowsError(try RemotePlaylistDocument(data: Data(json.utf8), url: "http://h/p.json")) { error in
                XCTAssertTrue("\(error)".contains(named), "\(error) does not name \(named)")
                XCTAssertTrue("\(error)".hasPrefix("http://h/p.json: "), "\(error)")
            }
        }
    }

    func testTheLoaderTakesIntegrityOnFileItemsOnly() throws {
        let good =
            #"{"playlists": {"a": [{"file": "/nonexistent/a.png", "sha256": "\#(sha)", "bytes": 0}]}, "default": "a"}"#
        XCTAssertNoThrow(try SignageConfigLoader.parse(Data(good.utf8), file: "/srv/p.json", itemSeconds: 10))
    }

    /// Failures wait longer each time, up to the cap; never less than a poll's worth at the cap.
    func testBackoffDoublesToItsCap() {
        XCTAssertEqual((1...4).map { RemotePlaylistWorker.backoff(failures: $0, poll: 60) }, [5, 10, 20, 40])
        XCTAssertEqual(RemotePlaylistWorker.backoff(failures: 20, poll: 60), 300)
        XCTAssertEqual(RemotePlaylistWorker.backoff(failures: 1, poll: 1), 1)
        XCTAssertEqual(RemotePlaylistWorker.backoff(failures: 40, poll: 900), 900)
    }
}
