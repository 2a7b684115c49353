import Foundation
import TestHarness
import XCTest

@testable import Signage

/// `web` items as the loader reads them: origins, the allow list, local
/// pages held to the playlist's folder.
final class WebItemTests: ScreenplayTestCase {
    private func load(_ json: String, folder: String = "/srv/signage") throws(PlaylistError) -> SignageConfig {
        try SignageConfigLoader.parse(Data(json.utf8), file: folder + "/p.json", itemSeconds: 10)
    }

    private func webItem(_ config: SignageConfig) -> WebItem? {
        if case let .web(item)? = config.playlists["a"]?.items.first?.source { return item }
        return nil
    }

    func testOrigins() {
        XCTAssertEqual(WebItem.origin(of: "https://Dash.Example.com/board?x=1"), "https://dash.example.com")
        XCTAssertEqual(WebItem.origin(of: "https://dash.example.com:443/"), "https://dash.example.com")
        XCTAssertEqual(WebItem.origin(of: "http://10.0.0.5:8080/x"), "http://10.0.0.5:8080")
        XCTAssertNil(WebItem.origin(of: "ftp://h/"))
        XCTAssertNil(WebItem.origin(of: "https://user@h/"))
        XCTAssertNil(WebItem.origin(of: "board.html"))
    }

    func testAPageMayReachItsOwnOriginOrWhatWebAllowSays() throws {
        let own = try load(#"{"playlists": {"a": [{"web": "https://dash.example.com/lobby"}]}, "default": "a"}"#)
        XCTAssertEqual(webItem(own)?.allowedOrigins, ["https://dash.example.com"])
        let listed = try load(
            #"{"playlists": {"a": [{"web": "https://dash.example.com/lobby"}]}, "default": "a", "web": {"allow": ["https://dash.example.com", "https://cdn.example.com/"], "memory_limit_mb": 800}}"#
        )
        XCTAssertEqual(webItem(listed)?.allowedOrigins, ["https://dash.example.com", "https://cdn.example.com"])
        XCTAssertEqual(webItem(listed)?.memoryLimitMB, 800)
        XCTAssertThrowsError(
            try load(
                #"{"playlists": {"a": [{"web": "https://evil.example.com/"}]}, "default": "a", "web": {"allow": ["https://dash.example.com"]}}"#
            )
        ) { error in
            XCTAssertTrue("\(error)".contains("playlists.a[0].web"), "\(error)")
            XCTAssertTrue("\(error)".contains("not in web.allow"), "\(error)")
        }
    }

    func testLocalPagesStayInThePlaylistsFolder() throws {
        let folder = NSTemporaryDirectory() + "web-items-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<html></html>".write(toFile: folder + "/board.html", atomically: true, encoding: .utf8)
        let config = try load(#"{"playlists": {"a": [{"web": "board.html"}]}, "default": "a"}"#, folder: folder)
        let item = try XCTUnwrap(webItem(config))
        XCTAssertEqual(item.url, URL(fileURLWithPath: folder + "/board.html").absoluteString)
        XCTAssertEqual(item.fileRoot, (folder as NSString).standardizingPath)
        XCTAssertEqual(item.allowedOrigins, ["null"])
        XCTAssertEqual(config.playlists["a"]?.items.first?.path, (folder + "/board.html" as NSString).standardizingPath)
        for (page, reason) in [
            ("../outside.html", "outside the playlist's folder"), ("/etc/passwd.html", "outside the playlist's folder"),
            ("notes.txt", "is not a .html file"), ("file:///etc/x.html", "give a local page as a path"),
        ] {
            XCTAssertThrowsError(
                try load(#"{"playlists": {"a": [{"web": "\#(page)"}]}, "default": "a"}"#, folder: folder), page
            ) { error in XCTAssertTrue("\(error)".contains(reason), "\(page): \(error)") }
        }
        // Not there yet: a bad item until it arrives, as a missing file is.
        let missing = try load(#"{"playlists": {"a": [{"web": "later.html"}]}, "default": "a"}"#, folder: folder)
        guard case .missing? = missing.playlists["a"]?.items.first?.source else {
            return XCTFail("\(String(describing: missing.playlists["a"]?.items.first?.source))")
        }
    }

    /// `play p.json` from the playlist's own folder (or `play sub/p.json`
    /// from above it): a local page is inside the folder, not "outside" an
    /// empty one.
    func testALocalPageOfAPlaylistNamedRelativeToTheWorkingDirectory() throws {
        let folder = (NSTemporaryDirectory() as NSString).standardizingPath + "/web-relative-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<html></html>".write(toFile: folder + "/sub/board.html", atomically: true, encoding: .utf8)
        let before = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(before) }
        let json = Data(#"{"playlists": {"a": [{"web": "board.html"}]}, "default": "a"}"#.utf8)
        for (directory, file) in [(folder + "/sub", "p.json"), (folder, "sub/p.json"), (folder + "/sub", "./p.json")] {
            XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(directory))
            let config = try SignageConfigLoader.parse(json, file: file, itemSeconds: 10)
            let item = try XCTUnwrap(webItem(config), "\(file) from \(directory)")
            XCTAssertEqual(item.fileRoot, folder + "/sub", "\(file) from \(directory)")
            XCTAssertEqual(item.url, URL(fileURLWithPath: folder + "/sub/board.html").absoluteString)
        }
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder + "/sub"))
        XCTAssertThrowsError(
            try SignageConfigLoader.parse(
                Data(#"{"playlists": {"a": [{"web": "../outside.html"}]}, "default": "a"}"#.utf8), file: "p.json",
                itemSeconds: 10)
        ) { error in XCTAssertTrue("\(error)".contains("outside the playlist's folder \(folder)/sub"), "\(error)") }
    }
}
