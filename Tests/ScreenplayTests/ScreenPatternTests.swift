import TestHarness
import WaylandClient
import XCTest

@testable import Screenplay

/// The one pattern matcher behind `--output`, `--builtin` and
/// `SCREENPLAY_BUILTIN`: exact or glob, case-insensitive, over name,
/// description, make, model and serial.
final class ScreenPatternTests: ScreenplayTestCase {
    func testOutputMatching() {
        let name = "HDMI-A-1"
        let description = "Dell Inc. DELL U2720Q [DP] (HDMI-A-1)"
        let cases: [(String, Bool)] = [
            ("HDMI-A-1", true),  // exact name
            ("hdmi-a-1", true),  // case-insensitive
            (description, true),  // exact description despite '[' in it
            ("HDMI-*", true),
            ("HDMI-A-?", true),
            ("HDMI-A-[0-9]", true),
            ("HDMI-A-[!1]", false),
            ("HDMI-A-[^1]", false),
            ("HDMI-A-[23]", false),
            ("*U2720Q*", true),  // glob on description
            ("Dell*", true),
            ("dell inc.*", true),
            ("*", true),
            ("DP-*", false),
            ("HDMI-A", false),  // globs are anchored
            ("HDMI-A-1?", false),
            ("*[DP]*", true),  // class matches the 'D' in "Dell"
            ("*\\[DP\\]*", true),  // escaped brackets match literally
            ("*\\[XX\\]*", false),
            ("eDP-1", false),
            ("", false),
        ]
        for (pattern, expected) in cases {
            XCTAssertEqual(ScreenPattern(pattern).matches(name: name, description: description), expected, pattern)
        }
    }

    func testGlobDetails() {
        func glob(_ pattern: String, _ text: String) -> Bool {
            ScreenPattern.globMatches(pattern: Array(pattern), text: Array(text))
        }
        let cases: [(String, String, Bool)] = [
            ("", "", true), ("*", "", true), ("**", "abc", true), ("?", "", false),
            ("a*b*c", "axxbyyc", true), ("a*b*c", "axxbyy", false), ("*a", "banana", true),
            ("[]]", "]", true), ("[!]]", "a", true), ("[!]]", "]", false),
            ("[a-c]x", "bx", true), ("[a-c]x", "dx", false), ("[a-]", "-", true),
            ("[abc", "[abc", true), ("[abc", "a", false),
            ("\\*", "*", true), ("\\*", "a", false), ("a\\", "a\\", true),
            (String(repeating: "*a", count: 20) + "b", String(repeating: "a", count: 60), false),
        ]
        for (pattern, text, expected) in cases {
            XCTAssertEqual(glob(pattern, text), expected, "\(pattern) vs \(text)")
        }
    }

    func testMakeModelAndSerialMatchWhenPresent() {
        var info = OutputInfo(globalName: 7)
        info.name = "DP-2"
        info.description = "Dell Inc. DELL U2720Q (DP-2)"
        info.make = "Dell Inc."
        info.model = "DELL U2720Q"
        info.serial = "7XK9Q23"
        for pattern in ["dell inc.", "DELL U27*", "7xk9q23", "7XK9Q2?", "dp-2"] {
            XCTAssertTrue(ScreenPattern(pattern).matches(info), pattern)
        }
        for pattern in ["HP*", "7XK9Q2", "Q23"] {
            XCTAssertFalse(ScreenPattern(pattern).matches(info), pattern)
        }
        info.serial = nil
        info.make = ""
        XCTAssertFalse(ScreenPattern("7XK9Q23").matches(info), "no serial sent: nothing to match")
        XCTAssertFalse(ScreenPattern("").matches(info), "an empty pattern names no empty field")
    }
}
