import Foundation
import TestSupport
import XCTest

/// `play --mqtt` against a real mosquitto on 127.0.0.1, watched by a real
/// mosquitto_sub and driven by mosquitto_pub, as an operator's tools would.
extension PlayTests {
    func startBroker(tls: Bool = false, credentials: (user: String, password: String)? = nil) throws
        -> MQTTBrokerProcess
    {
        let broker = try MQTTBrokerProcess(folder: try mediaFolder(), tls: tls, credentials: credentials)
        try broker.start()
        addTeardownBlock { broker.stop() }
        return broker
    }

    func watch(_ broker: MQTTBrokerProcess, _ topic: String = "#") throws -> MQTTSubscription {
        let subscription = try broker.subscribe(topic, id: "watcher-\(UUID().uuidString.prefix(6))")
        addTeardownBlock { subscription.stop() }
        return subscription
    }

    /// As docs/fleet.md says: `play --mqtt mqtts://... --mqtt-credentials FILE
    /// --mqtt-ca-file FILE --box-id NAME`. The box says it is online, keeps
    /// a retained status, sends each item shown as proof of play, and runs
    /// commands from its command topic with replies; garbage, unknown
    /// commands and a retained command are refused with a reason while
    /// playback goes on; killed, its will says it went offline.
    func testBoxReportsAndTakesCommandsOverMQTTWithTLSAndCredentials() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let broker = try startBroker(tls: true, credentials: ("lobby", "s3cret pass"))
        let watcher = try watch(broker)
        let folder = try mediaFolder()
        try writePNG(folder + "/red.png", 0xff0000)
        try writePNG(folder + "/green.png", 0x00ff00)
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"lobby": [{"file": "red.png", "duration": 3600}, {"file": "green.png", "duration": 3600}]},
             "default": "lobby"}
            """)
        let box = "screenplay/lobby-1/"
        // A command left retained by mistake: a reconnecting box must not run it again.
        try broker.publish(box + "command", #"{"command":"next"}"#, retain: true)
        let credentials = folder + "/mqtt-credentials"
        try "lobby\ns3cret pass\n".write(toFile: credentials, atomically: true, encoding: .utf8)
        chmod(credentials, 0o600)
        let p = try CLI.start(
            [
                "play", "--mqtt", broker.url, "--mqtt-credentials", credentials, "--mqtt-ca-file", broker.caFile,
                "--box-id", "lobby-1", playlist,
            ], environment: boxEnvironment(rig, folder))
        XCTAssertNotNil(watcher.wait { $0.topic == box + "online" && $0.payload == "true" }, p.stderr)
        let status = watcher.wait { $0.topic == box + "status" && $0.json?["panels"] != nil }
        let panels = status?.json?["panels"] as? [[String: Any]]
        XCTAssertEqual(panels?.first?["output"] as? String, "HEADLESS-1", status?.payload ?? p.stderr)
        XCTAssertEqual((status?.json?["mqtt"] as? [String: Any])?["state"] as? String, "connected")
        // The clock-aligned loop decides which of the two comes first.
        let first = watcher.wait { $0.topic == box + "proof" }?.json?["source"] as? String ?? ""
        XCTAssertTrue(first.hasSuffix("red.png") || first.hasSuffix("green.png"), "no proof of play: \(p.stderr)")
        let (shown, other) = first.hasSuffix("red.png") ? (0xff0000, 0x00ff00) : (0x00ff00, 0xff0000)
        XCTAssertTrue(shows(rig, UInt32(shown)), p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.stderr.contains("ignored a retained message on \(box)command") }, p.stderr)
        XCTAssertTrue(shows(rig, UInt32(shown), timeout: 2), "the retained command ran")
        try broker.publish(box + "command", "", retain: true)

        // A late subscriber sees the retained status and online flag at once.
        let late = try broker.subscribe(box + "+", id: "late")
        defer { late.stop() }
        XCTAssertNotNil(late.wait(timeout: 10) { $0.topic == box + "status" && $0.retained }, late.process.stderr)
        XCTAssertNotNil(late.wait(timeout: 10) { $0.topic == box + "online" && $0.retained && $0.payload == "true" })

        try broker.publish(box + "command", #"{"command":"next","id":"n1"}"#)
        let reply = watcher.wait { $0.topic == box + "reply" && $0.json?["id"] as? String == "n1" }
        XCTAssertEqual(reply?.json?["ok"] as? Bool, true, reply?.payload ?? p.stderr)
        XCTAssertTrue(shows(rig, UInt32(other)), "next did not show the other item: \(p.stderr)")
        XCTAssertEqual(
            watcher.messages.filter { $0.topic == box + "proof" }.compactMap { $0.json?["source"] as? String }.count,
            2)

        // A screenshot comes back in the reply, as a PNG of what the panel shows.
        try broker.publish(box + "command", #"{"command":"screenshot","id":"shot"}"#)
        let shot = watcher.wait { $0.topic == box + "reply" && $0.json?["id"] as? String == "shot" }
        let png = (shot?.json?["png"] as? String).flatMap { Data(base64Encoded: $0) }
        let image = try png.map { try RigImage(png: $0) }
        XCTAssertEqual(
            image?.pixel(x: 160, y: 120), RGB(hex: UInt32(other)), shot?.payload.prefix(200).description ?? "")

        // Garbage and an unknown command with its own reply topic.
        try broker.publish(box + "command", "not json at all")
        let malformed = watcher.wait {
            $0.topic == box + "reply" && ($0.json?["error"] as? String)?.contains("malformed JSON") == true
        }
        XCTAssertEqual(malformed?.json?["ok"] as? Bool, false, watcher.messages.map(\.payload).joined(separator: "\n"))
        try broker.publish(box + "command", #"{"command":"fly","id":2,"reply_to":"ops/replies"}"#)
        let unknown = watcher.wait { $0.topic == "ops/replies" }
        XCTAssertEqual(unknown?.json?["id"] as? Int, 2)
        XCTAssertTrue((unknown?.json?["error"] as? String)?.contains("unknown command \"fly\"") == true)
        XCTAssertTrue(shows(rig, UInt32(other), timeout: 2), "garbage changed the item")
        XCTAssertTrue(p.isRunning)

        // ctl status says the same.
        let ctl = try CLI.run(["ctl", "status", "--json"], environment: env(rig))
        let fields = (try? JSONSerialization.jsonObject(with: Data(ctl.stdout.utf8))) as? [String: Any]
        XCTAssertEqual((fields?["mqtt"] as? [String: Any])?["state"] as? String, "connected", ctl.stdout)

        // Killed: the broker publishes the will.
        kill(p.pid, SIGKILL)
        XCTAssertNotNil(
            watcher.wait { $0.topic == box + "online" && $0.payload == "false" },
            "no will: \(watcher.messages.map { "\($0.topic) \($0.payload.prefix(40))" })")
    }

    /// The broker killed mid-play and started again: frames go on being
    /// presented throughout, the box says it lost the broker and reconnects,
    /// and every proof-of-play line of the outage reaches the broker after
    /// it is back (compared with the --proof file). A clean stop says offline.
    func testBrokerKilledAndRestartedDoesNotTouchPlaybackOrLoseProof() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let broker = try startBroker()
        let watcher = try watch(broker, "screenplay/depot/#")
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"ticker": [{"ticker": "Trains on time", "speed": 200, "duration": 1},
                                      {"ticker": "Platform 2", "speed": 200, "duration": 1}]},
             "default": "ticker"}
            """)
        let proofFile = folder + "/proof.jsonl"
        let p = try CLI.start(
            ["play", "--mqtt", broker.url, "--box-id", "depot", "--proof", proofFile, "--stats", "-", playlist],
            environment: boxEnvironment(rig, folder))
        XCTAssertNotNil(watcher.wait { $0.topic == "screenplay/depot/proof" }, p.stderr)
        // The watcher's session must be saved (every second) before the kill.
        Thread.sleep(forTimeInterval: 1.5)
        broker.kill()
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.stderr.contains("MQTT: lost mqtt://127.0.0.1:\(broker.port)") }, p.stderr)
        let framesBefore = p.frames(for: "HEADLESS-1").count
        Thread.sleep(forTimeInterval: 4)
        let outage = Array(p.frames(for: "HEADLESS-1").dropFirst(framesBefore))
        XCTAssertGreaterThanOrEqual(outage.count, 2, "no frames lines while the broker was down: \(p.stderr)")
        // Frames drawn, each paced by the compositor's frame callback: a
        // window's `presented` count can read 0 when its feedback lands in
        // the next window on a loaded machine.
        for window in outage { XCTAssertGreaterThan(window.int("draws"), 10, "\(window.raw)") }
        try broker.start()
        XCTAssertTrue(
            waitUntil(timeout: 30) {
                p.stderr.components(separatedBy: "MQTT: connected to mqtt://127.0.0.1:\(broker.port)").count >= 3
            }, "did not reconnect: \(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                p.stderr.contains("proof-of-play lines kept while the broker could not be reached")
            },
            p.stderr)
        let shownSoFar = presentations(proofLines(proofFile))
        XCTAssertGreaterThan(shownSoFar.count, 4)
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                let sent = presentations(
                    watcher.messages.filter { $0.topic == "screenplay/depot/proof" }.map(\.payload))
                return shownSoFar.isSubset(of: sent)
            },
            "proof lines missing on the broker: \(shownSoFar.count) in the file, received \(watcher.messages.filter { $0.topic == "screenplay/depot/proof" }.count)"
        )
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
        XCTAssertNotNil(
            watcher.wait { $0.topic == "screenplay/depot/online" && $0.payload == "false" },
            "a clean stop did not say offline")
    }

    private func proofLines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Each proof line's presentation time: one per item shown.
    private func presentations(_ lines: [String]) -> Set<Int64> {
        Set(
            lines.compactMap {
                ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["presented_ns"] as? Int64
            })
    }
}

