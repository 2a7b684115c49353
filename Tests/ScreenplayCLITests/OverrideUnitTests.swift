import Foundation
import TestHarness
import XCTest

@testable import ScreenplayCLI
@testable import Signage

/// `ctl override` without a compositor: the command line and the request
/// on the socket (durations, what an override resolves to and the state
/// file are SignageTests' OverrideEntryTests and OverrideStoreTests).
final class OverrideUnitTests: ScreenplayTestCase {
    func ctl(_ words: [String]) throws(UsageError) -> CtlCommand {
        guard case let .ctl(command) = try ScreenplayCommandLine.parse(["ctl"] + words) else {
            throw UsageError(message: "not ctl", usage: "")
        }
        return command
    }

    func testCtlOverrideArguments() throws {
        XCTAssertEqual(
            try ctl(["override", "--text", "FIRE DRILL", "--for", "20m"]).override,
            .start(what: nil, text: "FIRE DRILL", seconds: 1200))
        XCTAssertEqual(
            try ctl(["override", "--text", #"A\nB"#]).override, .start(what: nil, text: "A\nB", seconds: nil))
        XCTAssertEqual(
            try ctl(["override", "fire-drill"]).override, .start(what: "fire-drill", text: nil, seconds: nil))
        XCTAssertEqual(
            try ctl(["override", "/srv/a/../b.png", "--output", "HDMI-*"]).override,
            .start(what: "/srv/b.png", text: nil, seconds: nil))
        let relative = try ctl(["override", "media/closed.png"]).override
        XCTAssertEqual(
            relative,
            .start(what: FileManager.default.currentDirectoryPath + "/media/closed.png", text: nil, seconds: nil),
            "a path is made absolute: play runs in another folder")
        XCTAssertEqual(try ctl(["override", "--clear", "--output", "DP-1"]).override, .clear)
        XCTAssertEqual(try ctl(["override", "--clear", "--output", "DP-1"]).output, "DP-1")
        for (words, message) in [
            (["override"], "override needs what to show"),
            (["override", "--text", " "], "--text needs the message"),
            (["override", "a", "b"], "unexpected argument 'b'"),
            (["override", "a", "--text", "b"], "not both"),
            (["override", "--text", "x", "--for", "20"], "--for '20' is not a duration"),
            (["override", "--text", "x", "--for", "1m30"], "such as 90s, 20m, 1h or 1h30m"),
            (["override", "--clear", "--for", "1m"], "override --clear takes no item"),
            (["override", "--clear", "x"], "override --clear takes no item"),
            (["status", "--text", "x"], "--text belongs to override only"),
            (["next", "--clear"], "--clear belongs to override only"),
        ] {
            XCTAssertThrowsError(try ctl(words), "\(words)") {
                let got = ($0 as? UsageError)?.message ?? ""
                XCTAssertTrue(got.contains(message), "\(words): \(got)")
            }
        }
    }

    func testOverrideRequestsOnTheSocket() {
        func parse(_ text: String) -> Result<ControlRequest, ControlError> { ControlRequest.parse(Array(text.utf8)) }
        var expected = ControlRequest(command: .override, output: "HDMI-*")
        expected.override = .start(what: "fire", text: nil, seconds: 1200)
        XCTAssertEqual(
            try parse(#"{"command":"override","what":"fire","seconds":1200,"output":"HDMI-*"}"#).get(), expected)
        XCTAssertEqual(try ControlRequest.parse(expected.line.dropLast()).get(), expected, "what ctl sends, play reads")
        var clear = ControlRequest(command: .override)
        clear.override = .clear
        XCTAssertEqual(try ControlRequest.parse(clear.line.dropLast()).get(), clear)
        for (line, reason) in [
            (#"{"command":"override"}"#, "override needs either \"what\""),
            (#"{"command":"override","what":"a","text":"b"}"#, "override needs either \"what\""),
            (#"{"command":"override","text":""}"#, "\"text\" must be a non-empty string"),
            (#"{"command":"override","text":"x","seconds":true}"#, "\"seconds\" must be a positive number"),
            (#"{"command":"override","text":"x","seconds":-1}"#, "\"seconds\" must be a positive number"),
            (#"{"command":"override","clear":false}"#, "\"clear\" must be true"),
            (#"{"command":"override","clear":true,"text":"x"}"#, "\"clear\" goes alone"),
            (#"{"command":"next","clear":true}"#, "\"clear\" belongs to override only"),
        ] {
            guard case let .failure(error) = parse(line) else { return XCTFail("\(line) was taken") }
            XCTAssertTrue(error.reason.hasPrefix(reason), "\(line): \(error.reason)")
        }
    }
}
