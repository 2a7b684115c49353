import Foundation
import TestHarness
import TestSupport
import XCTest

/// The code follows the committed .swift-format configuration: scripts/lint.sh
/// reports no finding.
final class LintTests: ScreenplayTestCase {
    func testLintScriptFindsNothing() throws {
        let lint = try runProcess(
            PackageCheckout.root + "/scripts/lint.sh", [], timeout: 600, directory: PackageCheckout.root)
        XCTAssertFalse(lint.timedOut, "scripts/lint.sh timed out")
        XCTAssertEqual(
            lint.status, 0,
            "scripts/lint.sh found code that does not follow .swift-format:\n\(lint.stdout)\(lint.stderr)")
    }
}