extension PlayTests {
    /// Something on the broker's port that is no broker: one that answers
    /// the connect with garbage (an HTTP error), one that accepts and never
    /// says a word.
    /// Frames go on throughout; the garbage is a lost connection tried
    /// again with a growing wait; the silent one leaves the box waiting.
    func testABrokerThatSendsGarbageOrNothingNeverTouchesPlayback() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let script = folder + "/fake-broker.py"
        try """
        import socket, sys, threading
        mode = sys.argv[1]
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        print(server.getsockname()[1], flush=True)
        def serve(conn):
            try:
                conn.recv(4096)
                if mode == "garbage":
                    # An HTTP server on the broker's port: to MQTT, a PUBACK of the wrong length.
                    conn.sendall(b"HTTP/1.1 400 Bad Request\\r\\nContent-Type: text/plain\\r\\n\\r\\n" + b"not mqtt " * 20)
                while conn.recv(4096):
                    pass
            except OSError:
                pass
        while True:
            conn, _ = server.accept()
            print("connection", flush=True)
            threading.Thread(target=serve, args=(conn,), daemon=True).start()
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let playlist = try writePlaylist(
            folder, #"{"playlists": {"t": [{"ticker": "Departures", "speed": 200}]}, "default": "t"}"#)
        for mode in ["garbage", "silent"] {
            let fake = try RunningProcess("/usr/bin/python3", [script, mode])
            defer { fake.terminate() }
            guard let portLine = fake.waitForLine(timeout: 10, where: { Int($0) != nil }) else {
                return XCTFail("the fake broker did not start: \(fake.stderr)")
            }
            let p = try CLI.start(
                [
                    "play", "--mqtt", "mqtt://127.0.0.1:\(portLine)", "--box-id", "depot", "--socket",
                    folder + "/\(mode).sock", "--stats", "-", playlist,
                ], environment: boxEnvironment(rig, folder))
            XCTAssertNotNil(
                fake.waitForLine(timeout: 15) { $0 == "connection" }, "\(mode): never connected: \(p.stderr)")
            let seen = p.frames(for: "HEADLESS-1").count
            _ = waitUntil(timeout: 8) { p.frames(for: "HEADLESS-1").count >= seen + 5 }
            let draws = p.frames(for: "HEADLESS-1").dropFirst(seen).map { $0.int("draws") }
            XCTAssertGreaterThanOrEqual(draws.count, 5, "\(mode): \(p.stderr)")
            XCTAssertTrue(draws.allSatisfy { $0 > 10 }, "\(mode): frames slowed: \(draws)")
            if mode == "garbage" {
                XCTAssertTrue(
                    waitUntil(timeout: 10) {
                        p.stderr.contains("MQTT: lost mqtt://127.0.0.1:\(portLine)")
                            && p.stderr.contains("trying again in 2 s")
                    }, "garbage was not a lost connection tried again with a longer wait: \(p.stderr)")
            } else {
                let status = try CLI.run(
                    ["ctl", "status", "--json", "--socket", folder + "/silent.sock"], environment: env(rig))
                let fields = (try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8))) as? [String: Any]
                XCTAssertEqual((fields?["mqtt"] as? [String: Any])?["state"] as? String, "connecting", status.stdout)
            }
            XCTAssertTrue(p.isRunning)
            assertCleanStop(p)
        }
    }
}
