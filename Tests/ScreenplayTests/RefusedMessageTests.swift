import Foundation
import Screenplay
import ScriptedCompositor
import TestHarness
import XCTest

/// A message from the compositor that libwayland's client cannot accept
/// drops the connection on the app's side while the compositor runs on.
/// wlroots 0.15 (sway 1.7) sends one when an output goes and another comes
/// at once: it retires a head and gives the next one the same id in the
/// same flush. No real compositor does that on demand; the scripted one
/// does (`scripted_retire_and_reannounce_heads`).
final class RefusedMessageTests: ScreenplayTestCase {
    @MainActor
    private static func harness() throws -> (Harness, dp1: Int32) {
        var dp1: Int32 = -1
        let h = try Harness { fixture in
            fixture.offerOutputManagement()
            dp1 = fixture.addOutput("DP-1", x: 1280, width: 1920, height: 1080)
        }
        let log = h.log
        h.app.onReconnect = { log.events.append("reconnect") }
        h.register()
        return (h, dp1)
    }

    /// The app is not told the compositor went (an app such as `present`
    /// ends on that): it hears why the connection dropped, reconnects at
    /// once with the default `whenCompositorGoes` (stop), and the external
    /// screen gets its scene again.
    @MainActor
    func testAReusedHeadIdReconnectsAtOnceAndTheSceneComesBack() async throws {
        let (h, dp1) = try Self.harness()
        defer { h.close() }
        try await h.settle("DP-1's scene connects") { h.log.events.contains("connect DP-1") }

        h.fixture.retireAndReannounceHeads(dp1)
        try await h.settle("the app reconnects") { h.log.events.contains("reconnect") }
        try await h.settle("DP-1's scene connects again") {
            h.log.events.filter { $0 == "connect DP-1" }.count == 2
        }
        XCTAssertEqual(h.log.lost, [], "a refused message is not a lost compositor")
        XCTAssertEqual(h.log.errors.count, 1, "\(h.log.errors)")
        let said = h.log.errors.first ?? ""
        XCTAssertTrue(said.contains("could not accept"), said)
        XCTAssertTrue(said.contains("reconnecting at once"), said)
        XCTAssertFalse(said.contains("did the compositor exit"), "the compositor did not exit: \(said)")
        XCTAssertEqual(h.fixture.clientCount, 1, "the old connection is closed, the new one open")
        XCTAssertEqual(h.app.screens.map(\.name).sorted(), ["DP-1", "eDP-1"])
        XCTAssertEqual(h.fixture.protocolErrorCount, 0, h.fixture.lastProtocolError)
    }

    /// A compositor that keeps doing it does not hold the app in a loop of
    /// reconnects: the fourth time within a minute is a lost connection,
    /// and says what to report.
    @MainActor
    func testTheFourthRefusalWithinAMinuteIsALostConnection() async throws {
        let (h, dp1) = try Self.harness()
        defer { h.close() }
        for round in 1...3 {
            try await h.settle("DP-1's scene connects (round \(round))") {
                h.log.events.filter { $0 == "connect DP-1" }.count == round
            }
            h.fixture.retireAndReannounceHeads(dp1)
            try await h.settle("reconnect \(round)") { h.log.events.filter { $0 == "reconnect" }.count == round }
        }
        try await h.settle("DP-1's scene connects (round 4)") {
            h.log.events.filter { $0 == "connect DP-1" }.count == 4
        }
        h.fixture.retireAndReannounceHeads(dp1)
        try await h.settle("the loss is reported") { !h.log.lost.isEmpty }
        XCTAssertEqual(h.log.lost.count, 1)
        XCTAssertTrue(h.log.lost[0].contains("4th time within a minute"), h.log.lost[0])
        XCTAssertTrue(h.log.lost[0].contains("WAYLAND_DEBUG=1"), h.log.lost[0])
        XCTAssertEqual(h.log.events.filter { $0 == "reconnect" }.count, 3, "no fourth reconnect under `.stop`")
        XCTAssertEqual(h.log.errors.count, 3)
    }
}
