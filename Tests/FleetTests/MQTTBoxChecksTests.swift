import Foundation
import Signage
import TestHarness
import XCTest

@testable import Fleet

/// The broker URL, the credentials file and the reply topics `play --mqtt`
/// checks before it connects or answers.
final class MQTTBoxChecksTests: ScreenplayTestCase {
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

    func testCredentialsFile() throws {
        let path = NSTemporaryDirectory() + "mqtt-credentials-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "ops\r\npass word:1\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let (user, password) = try MQTTBox.credentials(path, messages: .standardError)
        XCTAssertEqual(user, "ops")
        XCTAssertEqual(password, "pass word:1")
        try "\nsecret\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try MQTTBox.credentials(path, messages: .standardError)) { error in
            XCTAssertEqual((error as? FleetFailure)?.kind, .dataError)
        }
        XCTAssertThrowsError(try MQTTBox.credentials(path + ".missing", messages: .standardError)) { error in
            XCTAssertEqual((error as? FleetFailure)?.kind, .noInput)
        }
    }

    func testReplyTopicsMayNotHoldWildcards() {
        XCTAssertTrue(MQTTBox.isPublishableTopic("ops/replies/lobby-1"))
        for bad in ["", "ops/+", "ops/#", String(repeating: "a", count: 257)] {
            XCTAssertFalse(MQTTBox.isPublishableTopic(bad), bad)
        }
    }
}
