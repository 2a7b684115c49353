import Foundation
import TestHarness
import XCTest

@testable import Signage

/// The hint a refused connection's log line carries: it names the kiosk
/// unit's setting and the command that enables its network drop-in. That a
/// real sandbox produces it is scripts/kiosk-boot-check.sh (systemd in a
/// container); here, the parts that need no systemd.
final class NetworkSandboxTests: ScreenplayTestCase {
    func testTheUnitIsReadFromTheControlGroupPath() {
        let kiosk = "screenplay-kiosk@signage.service"
        XCTAssertEqual(
            NetworkSandbox.unitName(cgroups: "0::/system.slice/system-screenplay\\x2dkiosk.slice/\(kiosk)\n"), kiosk)
        // cgroup v1 with systemd's own hierarchy (the hybrid layout).
        XCTAssertEqual(
            NetworkSandbox.unitName(
                cgroups: "9:name=systemd:/system.slice/system-screenplay\\x2dkiosk.slice/\(kiosk)\n1:cpu:/\n0::/\n"),
            kiosk)
        XCTAssertNil(NetworkSandbox.unitName(cgroups: "0::/user.slice/user-1000.slice/session-3.scope\n"))
        XCTAssertNil(NetworkSandbox.unitName(cgroups: nil))
    }

    func testARefusedSocketNamesTheSettingAndTheCommandThatChangesIt() {
        let unit = "screenplay-kiosk@signage.service"
        let families = NetworkSandbox.addressFamiliesHint(
            unit: unit, dropIn: "/usr/share/screenplay/kiosk-network.conf")
        XCTAssertTrue(families.contains("RestrictAddressFamilies="), families)
        XCTAssertTrue(
            families.contains(
                "mkdir -p /etc/systemd/system/\(unit).d && ln -s /usr/share/screenplay/kiosk-network.conf "
                    + "/etc/systemd/system/\(unit).d/network.conf && systemctl daemon-reload && systemctl restart \(unit)"
            ), families)
        let deny = NetworkSandbox.addressDenyHint(unit: nil, dropIn: "/usr/share/screenplay/kiosk-network.conf")
        XCTAssertTrue(deny.contains("IPAddressDeny=") && deny.contains("IPAddressAllow="), deny)
        XCTAssertTrue(deny.contains("screenplay-kiosk@USER.service"), "outside a unit it names the template: \(deny)")
        XCTAssertNotNil(NetworkSandbox.hint(error: EAFNOSUPPORT))
        XCTAssertTrue(NetworkSandbox.hint(error: EPERM)?.contains("IPAddressDeny=") == true)
    }

    /// The probe opens a socket and reads the answer: this test process may
    /// open IP sockets, so a connection refused for another reason (nothing
    /// listens, a timeout) gets no sandbox hint.
    func testWithoutASandboxThereIsNoHint() {
        XCTAssertTrue(NetworkSandbox.mayOpenIPSockets())
        XCTAssertNil(NetworkSandbox.hint(error: ECONNREFUSED))
        XCTAssertNil(NetworkSandbox.hint(error: nil))
        XCTAssertEqual(NetworkSandbox.explained("Couldn't connect", error: ETIMEDOUT), "Couldn't connect")
    }
}
