import Foundation
import TestHarness
import XCTest

@testable import ScreenplayCLI

/// `play --mqtt`'s options and the broker URL, read before anything connects.
final class MQTTOptionsTests: ScreenplayTestCase {
    func testBrokerURLs() {
        XCTAssertEqual(MQTTBroker(url: "mqtts://broker.example.com")?.description, "mqtts://broker.example.com:8883")
        XCTAssertEqual(MQTTBroker(url: "mqtt://10.0.0.2")?.description, "mqtt://10.0.0.2:1883")
        XCTAssertEqual(MQTTBroker(url: "MQTT://h:1884/")?.port, 1884)
        XCTAssertEqual(MQTTBroker(url: "mqtts://[::1]:8884")?.host, "::1")
        XCTAssertEqual(MQTTBroker(url: "mqtts://[::1]:8884")?.description, "mqtts://[::1]:8884")
        for bad in [
            "broker.example.com", "http://h", "mqtt://", "mqtt://h:0", "mqtt://h:99999", "mqtt://h:x",
            "mqtt://user:pw@h", "mqtt://h/topic", "mqtts://[::1",
        ] {
            XCTAssertNil(MQTTBroker(url: bad), bad)
        }
    }

    func testOptionsGoWithMQTTAndBoxIDGoesWithEither() throws {
        let command = try PlayCommand.parse([
            "--mqtt", "mqtts://b", "--mqtt-credentials", "/etc/m", "--mqtt-ca-file", "/etc/ca.pem", "--box-id",
            "lobby-1",
            "/srv/signage.json",
        ])
        XCTAssertEqual(command.remote.mqtt, "mqtts://b")
        XCTAssertEqual(command.remote.mqttCredentialsFile, "/etc/m")
        XCTAssertEqual(command.remote.mqttCAFile, "/etc/ca.pem")
        XCTAssertEqual(command.remote.boxID, "lobby-1")
        let failures: [([String], String)] = [
            (["--mqtt", "tcp://b"], "expected mqtts://HOST[:PORT]"),
            (["--mqtt-credentials", "/etc/m"], "'--mqtt-credentials' goes with --mqtt URL"),
            (["--mqtt", "mqtt://b", "--mqtt-ca-file", "/ca"], "'--mqtt-ca-file' is for mqtts://"),
            (["--box-id", "lobby-1"], "applies to a playlist URL (http:// or https://) or with --mqtt"),
            (["--mqtt", "mqtt://b", "--box-id", "lobby/1"], "MQTT topic level"),
            (["--mqtt", "mqtt://b", "--box-id", "all+"], "MQTT topic level"),
        ]
        for (words, message) in failures {
            XCTAssertThrowsError(try PlayCommand.parse(words + ["/srv/signage.json"]), "\(words)") { error in
                XCTAssertTrue("\(error)".contains(message), "\(words): \(error)")
            }
        }
    }

    func testCredentialsFile() throws {
        let path = NSTemporaryDirectory() + "mqtt-credentials-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "ops\r\npass word:1\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let (user, password) = try MQTTBox.credentials(path)
        XCTAssertEqual(user, "ops")
        XCTAssertEqual(password, "pass word:1")
        try "\nsecret\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try MQTTBox.credentials(path)) { error in
            XCTAssertEqual((error as? CommandFailure)?.code, .dataError)
        }
        XCTAssertThrowsError(try MQTTBox.credentials(path + ".missing")) { error in
            XCTAssertEqual((error as? CommandFailure)?.code, .noInput)
        }
    }

    func testReplyTopicsMayNotHoldWildcards() {
        XCTAssertTrue(MQTTBox.isPublishableTopic("ops/replies/lobby-1"))
        for bad in ["", "ops/+", "ops/#", String(repeating: "a", count: 257)] {
            XCTAssertFalse(MQTTBox.isPublishableTopic(bad), bad)
        }
    }
}
