import Foundation
import XCTest

/// A type does one job: no type of any module, counted with every extension
/// of it in that module, grows past about 300 lines.
final class TypeSizeTests: XCTestCase {
    /// Lines a type may have, its declaration and extensions together.
    private static let limit = 300

    func testNoTypeGrowsPastAboutThreeHundredLines() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let sizes = try Self.typeSizes(under: root)
        XCTAssertGreaterThan(sizes.count, 200, "types found under \(root.path): \(sizes.count)")
        XCTAssertNotNil(sizes["Screenplay.Application"], "the parser no longer finds Application's parts")
        for (key, lines) in sizes.sorted(by: { $0.key < $1.key }) {
            XCTAssertLessThanOrEqual(
                lines, Self.limit,
                "\(key) has \(lines) lines with its extensions (allowed \(Self.limit)): give its jobs types of their own"
            )
        }
    }

    /// Lines of each top-level type, keyed `Module.Type`: a declaration or
    /// extension starts at column 0 and ends at the first `}` in column 0
    /// after it (swift-format's layout, which `scripts/lint.sh` enforces).
    static func typeSizes(under root: URL) throws -> [String: Int] {
        let declaration = try NSRegularExpression(
            pattern:
                #"^(?:(?:public|internal|private|fileprivate|package|final|open|nonisolated|@[A-Za-z_]+(?:\([^)]*\))?)\s+)*(class|struct|enum|actor|extension|protocol)\s+([A-Za-z_][A-Za-z0-9_.]*)"#
        )
        var sizes: [String: Int] = [:]
        let fileManager = FileManager.default
        // wayland-scanner's output is C; nothing else is generated.
        for module in try fileManager.contentsOfDirectory(atPath: root.path) where module != "CWaylandProtocols" {
            let folder = root.appendingPathComponent(module)
            for path in try fileManager.subpathsOfDirectory(atPath: folder.path) where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                var index = 0
                while index < lines.count {
                    let line = lines[index]
                    let range = NSRange(line.startIndex..., in: line)
                    guard line.contains("{"),
                        let match = declaration.firstMatch(in: line, range: range),
                        let nameRange = Range(match.range(at: 2), in: line)
                    else {
                        index += 1
                        continue
                    }
                    // `extension Scene.Options` belongs to Scene.
                    let name = line[nameRange].split(separator: ".").first.map(String.init) ?? ""
                    var end = index
                    if !line.trimmingCharacters(in: .whitespaces).hasSuffix("}") {
                        end = index + 1
                        while end < lines.count, !lines[end].hasPrefix("}") { end += 1 }
                    }
                    sizes["\(module).\(name)", default: 0] += end - index + 1
                    index = end + 1
                }
            }
        }
        return sizes
    }
}
