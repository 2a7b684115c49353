import TestHarness
import TestSupport
import XCTest

/// The wall-sync measure judges only pictures every tile reached: a tile a
/// refresh behind at the window's edges did not skip the edge pictures,
/// and a picture a tile skipped between two it showed is counted.
final class WallSyncTests: ScreenplayTestCase {
    private let tiles: Set<String> = ["A", "B"]
    private let refreshNs: UInt64 = 16_666_667

    /// Pictures `serials` on tile A at every other refresh, and on tile B
    /// `lag` refreshes later, leaving out those in `skipped` on B.
    private func lines(_ serials: ClosedRange<Int>, bLag lag: UInt64, bSkips skipped: Set<Int> = [])
        -> [(tile: String, serial: Int, shownNs: UInt64)]
    {
        serials.flatMap { serial -> [(tile: String, serial: Int, shownNs: UInt64)] in
            let shown = UInt64(serial) * 2 * refreshNs
            var both = [(tile: "A", serial: serial, shownNs: shown)]
            if !skipped.contains(serial) { both.append((tile: "B", serial: serial, shownNs: shown + lag * refreshNs)) }
            return both
        }
    }

    func testATileBehindAtTheWindowsEdgesSkipsNothing() {
        // The window opened after B showed 9 and 10 and before A did; it
        // closed after A showed 59 and 60 and before B did (B a refresh
        // behind from 58 on).
        var pictures = lines(11...57, bLag: 0)
        for serial in [9, 10, 58, 59, 60] {
            pictures.append((tile: "A", serial: serial, shownNs: UInt64(serial) * 2 * refreshNs))
        }
        pictures.append((tile: "B", serial: 58, shownNs: 58 * 2 * refreshNs + refreshNs))
        let sync = WallSync(pictures: pictures, tiles: tiles, refreshHz: 60)
        XCTAssertEqual(sync.onSomeTiles, 0, "\(sync)")
        XCTAssertEqual(sync.onEveryTile, 46, "\(sync)")
        XCTAssertEqual(sync.withinShare, 1, "\(sync)")
    }

    func testAPictureSkippedBetweenTwoShownIsCounted() {
        let sync = WallSync(pictures: lines(1...60, bLag: 0, bSkips: [30, 41]), tiles: tiles, refreshHz: 60)
        XCTAssertEqual(sync.onSomeTiles, 2, "\(sync)")
        XCTAssertEqual(sync.onEveryTile, 56, "\(sync)")
    }

    func testTwoRefreshesApartIsCounted() {
        let sync = WallSync(pictures: lines(1...40, bLag: 2), tiles: tiles, refreshHz: 60)
        XCTAssertEqual(sync.twoOrMoreApart, sync.onEveryTile, "\(sync)")
        XCTAssertEqual(sync.withinShare, 0, "\(sync)")
    }

    func testATileThatShowedNothingGivesNoVerdict() {
        let sync = WallSync(
            pictures: lines(1...40, bLag: 0).filter { $0.tile == "A" }, tiles: tiles, refreshHz: 60)
        XCTAssertEqual(sync.onEveryTile, 0, "\(sync)")
        XCTAssertEqual(sync.withinShare, 0, "\(sync)")
    }
}
