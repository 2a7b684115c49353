import Foundation
import TestHarness
import XCTest

/// ARCHITECTURE.md's tables send a reader to files; every file it names
/// must exist (a renamed or removed file once stayed named there).
final class ArchitectureDocTests: ScreenplayTestCase {
    func testEveryFileArchitectureNamesExists() throws {
        let text = try String(contentsOfFile: PackageCheckout.root + "/ARCHITECTURE.md", encoding: .utf8)
        let sources =
            try FileManager.default.subpathsOfDirectory(atPath: PackageCheckout.root + "/Sources")
            + FileManager.default.subpathsOfDirectory(atPath: PackageCheckout.root + "/Tests").map { "../Tests/" + $0 }
        let names = Set(sources.map { ($0 as NSString).lastPathComponent } + ["Package.swift"])
        // `Path/To/File.swift` or `File.swift` in backticks.
        let regex = try NSRegularExpression(pattern: "`([A-Za-z0-9_./-]+\\.(swift|c|h|sh|md|modulemap))`")
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
        let named = matches.compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
        XCTAssertGreaterThan(named.count, 20, "the file names ARCHITECTURE.md's tables carry were not found")
        var missing: [String] = []
        for path in Set(named) {
            let exists =
                path.contains("/")
                ? FileManager.default.fileExists(atPath: PackageCheckout.root + "/" + path)
                : names.contains(path)
            if !exists { missing.append(path) }
        }
        XCTAssertEqual(missing.sorted(), [], "ARCHITECTURE.md names files that do not exist")
    }
}
