import Foundation
import XCTest

/// The scanner's output is committed (SwiftPM cannot generate C here); these
/// fail when it no longer matches what the XML generates.
final class ProtocolCodeTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func testCommittedProtocolCodeIsCurrent() throws {
        try assertCurrent(script: "scripts/generate-protocols.sh", committed: "Sources/CWaylandProtocols", atLeast: 18)
    }

    /// The scripted compositor's server side (Tests/ScriptedCompositor/protocols).
    func testCommittedTestCompositorProtocolCodeIsCurrent() throws {
        try assertCurrent(
            script: "scripts/generate-test-protocols.sh", committed: "Tests/ScriptedCompositor/protocols", atLeast: 8)
    }

    private func assertCurrent(script: String, committed: String, atLeast minimum: Int) throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("protocols-\(getpid())-\(minimum)")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [root.appendingPathComponent(script).path, fresh.path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "\(script) failed")
        let committedDir = root.appendingPathComponent(committed)
        let files = try FileManager.default.subpathsOfDirectory(atPath: fresh.path).filter { $0.hasSuffix(".c") || $0.hasSuffix(".h") }
        XCTAssertGreaterThanOrEqual(files.count, minimum)
        for file in files {
            let want = try Data(contentsOf: fresh.appendingPathComponent(file))
            let have = try? Data(contentsOf: committedDir.appendingPathComponent(file))
            XCTAssertEqual(have, want, "\(committed)/\(file) is stale: run \(script) and commit the result")
        }
    }
}
