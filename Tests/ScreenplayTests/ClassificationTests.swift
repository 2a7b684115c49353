import Screenplay
import TestHarness
import WaylandClient
import XCTest

final class ClassificationTests: ScreenplayTestCase {
    private func output(_ name: String, x: Int = 0, y: Int = 0, description: String = "", connector: Bool = true)
        -> OutputInfo
    {
        var info = OutputInfo(globalName: UInt32(name.hashValue & 0xffff))
        info.name = name
        info.description = description
        info.logicalX = x
        info.logicalY = y
        info.hasConnectorName = connector
        return info
    }

    func testBuiltInConnectorsAreBuiltIn() {
        let kinds = ScreenClassifier().classify([
            output("eDP-1"), output("HDMI-A-1", x: 1920), output("LVDS-1", x: 4000), output("DSI-1", x: 6000),
            output("DP-3", x: 8000),
        ]).map(\.kind)
        XCTAssertEqual(kinds, [.builtIn, .external, .builtIn, .builtIn, .external])
    }

    /// `play`'s rule: a signage box's only screen plays whether it is an
    /// HDMI television at (0,0) (once the "main" screen) or an all-in-one's
    /// eDP panel; only a screen a pattern marks built-in is left alone.
    func testEveryScreenButThoseMarkedByAPatternIsASignageTarget() {
        let rule = ScreenTargets.everyScreenExceptMarkedBuiltIn
        let hdmiAlone = ScreenClassifier().classify([output("HDMI-A-1")])
        XCTAssertEqual(hdmiAlone.map(\.kind), [.main])
        XCTAssertTrue(rule.admits(hdmiAlone[0]).isTarget, rule.admits(hdmiAlone[0]).reason)
        XCTAssertFalse(ScreenTargets.externalScreens.admits(hdmiAlone[0]).isTarget, "present keeps the iOS rule")
        let allInOne = ScreenClassifier().classify([output("eDP-1")])
        XCTAssertEqual(allInOne.map(\.kind), [.builtIn])
        XCTAssertTrue(rule.admits(allInOne[0]).isTarget, rule.admits(allInOne[0]).reason)
        let marked = ScreenClassifier(builtInPatterns: ["HDMI-A-*"]).classify([
            output("HDMI-A-1"), output("DP-1", x: 1920),
        ])
        XCTAssertEqual(marked.map(\.markingPattern), ["HDMI-A-*", nil])
        XCTAssertEqual(marked.map { rule.admits($0).isTarget }, [false, true])
        XCTAssertTrue(rule.admits(marked[0]).reason.contains("marked built-in by the pattern \"HDMI-A-*\""))
        XCTAssertEqual(marked.map { ScreenTargets.everyScreen.admits($0).isTarget }, [true, true])
    }

    func testWithoutBuiltInTheScreenAtOriginIsMain() {
        let kinds = ScreenClassifier().classify([output("HDMI-A-1", x: 1920), output("DP-1", x: 0)]).map(\.kind)
        XCTAssertEqual(kinds, [.external, .main])
        let none = ScreenClassifier().classify([output("HDMI-A-1", x: 100), output("DP-1", x: 2000)]).map(\.kind)
        XCTAssertEqual(none, [.main, .external], "none at (0,0): the first announced is main")
    }

    func testPatternsMarkBuiltInByNameDescriptionOrGlob() {
        let c = ScreenClassifier(builtInPatterns: ["HEADLESS-1", "*Panel*"])
        let kinds = c.classify([
            output("HEADLESS-1", x: 1280), output("HEADLESS-2"), output("DP-1", x: 50, description: "Acme Panel 13"),
        ]).map(\.kind)
        XCTAssertEqual(kinds, [.builtIn, .external, .builtIn])
        XCTAssertEqual(
            ScreenClassifier.environmentPatterns(["SCREENPLAY_BUILTIN": "eDP-*, HDMI-A-2"]), ["eDP-*", "HDMI-A-2"])
    }

    func testPatternsIgnoreCaseAsOutputDoes() {
        let kinds = ScreenClassifier(builtInPatterns: ["headless-1", "*PANEL*"]).classify([
            output("HEADLESS-1", x: 1280), output("HEADLESS-2"), output("DP-1", x: 50, description: "Acme Panel 13"),
        ]).map(\.kind)
        XCTAssertEqual(kinds, [.builtIn, .external, .builtIn])
    }

    func testMadeUpNamesAreNotTakenForConnectors() {
        // An old compositor with no connector names: "eDP panel" is a model name, not a connector.
        let kinds = ScreenClassifier().classify([
            output("eDP panel", connector: false), output("Acme TV", x: 1920, connector: false),
        ]).map(\.kind)
        XCTAssertEqual(kinds, [.main, .external])
    }

    func testReasonsSayWhy() {
        let c = ScreenClassifier().classify([output("eDP-1"), output("HDMI-A-1", x: 1920)])
        XCTAssertTrue(c[0].reason.contains("eDP"))
        XCTAssertTrue(c[1].isExternal)
    }
}

final class RegistrationStackTests: ScreenplayTestCase {
    func testMostRecentWinsAndEarlierTakesOver() {
        var s = RegistrationStack()
        XCTAssertNil(s.presented)
        s.register(1)
        XCTAssertEqual(s.presented, 1)
        s.register(2)
        XCTAssertEqual(s.presented, 2)
        s.unregister(2)
        XCTAssertEqual(s.presented, 1)
        s.unregister(1)
        XCTAssertNil(s.presented)
    }

    func testDisabledTopShowsNothingAndKeepsItsPlace() {
        var s = RegistrationStack()
        s.register(1)
        s.register(2)
        s.setEnabled(2, false)
        XCTAssertNil(s.presented, "disabling means stop showing, not show older content")
        s.setEnabled(2, true)
        XCTAssertEqual(s.presented, 2)
        s.setEnabled(1, false)
        s.unregister(2)
        XCTAssertNil(s.presented, "the earlier one takes over in its own state")
    }
}
