import TestHarness
import XCTest

@testable import Presenter

/// The presenter's key list (help, man page, the console's `?`) and a
/// speaker's own bindings (`--keys FILE`, presenter.conf).
final class PresenterKeyMapTests: ScreenplayTestCase {
    /// Each row's keys do what the row says, and every action a key can
    /// reach outside the overview has a row: the list cannot drift from
    /// the keys.
    func testKeyListSaysWhatTheKeysDo() {
        for row in PresenterKeyNames.rows {
            for press in row.presses {
                XCTAssertEqual(
                    PresenterKeys.action(keysym: press.keysym, text: "", shift: press.shift), row.action,
                    "\(row.keys): \(press.keysym)\(press.shift ? " with Shift" : "")")
            }
        }
        let listed = PresenterKeyNames.rows.map { "\($0.action)" }
        let named = PresenterKeyNames.actions.map { "\($0.action)" }
        // Digits are typed, not bound; rows move only in the overview (its footer says so).
        let all: [PresenterAction] = [
            .next, .previous, .first, .last, .nextSlide, .previousSlide, .toggleOverview, .enter, .toggleBlack,
            .toggleWhite, .toggleFreeze, .togglePointer, .toggleSpotlight, .togglePen, .toggleHighlighter,
            .toggleEraser, .clearDrawing, .clearAllDrawings, .swapScreens, .toggleTimer, .resetTimer,
            .startFromBeginning, .startHere, .toggleHelp, .editNotes, .quit,
        ]
        for action in all {
            XCTAssertTrue(listed.contains("\(action)"), "\(action) has no row in the key list")
            XCTAssertTrue(named.contains("\(action)"), "\(action) has no name for bindings files")
        }
        XCTAssertEqual(Set(PresenterKeyNames.actions.map(\.name)).count, PresenterKeyNames.actions.count)
    }

    func testBindingsOverTheDefaults() throws {
        let map = try PresenterKeyMap(
            parsing: """
                # a speaker's keys
                bind x next
                bind S+x   previous   # with Shift
                bind C+q quit
                unbind F5
                bind Next blank

                bind question showHelp
                """, path: "presenter.conf")
        func action(_ keysym: String, shift: Bool = false, control: Bool = false) -> PresenterAction? {
            map.action(for: KeyChord(keysym: keysym, shift: shift, control: control), text: "", overview: false)
        }
        XCTAssertEqual(action("x"), .next)
        XCTAssertEqual(action("X", shift: true), .previous, "xkb says X with Shift held")
        XCTAssertEqual(action("q", control: true), .quit)
        XCTAssertNil(action("F5"), "unbound")
        XCTAssertEqual(action("F5", shift: true), .startHere, "Shift+F5 is another key")
        XCTAssertEqual(action("Next"), .toggleBlack, "pdfpc's name 'blank'")
        XCTAssertEqual(action("Right"), .next, "the defaults stay")
        XCTAssertEqual(
            map.action(for: KeyChord(keysym: "Escape"), text: "", overview: true), .toggleOverview,
            "the overview's own keys stay")
        XCTAssertEqual(
            KeyChord(parsing: "S+C+A+Prior"), KeyChord(keysym: "Prior", shift: true, control: true, alt: true))
        XCTAssertEqual(KeyChord(parsing: "+")?.keysym, "plus")
        XCTAssertEqual(KeyChord(parsing: "C++"), KeyChord(keysym: "plus", control: true))
    }

    /// A bad line names the file, the line and what to write instead.
    func testBadLinesAreNamedByLine() {
        for (text, line, said) in [
            ("bind x nxt", 1, "unknown action 'nxt'; one of: next, previous"),
            ("\n\nbind x", 3, "expected 'bind KEY ACTION'"),
            ("# ok\nbind X+a next", 2, "'X+a' is no key"),
            ("unbind", 1, "expected 'unbind KEY'"),
            ("mouse 1 next", 1, "mouse bindings are not read yet"),
            ("bnid x next", 1, "unknown 'bnid'"),
            ("bind x next\nbind S+ next", 2, "'S+' is no key"),
        ] {
            XCTAssertThrowsError(try PresenterKeyMap(parsing: text, path: "/home/a/presenter.conf")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("/home/a/presenter.conf:\(line): "), message)
                XCTAssertTrue(message.contains(said), message)
            }
        }
    }

    func testDefaultPathFollowsXDGConfigHome() {
        XCTAssertEqual(
            PresenterKeyMap.defaultPath(environment: ["XDG_CONFIG_HOME": "/cfg"]), "/cfg/screenplay/presenter.conf")
        XCTAssertTrue(PresenterKeyMap.defaultPath(environment: [:]).hasSuffix("/.config/screenplay/presenter.conf"))
    }
}
