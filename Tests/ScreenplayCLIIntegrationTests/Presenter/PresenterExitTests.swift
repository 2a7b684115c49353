import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

extension PresenterTests {
    /// SIGTERM while slides are still rendering exits 0, every time. Exit
    /// destroys poppler's C++ globals (its Unicode map and font caches) in
    /// the thread that calls it; a slide rendering on the slides' queue then
    /// read freed memory and the talk ended with signal 11 instead of 0
    /// (once in a fresh-clone run, in `testBeamerNotesPagesSplitForEachPosition`).
    /// Pages full of text at 1920x1080 keep the renderer busy for the
    /// signal, sent as soon as the console connects, in each of 10 talks.
    func testSIGTERMWhileSlidesRenderExitsZero() throws {
        let rig = try startSway([.init(width: 1920, height: 1080), .init(width: 1920, height: 1080)])
        let e = env(rig, builtin: "HEADLESS-1")
        let words = (0..<400).map { "word\($0) ünïcödé €" }.joined(separator: " ")
        var fills: [DeckPage.Fill] = []
        for i in 0..<40 {
            let region = PageRegion(x: Double(i % 8) / 8, y: Double(i / 8) / 5, width: 0.1, height: 0.15)
            fills.append(DeckPage.Fill(region, color: UInt32(0x20_3040 + i * 0x01_0203)))
        }
        let pages = (0..<8).map {
            DeckPage(width: 1920, height: 1080, fills: fills, caption: "page \($0 + 1) \(words)")
        }
        let pdf = dir + "/heavy.pdf"
        try DeckWriter.write(pages, to: pdf)
        for round in 1...10 {
            let p = try CLI.start(["present", pdf, "--stats", "-"], environment: e)
            XCTAssertNotNil(
                p.waitForEvent { $0.event == "connect" && $0.raw["role"] as? String == "console" },
                "round \(round): \(p.stderr)")
            p.terminate()
            let status = p.wait(timeout: 10)
            XCTAssertEqual(status, 0, "round \(round): SIGTERM mid-render must exit 0: \(p.stderr.suffix(1500))")
            if status != 0 { break }
        }
    }
}
