import Foundation
import TestHarness
import XCTest

@testable import Signage

/// An override without a player: its `--for` durations and what each kind
/// of entry resolves to, or the refusal that names what is wrong.
final class OverrideEntryTests: ScreenplayTestCase {
    func testDurationsAreParsedStrictly() {
        let good: [(String, Double)] = [
            ("90s", 90), ("20m", 1200), ("1h", 3600), ("1h30m", 5400), ("1h30m15s", 5415), ("2m5s", 125), ("0h1s", 1),
        ]
        for (text, seconds) in good { XCTAssertEqual(OverrideDuration.parse(text), seconds, text) }
        for text in [
            "", "20", "m", "1m1h", "1h1h", "1.5h", "-5m", "5 m", "5M", "0s", "0h0m", "1d", "h30m", "9999999h", "٣m",
        ] {
            XCTAssertNil(OverrideDuration.parse(text), text)
        }
        XCTAssertEqual(OverrideDuration.format(5400), "1h30m")
        XCTAssertEqual(OverrideDuration.format(3), "3s")
    }

    func testWhatAnOverrideShows() throws {
        let config = SignageConfig(
            playlists: [
                "fire": Playlist(name: "fire", items: [PlayItem(source: .color(.white), duration: 5, transition: 0)])
            ],
            panels: [], defaultPlaylist: "fire", sync: true, source: "/srv/signage.json")
        func resolve(_ kind: OverrideEntry.Kind, _ what: String) -> Result<OverrideContent, ControlError> {
            OverrideContent.resolve(OverrideEntry(kind: kind, what: what, since: 0), config: config, itemSeconds: 10)
        }
        XCTAssertEqual(try resolve(.playlist, "fire").get().items.count, 1)
        guard case let .text(text) = try resolve(.text, "FIRE DRILL").get().items.first?.source else {
            return XCTFail("a text item")
        }
        XCTAssertEqual(text.background, OverrideContent.textBackground)
        XCTAssertEqual(text.color, .white)
        for (kind, what, reason) in [
            (OverrideEntry.Kind.playlist, "nosuch", "no playlist 'nosuch' in /srv/signage.json (its playlists: fire)"),
            (.file, "/nonexistent/x.png", "no such file: /nonexistent/x.png"),
            (.file, "/tmp", "no such file: /tmp"),
            (.file, "x.png", "must be an absolute path"),
        ] {
            guard case let .failure(error) = resolve(kind, what) else { return XCTFail("\(what) was taken") }
            XCTAssertTrue(error.reason.contains(reason), "\(what): \(error.reason)")
        }
    }
}
