import Foundation
import TestHarness
import TestSupport
import XCTest

/// Abuse at the control socket does not hurt playback: malformed JSON,
/// unknown commands, 1 MiB lines, a client writing one byte a second, a
/// client that never reads, and 100 clients at once, all at the same time
/// for 30 s, long enough for every abuser to finish at least one round (the
/// slowest, a client that never reads, takes about that); `CONTROL_ABUSE_SECONDS`
/// lengthens it. Each abuser gets an
/// error reply or is dropped; meanwhile both panels keep presenting a
/// shader (frames counted each second), the process's memory and file
/// descriptors stay bounded, and a well-behaved client is answered throughout.
final class ControlAbuseTests: ScreenplayTestCase {
    /// What the abusers saw, shared between their threads.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        private(set) var failures: [String] = []
        private(set) var latencies: [Double] = []
        func count(_ key: String) { lock.withLock { counts[key, default: 0] += 1 } }
        func fail(_ text: String) { lock.withLock { failures.append(text) } }
        func latency(_ seconds: Double) { lock.withLock { latencies.append(seconds) } }
        subscript(_ key: String) -> Int { lock.withLock { counts[key] ?? 0 } }
        var summary: String {
            lock.withLock { counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
        }
    }

    /// An error reply (ok false) or a closed connection: what every abuser
    /// must get. The reason is `text`, or "busy" when all slots are taken.
    static func refusedOrDropped(_ connection: ControlConnection, contains text: String? = nil) -> Bool {
        guard let line = connection.readLine() else { return true }  // dropped
        guard let reply = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            return false
        }
        guard reply["ok"] as? Bool == false, let error = reply["error"] as? String else { return false }
        return error.hasPrefix("busy") || text.map { error.contains($0) } ?? true
    }

    /// 100 clients connect at once, then each sends a status request:
    /// each is answered, refused as busy, or dropped. They close on return.
    static func crowd(_ socket: String, _ tally: Tally) {
        let crowd = (0..<100).compactMap { _ in try? ControlConnection(socket, timeout: 5) }
        for c in crowd { c.send("{\"command\": \"status\"}\n") }
        for c in crowd {
            guard let line = c.readLine() else {
                tally.count("crowd-dropped")
                continue
            }
            let reply = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            if reply?["ok"] as? Bool == true {
                tally.count("crowd-ok")
            } else if (reply?["error"] as? String)?.hasPrefix("busy") == true {
                tally.count("crowd-busy")
            } else {
                tally.fail("crowd: \(line.prefix(80))")
            }
        }
        tally.count("crowd")
    }

    func testAbuseAtTheSocketDoesNotHurtPlayback() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["CONTROL_ABUSE_SECONDS"] ?? "") ?? 30
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 320, height: 240), .init(width: 320, height: 240),
        ])
        let frag = try temporaryShader(
            "abuse",
            "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.5 + 0.5 * sin(iTime * 3.0), p.x / iResolution.x, 0.4, 1.0); }"
        )
        let (_, playlist) = try signagePlaylist(
            "{\"playlists\": {\"s\": [{\"file\": \"\(frag)\", \"duration\": 86400}]}, \"default\": \"s\"}")
        let socket = controlSocketPath()
        let p = try CLI.start(
            ["play", playlist, "--stats", "-", "--socket", socket], environment: env(rig, builtin: "HEADLESS-1"))
        let outputs = ["HEADLESS-2", "HEADLESS-3"]
        XCTAssertTrue(waitUntil(timeout: 20) { outputs.allSatisfy { p.frames(for: $0).count >= 5 } }, p.stderr)
        let baseline = outputs.map { o in p.frames(for: o).suffix(3).map { $0.int("presented") }.reduce(0, +) / 3 }
        let framesBefore = outputs.map { p.frames(for: $0).count }
        let rssBefore = ProcessUsage.residentKiB(p.pid)
        let fdsBefore = ProcessUsage.openFileDescriptors(p.pid)

        let tally = Tally()
        let deadline = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        func abuser(_ name: String, _ body: @escaping @Sendable () -> Void) {
            DispatchQueue.global().async(group: group) {
                while Date() < deadline { body() }
            }
            _ = name
        }
        abuser("malformed") {
            guard let c = try? ControlConnection(socket) else { return tally.fail("malformed: cannot connect") }
            for (request, expected) in [
                ("{not json", "malformed JSON"), ("{\"command\": \"explode\"}", "unknown command"),
                ("[1, 2]", "a request is a JSON object"), ("{\"command\": \"show\"}", "show needs"),
                (String(repeating: "[", count: 20000), "malformed JSON"), ("{\"command\": 3}", "\"command\""),
                ("\u{00}\u{ff}\u{fe}garbage", "malformed JSON"),
            ] {
                c.send(request + "\n")
                if Self.refusedOrDropped(c, contains: expected) {
                    tally.count("malformed")
                } else {
                    tally.fail("malformed: \(request.prefix(20)) got no error reply")
                }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        abuser("huge") {
            guard let c = try? ControlConnection(socket, timeout: 3) else { return tally.fail("huge: cannot connect") }
            c.send([UInt8](repeating: 0x61, count: 1 << 20) + [0x0A])  // fails part-way once the server drops it
            if Self.refusedOrDropped(c, contains: "longer than") {
                tally.count("huge")
            } else {
                tally.fail("huge: neither refused nor dropped")
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        abuser("slow") {
            guard let c = try? ControlConnection(socket, timeout: 15) else { return tally.fail("slow: cannot connect") }
            let started = Date()
            for byte in Array("{\"command\": \"status\"}\n".utf8) {
                guard c.send([byte]) else { break }
                if c.isClosedByServer(within: 1) { break }
            }
            if Self.refusedOrDropped(c) || c.isClosedByServer(within: 1) {
                tally.count("slow")
                if Date().timeIntervalSince(started) > 16 {
                    tally.fail("slow: held for \(Date().timeIntervalSince(started)) s")
                }
            } else {
                tally.fail("slow: a one-byte-a-second request was answered as if whole")
            }
        }
        abuser("deaf") {
            guard let c = try? ControlConnection(socket, timeout: 1) else { return tally.fail("deaf: cannot connect") }
            let started = Date()
            let request = Array("{\"command\": \"status\"}\n".utf8)
            // Requests without ever reading a reply, until the server lets go.
            while Date().timeIntervalSince(started) < 30, c.send(request) {}
            if c.isClosedByServer(within: 15) { tally.count("deaf") } else { tally.fail("deaf: never dropped") }
            Thread.sleep(forTimeInterval: 0.5)
        }
        abuser("crowd") {
            Self.crowd(socket, tally)
            Thread.sleep(forTimeInterval: 5)
        }
        abuser("good") {
            let started = Date()
            guard let c = try? ControlConnection(socket, timeout: 3), let reply = c.request("{\"command\": \"status\"}")
            else {
                return tally.fail("a well-formed status request went unanswered at \(Date())")
            }
            tally.latency(Date().timeIntervalSince(started))
            if reply["ok"] as? Bool == true {
                tally.count("good-ok")
                if (reply["panels"] as? [Any])?.count != 2 { tally.fail("status without the two panels: \(reply)") }
            } else if (reply["error"] as? String)?.hasPrefix("busy") == true {
                tally.count("good-busy")
            } else {
                tally.fail("status refused: \(reply)")
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertEqual(group.wait(timeout: .now() + seconds + 60), .success, "abusers still running")
        XCTAssertTrue(p.isRunning, "play died: \(p.stderr.suffix(2000))")

        XCTAssertEqual(tally.failures, [], tally.summary)
        for key in ["malformed", "huge", "slow", "deaf", "crowd", "good-ok"] {
            XCTAssertGreaterThan(tally[key], 0, "\(key) never ran: \(tally.summary)")
        }
        XCTAssertGreaterThan(tally["crowd-ok"], 0, tally.summary)
        XCTAssertGreaterThanOrEqual(
            Double(tally["good-ok"]), 0.9 * Double(tally["good-ok"] + tally["good-busy"]), tally.summary)
        XCTAssertLessThan(tally.latencies.max() ?? 0, 2, "a status took \(tally.latencies.max() ?? 0) s")

        // Every panel presented every second, at no less than half its rate before.
        for (k, output) in outputs.enumerated() {
            let during = p.frames(for: output).dropFirst(framesBefore[k]).map { $0.int("presented") }
            XCTAssertGreaterThanOrEqual(during.count, Int(seconds) - 5, "\(output): frames lines \(during)")
            XCTAssertFalse(during.contains(0), "\(output) showed no frame in some second: \(during)")
            let mean = Double(during.reduce(0, +)) / Double(max(during.count, 1))
            XCTAssertGreaterThanOrEqual(
                mean, 0.5 * Double(baseline[k]), "\(output): \(mean) frames/s during, \(baseline[k]) before")
        }
        // Bounded: file descriptors come back, memory grows by less than the buffers allow.
        XCTAssertTrue(
            waitUntil(timeout: 15) { ProcessUsage.openFileDescriptors(p.pid) <= fdsBefore + 2 },
            "fds \(fdsBefore) before, \(ProcessUsage.openFileDescriptors(p.pid)) after")
        let grown = ProcessUsage.residentKiB(p.pid) - rssBefore
        XCTAssertLessThan(grown, 16 * 1024, "RSS grew \(grown) KiB (before \(rssBefore) KiB)")
        XCTAssertNotNil(try? ControlConnection(socket).request("{\"command\": \"status\"}"), "answers after the abuse")
        assertCleanStop(p)
    }
}
