import Foundation
import TestSupport
import XCTest

/// The checkout these tests run in, and helpers to build in throwaway directories.
enum PackageCheckout {
    /// The package root: this file is Tests/PackageTests/PackageCheckout.swift.
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// README.md's text.
    static func readme() throws -> String {
        try String(contentsOfFile: root + "/README.md", encoding: .utf8)
    }

    /// The first ```swift block of the README section `heading` (a "## " line), whatever it
    /// contains, so that the test follows the example as the README changes.
    static func firstSwiftBlock(inSection heading: String, of markdown: String) throws -> String {
        let lines = markdown.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## " + heading) else {
            throw CheckoutError("README.md has no \"## \(heading)\" section")
        }
        var index = start + 1
        while index < lines.count, !lines[index].hasPrefix("## ") {
            if lines[index].trimmingCharacters(in: .whitespaces) == "```swift" {
                guard
                    let end = lines[(index + 1)...].firstIndex(where: {
                        $0.trimmingCharacters(in: .whitespaces) == "```"
                    })
                else {
                    throw CheckoutError("the ```swift block at README.md line \(index + 1) is never closed")
                }
                return lines[(index + 1)..<end].joined(separator: "\n") + "\n"
            }
            index += 1
        }
        throw CheckoutError("README.md's \"## \(heading)\" section has no ```swift block")
    }

    /// A fresh directory under the system's temp directory, removed by the caller.
    static func scratchDirectory(_ label: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + "/screenplay-\(label)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CheckoutError("cannot create a scratch directory in \(NSTemporaryDirectory()): errno \(errno)")
        }
        return String(cString: made)
    }

    /// Lines of a build log that are warnings or errors (compiler and SwiftPM alike).
    static func findings(in log: String) -> [String] {
        log.components(separatedBy: "\n").filter {
            let line = $0.lowercased()
            return line.contains("warning:") || line.contains("error:")
        }
    }
}

struct CheckoutError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
