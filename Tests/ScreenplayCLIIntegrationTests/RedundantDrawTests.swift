import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// Static content and the presenter draw once per real change (a configure
/// that changes size or scale, new content, a key), never again for nothing:
/// counted from `--stats` (`draws` in `frames` lines, the presenter's `drawn`
/// events) on headless sway.
final class RedundantDrawTests: ScreenplayTestCase {
    /// Draws per output so far, from the `draws` field of the frames lines.
    private func draws(_ p: RunningProcess, _ output: String) -> Int {
        p.frames(for: output).reduce(0) { $0 + max(0, $1.int("draws")) }
    }

    /// Waits until `seconds` more frames lines (one a second) have come for
    /// each output, so every draw so far has been counted.
    private func settle(_ p: RunningProcess, _ outputs: [String], seconds: Int = 2) {
        let marks = outputs.map { p.frames(for: $0).count }
        _ = waitUntil(timeout: Double(seconds) + 5) {
            zip(outputs, marks).allSatisfy { p.frames(for: $0.0).count >= $0.1 + seconds }
        }
    }

    func testStaticContentDrawsOncePerRealChange() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        do {
            let content = ["color", "336699"]
            let p = try CLI.start(["present", "--all"] + content + ["--stats", "-"], environment: env(rig))
            let outputs = ["HEADLESS-1", "HEADLESS-2"]
            for output in outputs {
                XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == output }, p.stderr)
            }
            settle(p, outputs)
            XCTAssertEqual(draws(p, "HEADLESS-1"), 1, "\(content): one draw after connecting, none repeated")
            XCTAssertEqual(draws(p, "HEADLESS-2"), 1, "\(content): one draw after connecting, none repeated")

            try rig.setMode("HEADLESS-2", .init(width: 1024, height: 768))
            XCTAssertNotNil(
                p.waitForEvent { $0.event == "configure" && $0.output == "HEADLESS-2" && $0.int("width") == 1024 })
            settle(p, outputs)
            XCTAssertEqual(draws(p, "HEADLESS-2"), 2, "a new size: one more draw")
            XCTAssertEqual(draws(p, "HEADLESS-1"), 1, "the other output did not change")

            // The same mode again changes nothing.
            try rig.setMode("HEADLESS-2", .init(width: 1024, height: 768))
            settle(p, outputs)
            XCTAssertEqual(draws(p, "HEADLESS-2"), 2, "the same mode set again is no change")

            try rig.setScale("HEADLESS-2", 2)
            XCTAssertNotNil(
                p.waitForEvent { $0.event == "configure" && $0.output == "HEADLESS-2" && $0.int("scale") == 2 })
            settle(p, outputs)
            XCTAssertEqual(draws(p, "HEADLESS-2"), 3, "a new scale: one more draw")
            XCTAssertEqual(draws(p, "HEADLESS-1"), 1, "the other output still did not change")
            assertCleanStop(p)
        }
    }

    func testPresenterDrawsTheAudiencePageOncePerChange() throws {
        let dir = NSTemporaryDirectory() + "screenplay-draws-\(getpid())-\(UUID().uuidString.prefix(8))"
        let deck = try SampleDeck.write(to: dir)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", deck.pdf, "--stats", "-"], environment: e)
        func audienceDraws() -> [String] {
            p.statsEvents.filter { $0.event == "drawn" && $0.output == "HEADLESS-2" }.map {
                $0.raw["content"] as? String ?? ""
            }
        }
        XCTAssertTrue(waitUntil(timeout: 15) { audienceDraws().contains("page 1") }, p.stderr)
        // Long enough for every slide the presenter renders ahead (three pages
        // at three sizes) to have arrived.
        Thread.sleep(forTimeInterval: 2)
        var drawn = audienceDraws()
        XCTAssertEqual(
            drawn.filter { $0 == "page 1" }.count, 1, "page 1 drawn once, not once per slide rendered ahead: \(drawn)")
        // Before the exact size arrives the audience may show a placeholder
        // and another size of page 1, scaled: each is new content.
        XCTAssertEqual(Set(drawn).count, drawn.count, "no content drawn twice: \(drawn)")

        let before = drawn.count
        let r = try runProcess("wtype", ["-s", "120", "-k", "Right"], environment: e, timeout: 5)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(waitUntil(timeout: 5) { audienceDraws().contains("page 2") }, p.stderr)
        Thread.sleep(forTimeInterval: 1.5)
        drawn = audienceDraws()
        XCTAssertEqual(Array(drawn[before...]), ["page 2"], "one key, one draw of the new page: \(drawn)")
        assertCleanStop(p)
    }
}
