import Foundation
import Screenplay
import TestHarness
import XCTest

@testable import Signage

/// docs/playlist.schema.json says what `SignageConfigLoader` accepts: every
/// example playlist under Examples/ and every playlist in README.md and docs/ meets
/// it and loads; every playlist the unit tests get accepted
/// (`PlaylistConfigTests.load`, `ScheduleConfigTests.parse`) and every one
/// written out in the tests' sources that loads meets it; its patterns take
/// the values the parsers take; and mistakes are refused by both.
/// The schema is checked with python3-jsonschema (Debian's, as
/// scripts/setup.sh installs it): without it these tests fail, saying so.
final class PlaylistSchemaTests: ScreenplayTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "screenplay-schema-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func testTheSchemaIsAValidDraft202012Schema() throws {
        // problems(_:) checks the schema itself before any document.
        XCTAssertEqual(
            try PlaylistSchema.problems([#"{"playlists": {"a": [{"color": "000000"}]}, "default": "a"}"#]), [nil])
    }

    func testEveryExamplePlaylistMeetsTheSchemaAndLoads() throws {
        let examples = PlaylistSchema.root.appendingPathComponent("Examples")
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: examples.path))
            .filter { $0.hasSuffix(".json") }.sorted().map { examples.appendingPathComponent($0).path }
        XCTAssertGreaterThanOrEqual(files.filter { $0.contains("/Signage/") }.count, 3, "\(files)")
        let texts = try files.map { try String(contentsOfFile: $0, encoding: .utf8) }
        for (file, problem) in zip(files, try PlaylistSchema.problems(texts)) {
            XCTAssertNil(problem, "\(file) does not meet the schema")
        }
        for file in files {
            XCTAssertNoThrow(try SignageConfigLoader.load(path: file, itemSeconds: 10, warn: { _ in }), file)
            // The "$schema" key leads an editor to the schema.
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
            let schema = try XCTUnwrap((object as? [String: Any])?["$schema"] as? String, "\(file) has no $schema")
            let resolved = URL(fileURLWithPath: schema, relativeTo: URL(fileURLWithPath: file)).standardizedFileURL
            XCTAssertEqual(resolved.path, PlaylistSchema.schemaPath, file)
        }
    }

    func testEveryPlaylistInTheReadmeAndTheGuidesMeetsTheSchemaAndLoads() throws {
        let guides = try FileManager.default.contentsOfDirectory(
            atPath: PlaylistSchema.root.appendingPathComponent("docs").path
        ).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var blocks: [(page: String, json: String)] = []
        for page in ["README.md"] + guides {
            let text = try String(contentsOf: PlaylistSchema.root.appendingPathComponent(page), encoding: .utf8)
            blocks += text.components(separatedBy: "```json\n").dropFirst()
                .map { $0.components(separatedBy: "```")[0] }.filter { $0.contains("\"playlists\"") }
                .map { (page, $0) }
        }
        XCTAssertGreaterThanOrEqual(blocks.count, 4, "the playlists of README.md and \(guides)")
        // The text files they name must exist; media files may be missing.
        for name in ["news.txt", "headlines.txt", "specials.txt"] {
            try "text".write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
        }
        let problems = try PlaylistSchema.problems(blocks.map(\.json))
        for (index, ((page, block), problem)) in zip(blocks, problems).enumerated() {
            XCTAssertNil(problem, "a playlist of \(page) does not meet the schema:\n\(block)")
            let path = "\(folder)/shown-\(index).json"
            try block.write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertNoThrow(
                try SignageConfigLoader.load(path: path, itemSeconds: 10, warn: { _ in }), "\(page):\n\(block)")
        }
        // The menu board is Examples/Signage/menu-board.json, but for its "$schema".
        let signage = try String(
            contentsOf: PlaylistSchema.root.appendingPathComponent("docs/signage.md"), encoding: .utf8)
        let menuBoard = try XCTUnwrap(signage.components(separatedBy: "**A menu board.**").dropFirst().first)
            .components(separatedBy: "```json\n")[1].components(separatedBy: "```")[0]
        let example = try JSONSerialization.jsonObject(
            with: Data(contentsOf: PlaylistSchema.root.appendingPathComponent("Examples/Signage/menu-board.json")))
        var withoutSchema = try XCTUnwrap(example as? [String: Any])
        withoutSchema["$schema"] = nil
        let shown = try JSONSerialization.jsonObject(with: Data(menuBoard.utf8))
        XCTAssertEqual(shown as? NSDictionary, withoutSchema as NSDictionary, "docs/signage.md's menu board")
    }

    /// The playlists written out in the tests' sources (the integration
    /// tests write them to files for `play`): each one without
    /// interpolation that the loader accepts meets the schema too.
    func testEveryStaticPlaylistInTheTestsMeetsTheSchema() throws {
        let tests = PlaylistSchema.root.appendingPathComponent("Tests")
        let sources = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: tests.path))
            .filter { $0.hasSuffix(".swift") }.sorted()
        var accepted: [(source: String, json: String)] = []
        for source in sources {
            let text = try String(contentsOf: tests.appendingPathComponent(source), encoding: .utf8)
            for json in PlaylistSchema.staticPlaylists(in: text) {
                let path = try writeBesideItsTextFiles(json)
                if (try? SignageConfigLoader.load(path: path, itemSeconds: 10, warn: { _ in })) != nil {
                    accepted.append((source, json))
                }
            }
        }
        XCTAssertGreaterThanOrEqual(
            Set(accepted.map(\.source)).count, 10, "playlists found in \(Set(accepted.map(\.source)).sorted())")
        for ((source, json), problem) in zip(accepted, try PlaylistSchema.problems(accepted.map(\.json))) {
            XCTAssertNil(problem, "a playlist in Tests/\(source) does not meet the schema:\n\(json)")
        }
    }

    /// Writes `json` to a file in `folder`, with the text files its text
    /// items name (which must exist for the loader).
    func writeBesideItsTextFiles(_ json: String) throws -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8))
        let lists = ((object as? [String: Any])?["playlists"] as? [String: Any])?.values.compactMap { $0 as? [Any] }
        for item in (lists ?? []).joined() {
            for key in ["text-file", "ticker-file"] {
                guard let name = (item as? [String: Any])?[key] as? String, !name.isEmpty, !name.hasPrefix("/") else {
                    continue
                }
                try "text".write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
            }
        }
        let path = "\(folder)/\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTheLoaderIgnoresASchemaKey() throws {
        let config = try SignageConfigLoader.parse(
            Data(
                #"{"$schema": "../docs/playlist.schema.json", "playlists": {"a": [{"color": "000000"}]}, "default": "a"}"#
                    .utf8),
            file: "/srv/p.json", itemSeconds: 10)
        XCTAssertEqual(config.defaultPlaylist, "a")
        XCTAssertEqual(config.playlists.keys.sorted(), ["a"])
    }
}
