import Foundation
import TestHarness
import XCTest

/// The scanner's output is committed (SwiftPM cannot generate C here); this
/// fails when it no longer matches what the XML generates.
final class ProtocolCodeTests: ScreenplayTestCase {
    func testCommittedProtocolCodeIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("protocols-\(getpid())")
        defer { try? FileManager.default.removeItem(at: fresh) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [root.appendingPathComponent("scripts/generate-protocols.sh").path, fresh.path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "scripts/generate-protocols.sh failed")
        let committed = root.appendingPathComponent("Sources/CWaylandProtocols")
        let files = try FileManager.default.subpathsOfDirectory(atPath: fresh.path).filter {
            $0.hasSuffix(".c") || $0.hasSuffix(".h")
        }
        XCTAssertGreaterThanOrEqual(files.count, 18)
        for file in files {
            let want = try Data(contentsOf: fresh.appendingPathComponent(file))
            let have = try? Data(contentsOf: committed.appendingPathComponent(file))
            XCTAssertEqual(have, want, "\(file) is stale: run scripts/generate-protocols.sh and commit the result")
        }
    }
}
