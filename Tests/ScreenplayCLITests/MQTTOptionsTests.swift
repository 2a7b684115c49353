import Foundation
import TestHarness
import XCTest

@testable import ScreenplayCLI

/// `play --mqtt`'s options, read before anything connects.
final class MQTTOptionsTests: ScreenplayTestCase {
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
}
