import Foundation
import TestHarness
import XCTest

@testable import ScreenplayCLI
@testable import Signage

/// The control protocol, `ctl`'s and `play`'s new options, the log line
/// format and systemd's status line, without a compositor.
final class UnattendedUnitTests: ScreenplayTestCase {
    func parse(_ text: String) -> Result<ControlRequest, ControlError> { ControlRequest.parse(Array(text.utf8)) }

    func reason(_ text: String) -> String? {
        if case let .failure(error) = parse(text) { return error.reason }
        return nil
    }

    func testWellFormedRequestsParse() {
        XCTAssertEqual(try parse(#"{"command": "status"}"#).get(), ControlRequest(command: .status))
        XCTAssertEqual(
            try parse(#"{"command":"next","output":"HDMI-*"}"#).get(), ControlRequest(command: .next, output: "HDMI-*"))
        XCTAssertEqual(
            try parse(#"{"command":"show","item":"menu.pdf#page=2"}"#).get(),
            ControlRequest(command: .show, item: "menu.pdf#page=2"))
        // What ctl sends is what play reads.
        for request in [
            ControlRequest(command: .pause, output: "DP-1"), ControlRequest(command: .show, output: nil, item: "3"),
        ] {
            XCTAssertEqual(try ControlRequest.parse(request.line.dropLast()).get(), request)
        }
    }

    func testBadRequestsGetAOneLineReason() {
        XCTAssertEqual(reason("{not json")?.hasPrefix("malformed JSON"), true)
        XCTAssertEqual(
            reason(String(repeating: "[", count: 100_000))?.hasPrefix("malformed JSON"), true,
            "deep nesting is refused, not a crash")
        XCTAssertEqual(reason("\u{0}\u{1}\u{2}")?.hasPrefix("malformed JSON"), true)
        XCTAssertEqual(reason("[1]")?.hasPrefix("a request is a JSON object"), true)
        XCTAssertEqual(
            reason(#"{"command": "explode"}"#),
            "unknown command \"explode\": expected status, next, previous, pause, resume, reload, show, screenshot, override"
        )
        XCTAssertEqual(reason(#"{"command": 1}"#), "\"command\" is missing or not a string")
        XCTAssertEqual(reason(#"{"command": "show"}"#)?.hasPrefix("show needs \"item\""), true)
        XCTAssertEqual(reason(#"{"command": "next", "item": "2"}"#), "\"item\" belongs to show only")
        XCTAssertEqual(reason(#"{"command": "next", "output": ""}"#), "\"output\" must be a non-empty string")
        XCTAssertEqual(reason(#"{"command": "next", "rm": "-rf"}"#)?.hasPrefix("unknown key \"rm\""), true)
        let long = String(repeating: "x", count: 5000)
        XCTAssertLessThan(
            reason("{\"command\": \"\(long)\"}")?.count ?? .max, 200, "an unknown command is not echoed in full")
        // Replies are one line.
        let reply = ControlReply.error("a\nb")
        XCTAssertEqual(reply.filter { $0 == 0x0A }.count, 1)
        XCTAssertEqual(reply.last, 0x0A)
    }

    func testCtlArguments() throws {
        func ctl(_ line: String) throws(UsageError) -> CtlCommand {
            guard case let .ctl(command) = try ScreenplayCommandLine.parse(line.split(separator: " ").map(String.init))
            else {
                throw UsageError(message: "not ctl", usage: "")
            }
            return command
        }
        XCTAssertEqual(try ctl("ctl status").request, "status")
        XCTAssertEqual(try ctl("ctl status --json").json, true)
        var expected = CtlCommand(request: "show")
        expected.item = "3"
        expected.output = "HDMI-*"
        expected.socketPath = "/run/x.sock"
        XCTAssertEqual(try ctl("ctl show 3 --output HDMI-* --socket /run/x.sock"), expected)
        var shot = CtlCommand(request: "screenshot")
        shot.file = "lobby.png"
        shot.output = "DP-1"
        XCTAssertEqual(try ctl("ctl screenshot lobby.png --output DP-1"), shot)
        for (line, message) in [
            (
                "ctl",
                "missing command: expected one of status, next, previous, pause, resume, reload, show, screenshot, override"
            ),
            (
                "ctl jump",
                "unknown command 'jump': expected one of status, next, previous, pause, resume, reload, show, screenshot, override"
            ),
            ("ctl show", "show needs an item: its position (1 is the first) or its file name"),
            ("ctl next 3", "unexpected argument '3'"),
            ("ctl show 1 2", "unexpected argument '2'"),
            ("ctl screenshot", "screenshot needs the PNG file to write, such as lobby.png"),
            ("ctl screenshot a.png b.png", "unexpected argument 'b.png'"),
        ] {
            XCTAssertThrowsError(try ctl(line), line) { XCTAssertEqual(($0 as? UsageError)?.message, message, line) }
        }
    }

    func testPlayUnattendedOptions() throws {
        func play(_ line: String) throws(UsageError) -> PlayCommand {
            guard case let .play(command) = try ScreenplayCommandLine.parse(line.split(separator: " ").map(String.init))
            else {
                throw UsageError(message: "not play", usage: "")
            }
            return command
        }
        let plain = try play("play x")
        XCTAssertTrue(plain.reconnect, "reconnect is the default for signage")
        XCTAssertEqual(plain.stallGrace, 30)
        XCTAssertNil(plain.socketPath)
        XCTAssertFalse(try play("play --no-reconnect x").reconnect)
        XCTAssertEqual(try play("play --stall-grace 2.5 --socket /tmp/p.sock x").stallGrace, 2.5)
        XCTAssertEqual(try play("play --socket /tmp/p.sock x").socketPath, "/tmp/p.sock")
        let retired =
            "'--reconnect' is gone: play always waits for a compositor that goes away and resumes on the same socket; '--no-reconnect' (exit 69 instead) is the only switch"
        for (line, message) in [
            ("play --stall-grace 0 x", "invalid value '0' for '--stall-grace': expected a positive number of seconds"),
            (
                "play --stall-grace soon x",
                "invalid value 'soon' for '--stall-grace': expected a positive number of seconds"
            ),
            ("play --reconnect x", retired),
            ("play --reconnect=yes x", retired),
            ("play --reconnect --no-reconnect x", retired),
        ] {
            XCTAssertThrowsError(try play(line), line) { XCTAssertEqual(($0 as? UsageError)?.message, message, line) }
        }
        guard
            case let .present(present) = try ScreenplayCommandLine.parse(["present", "--stall-grace", "5", "test-card"])
        else {
            return XCTFail("not present")
        }
        XCTAssertEqual(present.stallGrace, 5)
    }

    /// Under cage (screenplay-kiosk@.service) systemd names cage, play's
    /// parent, in WATCHDOG_PID: play pings then, and for no other process.
    func testWatchdogNamingTheParentCountsOnlyForTheParent() {
        let parent: pid_t = 4242
        func seconds(_ environment: [String: String]) -> Double? {
            ServiceNotifier.watchdogOfParent(environment, parent: parent)
        }
        XCTAssertEqual(seconds(["WATCHDOG_PID": "4242", "WATCHDOG_USEC": "2000000"]), 2)
        XCTAssertNil(seconds(["WATCHDOG_PID": "4243", "WATCHDOG_USEC": "2000000"]), "another process's watchdog")
        XCTAssertNil(seconds(["WATCHDOG_PID": "4242", "WATCHDOG_USEC": "0"]))
        XCTAssertNil(seconds(["WATCHDOG_PID": "4242"]))
        XCTAssertNil(seconds(["WATCHDOG_USEC": "2000000"]), "no WATCHDOG_PID: sd_watchdog_enabled's case, not this")
        XCTAssertNil(seconds(["WATCHDOG_PID": "cage", "WATCHDOG_USEC": "2000000"]))
    }

    func testLogLinesAreOneLineWithTheJournalsPriority() {
        XCTAssertEqual(Log.line("skipped", level: .warning, journal: true), "<4>screenplay: skipped\n")
        XCTAssertEqual(Log.line("failed", level: .error, journal: true), "<3>screenplay: failed\n")
        XCTAssertEqual(Log.line("connected", level: .info, journal: true), "<6>screenplay: connected\n")
        XCTAssertEqual(Log.line("connected", level: .info, journal: false), "screenplay: connected\n")
        XCTAssertEqual(
            Log.line("no screen; the screens are:\n  HDMI-A-1 \"A\"\n  DP-1 \"B\"\n", level: .error, journal: true),
            "<3>screenplay: no screen; the screens are:; HDMI-A-1 \"A\"; DP-1 \"B\"\n")
    }

    func testStatusLine() {
        XCTAssertEqual(ServiceMonitor.statusLine([]), "no panel connected; waiting for one")
        let panels = [
            SignagePanelHealth(output: "HDMI-A-1", showing: "/srv/signage/menu.pdf#page=2", stalledSeconds: nil),
            SignagePanelHealth(output: "DP-1", showing: nil, stalledSeconds: 4.2),
        ]
        XCTAssertEqual(
            ServiceMonitor.statusLine(panels), "2 panels: DP-1 (starting), HDMI-A-1 menu.pdf#page=2; stalled: DP-1")
    }
}
