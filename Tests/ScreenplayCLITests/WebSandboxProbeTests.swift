import Foundation
import TestHarness
import XCTest

@testable import ScreenplayCLI

/// The line a web item gets when WebKit's sandbox cannot start: bubblewrap's
/// own words, then the fix (the kiosk's web drop-in under its unit, the
/// kernel's setting elsewhere). That a refused bubblewrap produces it is
/// PlayTests.testAPageWhoseSandboxCannotStartIsSkippedWithTheFix and, under
/// the kiosk unit, scripts/kiosk-boot-check.sh.
final class WebSandboxProbeTests: ScreenplayTestCase {
    func testUnderTheKioskUnitItNamesTheSettingsAndTheWebDropIn() {
        let unit = "screenplay-kiosk@signage.service"
        let line = WebSandboxProbe.explained(
            bubblewrapSaid:
                "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.\n",
            status: 1, unit: unit, dropIn: "/usr/share/screenplay/kiosk-web.conf")
        XCTAssertTrue(
            line.hasPrefix("WebKit's sandbox cannot start here (bwrap: No permissions to create new namespace"), line)
        XCTAssertTrue(line.contains("RestrictNamespaces=") && line.contains("SystemCallFilter="), line)
        XCTAssertTrue(
            line.contains(
                "mkdir -p /etc/systemd/system/\(unit).d && ln -s /usr/share/screenplay/kiosk-web.conf "
                    + "/etc/systemd/system/\(unit).d/web.conf && systemctl daemon-reload && systemctl restart \(unit)"),
            line)
        XCTAssertFalse(line.contains("\n"), "one line: \(line)")
    }

    func testOutsideAUnitItNamesTheKernelSetting() {
        let line = WebSandboxProbe.explained(bubblewrapSaid: "", status: 159, unit: nil)
        XCTAssertTrue(line.contains("bubblewrap exited with status 159"), "silent bubblewrap: its status: \(line)")
        XCTAssertTrue(line.contains("user.max_user_namespaces"), line)
        XCTAssertFalse(line.contains("web.conf"), "no unit, no drop-in: \(line)")
    }

    /// This test process may make bubblewrap's namespaces (root, no service
    /// sandbox): the probe runs it for real and finds nothing to say.
    func testWhereBubblewrapStartsThereIsNothingToSay() {
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: WebSandboxProbe.bubblewrap),
            "WPE WebKit's package depends on bubblewrap: without it this test proves nothing")
        XCTAssertNil(WebSandboxProbe.refusal())
    }
}
