import Documents
import Foundation
import TestSupport
import XCTest

/// A day of signage compressed: 1-second items (colours, images, PDF pages)
/// on three panels of a nested sway, a panel unplugged or plugged every
/// 20 s, the compositor killed and restarted every 40 s, a reload every
/// 30 s (saving the file, then `ctl reload`), `ctl status` every 0.3 s.
/// No crash; RSS within 5 % and file descriptors back where they were after
/// warm-up; every boundary on every connected panel, away from the
/// disruptions, logged exactly once in the proof-of-play file with the
/// clock's item. `SIGNAGE_DAY_SECONDS` lengthens it (default 90); the
/// ten-minute version is the benchmark's `day`.
final class SignageDayTests: XCTestCase {
    /// The day's media and its playlist: 7 items of 1 s, cuts.
    static func writeDay(to folder: String) throws -> (playlist: String, items: Int) {
        for (name, hex) in [("a", 0xc03030), ("b", 0x30c030)] as [(String, Int)] {
            var pixels = [UInt8](repeating: 0, count: 640 * 360 * 3)
            for i in stride(from: 0, to: pixels.count, by: 3) { pixels[i] = UInt8(hex >> 16 & 0xff); pixels[i + 1] = UInt8(hex >> 8 & 0xff); pixels[i + 2] = UInt8(hex & 0xff) }
            try RigImage(width: 640, height: 360, pixels: pixels).writePNG(to: "\(folder)/\(name).png")
        }
        try SampleDeck.writePDF(to: folder + "/deck.pdf")
        let playlist = folder + "/day.json"
        try """
            {"playlists": {"day": [{"file": "a.png"}, {"color": "2040ff"}, {"file": "deck.pdf", "pages": "1-2"},
                                   {"color": "ff8000"}, {"file": "b.png"}, {"color": "20a0a0"}]},
             "default": "day"}
            """.write(toFile: playlist, atomically: true, encoding: .utf8)
        return (playlist, 7)
    }

    func testADayOfSignageInMinutes() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["SIGNAGE_DAY_SECONDS"] ?? "") ?? 90
        let folder = NSTemporaryDirectory() + "unattended-day-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let (playlist, items) = try Self.writeDay(to: folder)
        try CLI.requireBinary()
        let result = try SignageDay.run(
            screenplay: CLI.binary, playlist: playlist, items: items, schedule: SignageDaySchedule(seconds: seconds, restartEvery: 40),
            log: { print("signage day: \($0)") })
        print("signage day: \(result.summary)")
        XCTAssertTrue(result.survived, "play died: \(result.examples)")
        XCTAssertEqual(result.exitStatus, 0, "\(result.examples)")
        XCTAssertGreaterThanOrEqual(result.restarts, 1)
        XCTAssertGreaterThanOrEqual(result.unplugs + result.plugs, 3)
        XCTAssertGreaterThanOrEqual(result.reloads, 2)
        XCTAssertGreaterThan(result.statusAnswered, Int(seconds))
        XCTAssertGreaterThan(result.slotsExpected, Int(seconds))
        XCTAssertEqual(result.slotsLoggedOnce, result.slotsExpected, "proof of play: \(result.summary); \(result.examples)")
        XCTAssertLessThanOrEqual(result.fdsAtEnd, result.fdsAfterWarmUp, "file descriptors leaked: \(result.summary)")
        XCTAssertLessThan(result.rssGrowth, 0.05, result.summary)
    }
}
