import Foundation
import TestHarness
import TestSupport
import XCTest

/// `play` outlives its compositor by default: it waits for one on the same
/// socket and resumes at the clock's item; `--no-reconnect` exits 69.
final class PlayReconnectTests: ScreenplayTestCase {
    static let colours = ["ff0000", "00ff00", "0000ff", "ffff00", "00ffff"]

    func playlist() throws -> String {
        let items = Self.colours.map { "{\"color\": \"\($0)\"}" }.joined(separator: ", ")
        return try signagePlaylist("{\"playlists\": {\"s\": [\(items)]}, \"default\": \"s\"}").playlist
    }

    /// The clock's item at an ISO 8601 time, for items of `seconds` each.
    func clockIndex(_ at: String, seconds: Double) -> Int? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let t = formatter.date(from: at)?.timeIntervalSince1970 else { return nil }
        return Int((t / seconds).rounded(.down).truncatingRemainder(dividingBy: Double(Self.colours.count)))
    }

    func testWaitsForARestartedCompositorAndResumesAtTheClocksItem() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let socket = controlSocketPath()
        let p = try CLI.start(
            ["play", try playlist(), "--duration", "1", "--stats", "-", "--socket", socket],
            environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 15) { p.statsEvents.filter { $0.event == "item" }.count >= 2 }, p.stderr)
        rig.kill()
        XCTAssertTrue(
            waitUntil(timeout: 5) { p.stderr.contains("waiting for a compositor on the same socket") }, p.stderr)
        // Waiting costs almost nothing and the control socket still answers.
        // Counted once the teardown that came before the wait is over.
        Thread.sleep(forTimeInterval: 0.5)
        let before = ProcessUsage.cpuTicks(p.pid)
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertLessThanOrEqual(ProcessUsage.cpuTicks(p.pid) - before, 8, "waiting must not spin")
        XCTAssertTrue(p.isRunning, p.stderr)
        let waiting = try CLI.run(["ctl", "status", "--socket", socket], environment: env(rig))
        XCTAssertEqual(waiting.status, 0, waiting.stderr)
        XCTAssertTrue(waiting.stdout.contains("waiting for the compositor"), waiting.stdout)
        let itemsBefore = p.statsEvents.filter { $0.event == "item" }.count

        try rig.restart()
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.statsEvents.filter { $0.event == "item" }.count >= itemsBefore + 3 }, p.stderr)
        XCTAssertEqual(p.statsEvents.filter { $0.event == "connect" && $0.output == "HEADLESS-2" }.count, 2)
        // Every item after the restart is the clock's, the first one included.
        for item in p.statsEvents.filter({ $0.event == "item" }).dropFirst(itemsBefore) {
            let at = item.raw["at"] as? String ?? ""
            XCTAssertEqual(item.int("index"), clockIndex(at, seconds: 1), "item at \(at)")
        }
        XCTAssertTrue(waitUntil(timeout: 5) { p.stderr.contains("reconnected to ") }, p.stderr)
        assertLossToldInOrder(p.stderr, then: "screenplay: reconnected to ")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                (try? rig.capture(output: "HEADLESS-2").pixel(x: 160, y: 120)).map { pixel in
                    Self.colours.contains { RGB(hex: UInt32($0, radix: 16)!) == pixel }
                } ?? false
            }, "a playlist colour is on the panel again")
        assertCleanStop(p)
    }

    func testNoReconnectExits69() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let p = try CLI.start(
            ["play", try playlist(), "--no-reconnect", "--stats", "-", "--socket", controlSocketPath()],
            environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        rig.kill()
        XCTAssertEqual(p.wait(timeout: 5), 69, p.stderr)
        XCTAssertTrue(p.stderr.contains("--no-reconnect"), p.stderr)
        assertLossToldInOrder(p.stderr, then: nil)
    }

    /// As a user reads the log when the compositor goes: each screen's
    /// loss first, then one line of what play does about it (waits, or
    /// exits under `--no-reconnect`), then `then` (the reconnect), as play
    /// has always told them.
    func assertLossToldInOrder(_ stderr: String, then next: String?, file: StaticString = #filePath, line: UInt = #line)
    {
        let lines = stderr.split(separator: "\n").map(String.init)
        let screensGone = ["HEADLESS-1", "HEADLESS-2"].compactMap { name in
            lines.firstIndex(of: "screenplay: screen disconnected: \(name)")
        }
        let lost = lines.indices.filter { lines[$0].hasPrefix("screenplay: lost the connection to the compositor at ") }
        XCTAssertEqual(screensGone.count, 2, stderr, file: file, line: line)
        XCTAssertEqual(lost.count, 1, stderr, file: file, line: line)
        guard let lost = lost.first else { return }
        XCTAssertTrue(screensGone.allSatisfy { $0 < lost }, stderr, file: file, line: line)
        if let next {
            let after = lines.firstIndex { $0.hasPrefix(next) }
            XCTAssertNotNil(after, stderr, file: file, line: line)
            XCTAssertLessThan(lost, after ?? -1, stderr, file: file, line: line)
        } else {
            XCTAssertEqual(lost, lines.count - 1, "the last line: \(stderr)", file: file, line: line)
        }
    }
}
