import Foundation
import TestHarness
import TestSupport
import XCTest

/// Under systemd, stderr goes to the journal: when JOURNAL_STREAM names
/// stderr itself, every line starts with its syslog priority (<3> error,
/// <4> warning, <6> info); one line per event either way.
final class JournalLogTests: ScreenplayTestCase {
    /// Runs `screenplay ARGS` with JOURNAL_STREAM set to its stderr's own
    /// device:inode, as systemd does, or to another stream's.
    func start(_ args: [String], environment: [String: String], matching: Bool = true) throws -> RunningProcess {
        try CLI.requireBinary()
        let stream = matching ? "$(stat -L -c %d:%i /proc/self/fd/2)" : "1:1"
        return try RunningProcess(
            "/bin/sh", ["-c", "JOURNAL_STREAM=\(stream) exec \"$0\" \"$@\"", CLI.binary] + args,
            environment: environment)
    }

    func testLinesCarryPrioritiesWhenStderrIsTheJournal() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = NSTemporaryDirectory() + "unattended-journal-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try RigImage(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 8 * 8 * 3)).writePNG(
            to: folder + "/a.png")
        try "not media".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)

        let p = try start(
            ["play", folder, "--stats", "-", "--socket", controlSocketPath()],
            environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        p.terminate()
        XCTAssertEqual(p.wait(timeout: 5), 0, p.stderr)
        let lines = p.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("<4>screenplay: ") && $0.contains("notes.txt: skipped") }, p.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("<6>screenplay: control socket: ") }, p.stderr)
        XCTAssertTrue(lines.contains("<6>screenplay: SIGTERM: tearing down"), p.stderr)
        for line in lines {
            XCTAssertTrue(
                line.range(of: #"^<[346]>screenplay: "#, options: .regularExpression) != nil, "no priority: \(line)")
        }

        // An error that ends the command: <3>, one line, even for a list.
        let bad = try start(["play", folder + "/missing.json"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertEqual(bad.wait(timeout: 10), 66)
        XCTAssertTrue(bad.stderr.hasPrefix("<3>screenplay: "), bad.stderr)
        let unmatched = try start(["play", folder, "--output", "DP-9"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertEqual(unmatched.wait(timeout: 10), 64)
        // The screens are listed on the error's own line.
        let error = unmatched.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>") }
        XCTAssertEqual(error.count, 1, unmatched.stderr)
        XCTAssertTrue(
            error.first?.contains("matches no screen; the screens are:; HEADLESS-1") == true, unmatched.stderr)
    }

    func testNoPrefixesWhenStderrIsNotTheJournal() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let p = try start(["play", "/nonexistent/signage.json"], environment: env(rig), matching: false)
        XCTAssertEqual(p.wait(timeout: 10), 66)
        XCTAssertTrue(p.stderr.hasPrefix("screenplay: "), p.stderr)
    }
}
