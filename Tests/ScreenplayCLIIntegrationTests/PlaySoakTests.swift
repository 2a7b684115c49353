import Documents
import Foundation
import TestSupport
import XCTest

/// Unattended means flat: minutes of fast switching (images, colours and
/// PDF pages, with crossfades) on two panels, and RSS and open file
/// descriptors at the end are where they were after the first minute.
/// `PLAY_SOAK_SECONDS` lengthens it (default 200 s).
final class PlaySoakTests: XCTestCase {
    func testMemoryAndFileDescriptorsStayFlatWhileSwitching() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["PLAY_SOAK_SECONDS"] ?? "") ?? 200
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 640, height: 360), .init(width: 480, height: 270),
        ])
        let folder = NSTemporaryDirectory() + "screenplay-soak-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        for (name, hex) in [("a", 0xc03030), ("b", 0x30c030)] as [(String, Int)] {
            var pixels = [UInt8](repeating: 0, count: 800 * 450 * 3)
            for i in stride(from: 0, to: pixels.count, by: 3) {
                pixels[i] = UInt8(hex >> 16 & 0xff); pixels[i + 1] = UInt8(hex >> 8 & 0xff);
                pixels[i + 2] = UInt8(hex & 0xff)
            }
            try RigImage(width: 800, height: 450, pixels: pixels).writePNG(to: "\(folder)/\(name).png")
        }
        try SampleDeck.writePDF(to: folder + "/deck.pdf")
        try """
        {"playlists": {"s": [{"file": "a.png"}, {"color": "2040ff"}, {"file": "b.png"}, {"file": "deck.pdf", "pages": "1-2"}]},
         "default": "s", "transition": {"seconds": 0.05}}
        """.write(toFile: folder + "/s.json", atomically: true, encoding: .utf8)
        let environment = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(
            ["play", folder + "/s.json", "--duration", "0.15", "--stats", "-"], environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        Thread.sleep(forTimeInterval: 60)
        // A page being rendered holds its PDF open for a moment: the
        // fewest of a few samples is the count at rest.
        func fds() -> Int {
            (0..<5).map { _ in
                Thread.sleep(forTimeInterval: 0.05)
                return ProcessUsage.openFileDescriptors(p.pid)
            }.min() ?? -1
        }
        let fdsBefore = fds()
        let rssBefore = ProcessUsage.residentKiB(p.pid)
        let itemsBefore = p.statsEvents.filter { $0.event == "item" }.count
        Thread.sleep(forTimeInterval: max(0, seconds - 60))
        let fdsAfter = fds()
        let rssAfter = ProcessUsage.residentKiB(p.pid)
        let switches = p.statsEvents.filter { $0.event == "item" }.count - itemsBefore
        print(
            "play soak: \(switches) switches after the first minute, fds \(fdsBefore) -> \(fdsAfter), RSS \(rssBefore) -> \(rssAfter) KiB"
        )
        XCTAssertTrue(p.isRunning, p.stderr)
        XCTAssertGreaterThan(switches, Int((seconds - 60) / 0.15), "both panels kept switching")
        XCTAssertEqual(fdsAfter, fdsBefore, "file descriptors leaked")
        let growth = Double(rssAfter - rssBefore) / Double(rssBefore)
        XCTAssertLessThan(growth, 0.05, "RSS grew \(Int(growth * 100)) % (\(rssBefore) -> \(rssAfter) KiB)")
        assertCleanStop(p)
    }
}
