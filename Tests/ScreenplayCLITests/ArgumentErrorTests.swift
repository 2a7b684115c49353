import Presenter
import Screenplay
import TestHarness
import XCTest

@testable import ScreenplayCLI
@testable import Signage

/// Command lines the parser refuses: each error's one-line message and
/// the usage text it comes with.
extension ArgumentsTests {
    func testErrors() {
        let root = ScreenplayCommandLine.usage
        let retiredDuration =
            "'--duration' is gone from present (it counted minutes, play's counts seconds): give the talk's length as '--talk-minutes MIN'"
        let cases: [(String, String, String)] = [
            // Top level
            ("frobnicate", "unknown subcommand 'frobnicate'", root),
            ("--verbose", "unknown option '--verbose'", root),
            ("--version extra", "unexpected argument 'extra'", root),
            ("help nope", "unknown subcommand 'nope'", root),
            ("help present extra", "unexpected argument 'extra'", root),
            // Unknown options and stray words
            ("outputs --jsn", "unknown option '--jsn'", OutputsCommand.usage),
            ("outputs -j", "unknown option '-j'", OutputsCommand.usage),
            ("outputs extra", "unexpected argument 'extra'", OutputsCommand.usage),
            ("outputs --json=yes", "option '--json' does not take a value", OutputsCommand.usage),
            ("outputs --version", "unknown option '--version'", OutputsCommand.usage),
            ("doctor --builtin", "missing value for option '--builtin'", DoctorCommand.usage),
            ("doctor --builtin --json", "missing value for option '--builtin'", DoctorCommand.usage),
            ("doctor now", "unexpected argument 'now'", DoctorCommand.usage),
            ("demo --out", "missing value for option '--out'", DemoCommand.usage),
            ("demo --out=", "missing value for option '--out'", DemoCommand.usage),
            ("demo --output x", "unknown option '--output'", DemoCommand.usage),
            ("demo x", "unexpected argument 'x'", DemoCommand.usage),
            // present: content
            ("present", "missing content: expected \(PresentContent.kinds)", PresentCommand.usage),
            ("present --fps 30", "missing content: expected \(PresentContent.kinds)", PresentCommand.usage),
            ("present color", "missing value for 'color': expected RRGGBB", PresentCommand.usage),
            ("present color ff880", "invalid color 'ff880': expected RRGGBB or #RRGGBB", PresentCommand.usage),
            ("present color #gg0000", "invalid color '#gg0000': expected RRGGBB or #RRGGBB", PresentCommand.usage),
            ("present color ff88001", "invalid color 'ff88001': expected RRGGBB or #RRGGBB", PresentCommand.usage),
            ("present color +f8800", "invalid color '+f8800': expected RRGGBB or #RRGGBB", PresentCommand.usage),
            ("present color ##ff8800", "invalid color '##ff8800': expected RRGGBB or #RRGGBB", PresentCommand.usage),
            ("present color ff8800 extra", "unexpected argument 'extra'", PresentCommand.usage),
            ("present test-card extra", "unexpected argument 'extra'", PresentCommand.usage),
            ("present a.png b.png", "unexpected argument 'b.png'", PresentCommand.usage),
            (
                "present notes.txt", "unsupported content 'notes.txt': expected \(PresentContent.kinds)",
                PresentCommand.usage
            ),
            (
                "present testcard", "unsupported content 'testcard': expected \(PresentContent.kinds)",
                PresentCommand.usage
            ),
            (
                "present .png", "unsupported content '.png': expected \(PresentContent.kinds)",
                PresentCommand.usage
            ),
            (
                "present dir.png/file", "unsupported content 'dir.png/file': expected \(PresentContent.kinds)",
                PresentCommand.usage
            ),
            ("present -", "unsupported content '-': expected \(PresentContent.kinds)", PresentCommand.usage),
            (
                "present --audio test-card", "'--audio' only applies to video content and to videos on PDF slides",
                PresentCommand.usage
            ),
            ("present --no-loop c.png", "'--no-loop' only applies to video content", PresentCommand.usage),
            // present: options
            ("present --fsp 30 test-card", "unknown option '--fsp'", PresentCommand.usage),
            ("present -x test-card", "unknown option '-x'", PresentCommand.usage),
            ("present --output", "missing value for option '--output'", PresentCommand.usage),
            ("present --output --all test-card", "missing value for option '--output'", PresentCommand.usage),
            ("present --all=1 test-card", "option '--all' does not take a value", PresentCommand.usage),
            ("present --preview=no test-card", "option '--preview' does not take a value", PresentCommand.usage),
            ("present --builtin", "missing value for option '--builtin'", PresentCommand.usage),
            ("present --layer", "missing value for option '--layer'", PresentCommand.usage),
            (
                "present --layer side test-card", "invalid layer 'side': expected overlay, top, bottom or background",
                PresentCommand.usage
            ),
            (
                "present --layer Overlay test-card",
                "invalid layer 'Overlay': expected overlay, top, bottom or background", PresentCommand.usage
            ),
            (
                "present --fps test-card", "invalid value 'test-card' for '--fps': expected a positive integer",
                PresentCommand.usage
            ),
            (
                "present --fps 0 test-card", "invalid value '0' for '--fps': expected a positive integer",
                PresentCommand.usage
            ),
            (
                "present --fps=-30 test-card", "invalid value '-30' for '--fps': expected a positive integer",
                PresentCommand.usage
            ),
            ("present --fps -30 test-card", "missing value for option '--fps'", PresentCommand.usage),
            (
                "present --fps 29.97 test-card", "invalid value '29.97' for '--fps': expected a positive integer",
                PresentCommand.usage
            ),
            (
                "present --fps 99999999999999999999 test-card",
                "invalid value '99999999999999999999' for '--fps': expected a positive integer", PresentCommand.usage
            ),
            ("present --stats", "missing value for option '--stats'", PresentCommand.usage),
            (
                "present --talk-minutes 0 test-card",
                "invalid value '0' for '--talk-minutes': expected a positive number of minutes", PresentCommand.usage
            ),
            (
                "present --stall-grace 0 test-card",
                "invalid value '0' for '--stall-grace': expected a positive number of seconds", PresentCommand.usage
            ),
            (
                "play --stall-grace=inf a",
                "invalid value 'inf' for '--stall-grace': expected a positive number of seconds", PlayCommand.usage
            ),
            (
                "present --talk-minutes abc test-card",
                "invalid value 'abc' for '--talk-minutes': expected a positive number of minutes", PresentCommand.usage
            ),
            (
                "present --talk-minutes=inf test-card",
                "invalid value 'inf' for '--talk-minutes': expected a positive number of minutes", PresentCommand.usage
            ),
            (
                "present --talk-minutes=nan test-card",
                "invalid value 'nan' for '--talk-minutes': expected a positive number of minutes", PresentCommand.usage
            ),
            // The old spelling names the new one, with or without a value, before any other problem.
            ("present --duration 20 talk.pdf", retiredDuration, PresentCommand.usage),
            ("present --duration=20 talk.pdf", retiredDuration, PresentCommand.usage),
            ("present --fps x --duration talk.pdf", retiredDuration, PresentCommand.usage),
            (
                "present -- --duration", "unsupported content '--duration': expected \(PresentContent.kinds)",
                PresentCommand.usage
            ),
            ("present --notes", "missing value for option '--notes'", PresentCommand.usage),
            ("present --password", "missing value for option '--password'", PresentCommand.usage),
            ("present --rehearse=1 test-card", "option '--rehearse' does not take a value", PresentCommand.usage),
            ("present --reconnect=1 test-card", "option '--reconnect' does not take a value", PresentCommand.usage),
            // present: validation
            (
                "present --all --output DP-1 test-card", "'--all' cannot be combined with '--output DP-1'",
                PresentCommand.usage
            ),
            ("present --password pw test-card", "'--password' only applies to PDF content", PresentCommand.usage),
            ("present --password pw slides.png", "'--password' only applies to PDF content", PresentCommand.usage),
            (
                "present --end-time 25:00 talk.pdf",
                "invalid value '25:00' for '--end-time': expected a time of day HH:MM (24-hour clock)",
                PresentCommand.usage
            ),
            (
                "present --end-time 1430 talk.pdf",
                "invalid value '1430' for '--end-time': expected a time of day HH:MM (24-hour clock)",
                PresentCommand.usage
            ),
            (
                "present --last-minutes=-1 talk.pdf",
                "invalid value '-1' for '--last-minutes': expected minutes, 0 or more", PresentCommand.usage
            ),
            (
                "present --notes-position middle talk.pdf",
                "invalid value 'middle' for '--notes-position': expected right, left, top or bottom",
                PresentCommand.usage
            ),
            ("present --end-time 14:30 test-card", "'--end-time' only applies to PDF content", PresentCommand.usage),
            (
                "present --notes-position right slides.png", "'--notes-position' only applies to PDF content",
                PresentCommand.usage
            ),
            (
                "present --talk-minutes 20 --end-time 14:30 talk.pdf",
                "'--talk-minutes' and '--end-time 14:30' both set the countdown: give one", PresentCommand.usage
            ),
        ]
        for (line, message, usage) in cases {
            XCTAssertThrowsError(try parse(line), line) { error in
                guard let error = error as? UsageError else { return XCTFail("\(line): \(error)") }
                XCTAssertEqual(error.message, message, line)
                XCTAssertEqual(error.usage, usage, "usage for: \(line)")
                XCTAssertFalse(error.message.contains("\n"), line)
            }
        }
    }

    func testUsageErrorPresentation() {
        let error = UsageError(message: "unknown option '--x'", usage: "USAGE: y")
        XCTAssertEqual(error.description, "error: unknown option '--x'\n\nUSAGE: y")
    }
}
