import Foundation
import Screenplay
import ScriptedCompositor
import TestHarness
import XCTest

@testable import ScreenplayCLI
@testable import Signage

/// Two identical panels told apart by serial number, which only the
/// output-management head carries: a playlist's panel rule, `--builtin` and
/// `--output` naming the same serial all match the same screen. (Panel
/// rules and `--builtin` once read the wl_output's serial, which is never
/// sent, so a serial pattern matched nothing there.)
final class SerialPatternTests: ScreenplayTestCase {
    @MainActor
    func testAPanelRuleBuiltinAndOutputNamingASerialMatchTheSameScreen() async throws {
        let h = try Harness(builtInPatterns: ["SN-DP2"]) { fixture in
            fixture.offerOutputManagement()
            for (name, x, serial) in [("DP-1", 1280, "SN-DP1"), ("DP-2", 3200, "SN-DP2")] {
                let output = fixture.addOutput(name, x: Int32(x), width: 1920, height: 1080)
                fixture.setHead(
                    output, make: "Dell", model: "U2720Q", serial: serial, modes: [(1920, 1080, 60000)], preferred: 0,
                    current: 0)
            }
        }
        defer { h.close() }
        let dp1 = try XCTUnwrap(h.app.screens.first { $0.name == "DP-1" })
        let dp2 = try XCTUnwrap(h.app.screens.first { $0.name == "DP-2" })

        // --builtin SN-DP2
        XCTAssertEqual(dp2.classification.kind, .builtIn, dp2.classification.reason)
        XCTAssertEqual(dp2.classification.markingPattern, "SN-DP2")
        XCTAssertEqual(dp1.classification.kind, .external, dp1.classification.reason)
        // --output SN-DP2 (and ctl --output)
        XCTAssertTrue(ScreenPattern("SN-DP2").matches(dp2))
        XCTAssertFalse(ScreenPattern("SN-DP2").matches(dp1))
        // A playlist's panel rule
        let json = """
            {"playlists": {"door": [{"color": "ff0000"}], "lobby": [{"color": "0000ff"}]},
             "panels": [{"match": "SN-DP2", "playlist": "door"}], "default": "lobby"}
            """
        let config = try SignageConfigLoader.parse(Data(json.utf8), file: "panels.json", itemSeconds: 10)
        XCTAssertEqual(config.assignment(for: dp2)?.playlist.name, "door", "the panel rule names DP-2's serial")
        XCTAssertEqual(config.assignment(for: dp1)?.playlist.name, "lobby")
    }
}
