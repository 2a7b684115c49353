import Foundation
import TestSupport
import XCTest

/// Proof of play over MQTT survives `play` being killed while the broker
/// is away: the lines waiting for the broker are on disk.
extension PlayTests {
    /// The environment of a box with its own state folder, as the kiosk
    /// unit gives it (XDG_STATE_HOME): a test's waiting proof lines never
    /// reach another test's broker.
    func boxEnvironment(_ rig: SwayRig, _ folder: String) -> [String: String] {
        var environment = env(rig)
        environment["XDG_STATE_HOME"] = folder + "/state"
        return environment
    }

    /// The broker goes away, play goes on making proof lines, is killed
    /// (SIGKILL) and started again, and makes more; the broker comes back.
    /// What the broker got is exactly the --proof file: same lines, same
    /// order, none missing, none twice (the lines delivered before the
    /// outage are not sent again).
    func testProofWaitingForTheBrokerSurvivesAKilledPlayInOrderAndOnce() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let broker = try startBroker()
        let box = "screenplay/platform-9/"
        let watcher = try watch(broker, box + "proof")
        let folder = try mediaFolder()
        // Two seconds an item: a proof line is acknowledged long before the next is made.
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"ticker": [{"ticker": "Trains on time", "speed": 200, "duration": 2},
                                      {"color": "204080", "duration": 2}]},
             "default": "ticker"}
            """)
        let proofFile = folder + "/proof.jsonl"
        let arguments = ["play", "--mqtt", broker.url, "--box-id", "platform-9", "--proof", proofFile, playlist]
        let environment = boxEnvironment(rig, folder)
        var p = try CLI.start(arguments, environment: environment)
        XCTAssertTrue(waitUntil(timeout: 20) { watcher.messages.count >= 2 }, p.stderr)
        // The watcher's session is saved every second: it must outlive the stop.
        Thread.sleep(forTimeInterval: 1.2)
        broker.stop()
        let deliveredBefore = watcher.messages.count
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.stderr.contains("MQTT: lost mqtt://127.0.0.1:\(broker.port)") }, p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 20) { proofObjects(proofFile).count >= deliveredBefore + 3 },
            "no proof lines while the broker was away: \(p.stderr)")
        kill(p.pid, SIGKILL)
        _ = p.wait(timeout: 5)
        let beforeKill = proofObjects(proofFile).count

        p = try CLI.start(arguments, environment: environment)
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                p.stderr.contains("proof-of-play lines from before this start wait for the broker")
            }, "the lines kept on disk were not taken up again: \(p.stderr)")
        XCTAssertTrue(waitUntil(timeout: 20) { proofObjects(proofFile).count >= beforeKill + 2 }, p.stderr)
        try broker.start()
        XCTAssertTrue(
            waitUntil(timeout: 30) { p.stderr.contains("MQTT: connected to mqtt://127.0.0.1:\(broker.port)") },
            "did not reconnect: \(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 15) { watcher.messages.count >= proofObjects(proofFile).count },
            "lines missing on the broker: \(proofObjects(proofFile).count) in the file, \(watcher.messages.count) received; \(p.stderr)"
        )
        assertCleanStop(p)
        // Whatever the last moments added reached it too, before the goodbye.
        _ = waitUntil(timeout: 5) { watcher.messages.count >= proofObjects(proofFile).count }
        let file = proofObjects(proofFile)
        let received = watcher.messages.map { ($0.json ?? [:]) as NSDictionary }
        let sentNs = received.map { $0["presented_ns"] as? Int64 ?? 0 }
        let fileNs = file.map { $0["presented_ns"] as? Int64 ?? 0 }
        XCTAssertEqual(
            received.count, file.count,
            "a line missing or sent twice: missing \(fileNs.filter { !sentNs.contains($0) }) (of \(fileNs)), delivered before the outage \(deliveredBefore), in the file at the kill \(beforeKill); repeated \(sentNs.filter { ns in sentNs.filter { $0 == ns }.count > 1 })"
        )
        XCTAssertEqual(received, file, "the broker's proof lines differ from the --proof file")
        XCTAssertEqual(Set(file.map { $0["presented_ns"] as? Int64 }).count, file.count, "a line twice in the file")
        XCTAssertGreaterThanOrEqual(file.count, deliveredBefore + 5)
        // Nothing is left waiting once the broker has every line.
        let journal = folder + "/state/screenplay/mqtt-proof/platform-9.jsonl"
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int, 0)
    }
}

/// The --proof file's lines as JSON objects, in order.
private func proofObjects(_ path: String) -> [NSDictionary] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? NSDictionary
    }
}
