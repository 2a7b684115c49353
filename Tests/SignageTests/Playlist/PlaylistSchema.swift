import Foundation
import XCTest

@testable import Signage

/// The playlist schema and its validator, python3-jsonschema.
enum PlaylistSchema {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static var schemaPath: String { root.appendingPathComponent("docs/playlist.schema.json").path }
    /// Debian's python3, where `apt-get install python3-jsonschema` puts the module.
    static let python = "/usr/bin/python3"

    struct ValidatorMissing: Error, CustomStringConvertible {
        var description: String
    }

    /// Checks the schema, then each document (JSON text) against it: nil
    /// where it meets the schema, else the validator's best-matching error.
    static func problems(_ documents: [String]) throws -> [String?] {
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                sys.exit(3)
            documents = json.load(sys.stdin)
            with open(sys.argv[1], encoding="utf-8") as f:
                schema = json.load(f)
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            result = []
            for document in documents:
                error = jsonschema.exceptions.best_match(validator.iter_errors(json.loads(document)))
                result.append(None if error is None else
                              "/".join(map(str, error.absolute_path)) + ": " + error.message)
            print(json.dumps(result))
            """
        let install = "install it: sudo apt-get install python3 python3-jsonschema (scripts/setup.sh does)"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ValidatorMissing(description: "\(python) is missing; \(install)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, schemaPath]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: JSONSerialization.data(withJSONObject: documents))
        try input.fileHandleForWriting.close()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 {
            throw ValidatorMissing(description: "python3-jsonschema is missing; \(install)")
        }
        guard process.terminationStatus == 0, let list = try JSONSerialization.jsonObject(with: answer) as? [Any],
            list.count == documents.count
        else {
            throw ValidatorMissing(
                description: "the schema check failed (status \(process.terminationStatus)): \(complaint)")
        }
        return list.map { $0 as? String }
    }

    /// The playlists in a Swift source as JSON text: raw string literals
    /// `#"{"playlists"...}"#` and multi-line literals whose text is an object
    /// with "playlists", leaving out any with an escape or interpolation.
    static func staticPlaylists(in source: String) -> [String] {
        let patterns = [##"#"(\{"playlists".*?)"#"##, #"(?s)"""\n(.*?)\n[ \t]*""""#]
        var found: [String] = []
        for pattern in patterns {
            let regex = try! NSRegularExpression(pattern: pattern)
            let range = NSRange(source.startIndex..., in: source)
            for match in regex.matches(in: source, range: range) {
                guard let body = Range(match.range(at: 1), in: source) else { continue }
                let lines = source[body].split(separator: "\n", omittingEmptySubsequences: false)
                let indent =
                    lines.filter { !$0.allSatisfy(\.isWhitespace) }
                    .map { $0.prefix { $0 == " " }.count }.min() ?? 0
                let json = lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
                guard json.hasPrefix("{"), json.contains(#""playlists""#), !json.contains("\\") else { continue }
                found.append(json)
            }
        }
        return found
    }

    /// A playlist the loader accepted meets the schema too.
    /// `json` read as the file /srv/p.json (items of 10 s), checked to meet
    /// the schema too: what the loader accepts, the schema accepts.
    static func parse(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws(PlaylistError)
        -> SignageConfig
    {
        let config = try SignageConfigLoader.parse(Data(json.utf8), file: "/srv/p.json", itemSeconds: 10)
        assertMeets(json, file: file, line: line)
        return config
    }

    static func assertMeets(_ json: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            if let problem = try problems([json])[0] {
                XCTFail(
                    "the loader accepts a playlist the schema refuses (\(problem)):\n\(json)", file: file, line: line)
            }
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }
}
