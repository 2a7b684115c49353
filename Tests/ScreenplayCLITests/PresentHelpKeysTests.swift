import TestHarness
import XCTest

@testable import Presenter
@testable import ScreenplayCLI

/// `present --help` (and so the man page) lists every key the presenter
/// knows, from the presenter's own table.
final class PresentHelpKeysTests: ScreenplayTestCase {
    func testPresentHelpListsEveryKeyRow() {
        XCTAssertFalse(PresenterKeyNames.rows.isEmpty)
        for row in PresenterKeyNames.rows {
            XCTAssertTrue(PresentCommand.usage.contains(row.does), "present --help lacks \(row.keys)")
        }
    }
}
