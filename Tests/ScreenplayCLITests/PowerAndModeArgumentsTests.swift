import Screenplay
import ScreenplayCLI
import TestHarness
import XCTest

/// Parsing of `screenplay power` and `present --mode`, and matching a
/// requested mode against a screen's list.
final class PowerAndModeArgumentsTests: ScreenplayTestCase {
    func testPowerParses() throws {
        XCTAssertEqual(
            try ScreenplayCommandLine.parse(["power", "off", "--output", "HDMI-*"]),
            .power(PowerCommand(action: .off, outputPatterns: ["HDMI-*"])))
        XCTAssertEqual(
            try ScreenplayCommandLine.parse(["power", "status", "--json"]),
            .power(PowerCommand(action: .status, json: true)))
        for bad in [["power"], ["power", "dim"], ["power", "on", "extra"], ["power", "on", "--json"]] {
            XCTAssertThrowsError(try ScreenplayCommandLine.parse(bad), "\(bad)") { error in
                XCTAssertTrue(error is UsageError, "\(error)")
            }
        }
    }

    func testModeOptionIsCheckedWhileParsing() throws {
        guard
            case let .present(command) = try ScreenplayCommandLine.parse([
                "present", "--mode", "1280x720@30", "test-card",
            ])
        else { return XCTFail("not present") }
        XCTAssertEqual(command.mode, "1280x720@30")
        for bad in ["1280", "1280x", "x720", "1280x720@", "1280x720@0", "0x720", "1280x720@60@60", "axb"] {
            XCTAssertThrowsError(try ScreenplayCommandLine.parse(["present", "--mode", bad, "test-card"]), bad) {
                error in
                XCTAssertTrue("\(error)".contains("--mode"), "\(error)")
            }
        }
    }

    func testModeRequestMatchesSizeAndClosestRefresh() {
        let modes = [
            ScreenMode(width: 1920, height: 1080, refreshMilliHz: 60000, isPreferred: true),
            ScreenMode(width: 1920, height: 1080, refreshMilliHz: 59940),
            ScreenMode(width: 1280, height: 720, refreshMilliHz: 30000),
            ScreenMode(width: 1280, height: 720, refreshMilliHz: 60000),
        ]
        XCTAssertEqual(
            ScreenModeRequest(parsing: "1920x1080")?.match(in: modes)?.refreshMilliHz, 60000, "the preferred one")
        XCTAssertEqual(ScreenModeRequest(parsing: "1920x1080@59.94Hz")?.match(in: modes)?.refreshMilliHz, 59940)
        XCTAssertEqual(ScreenModeRequest(parsing: "1280x720")?.match(in: modes)?.refreshMilliHz, 60000, "the fastest")
        XCTAssertEqual(ScreenModeRequest(parsing: "1280x720@30")?.match(in: modes)?.refreshMilliHz, 30000)
        XCTAssertNil(ScreenModeRequest(parsing: "1280x720@50")?.match(in: modes), "no refresh within half a hertz")
        XCTAssertNil(ScreenModeRequest(parsing: "800x600")?.match(in: modes))
    }
}
