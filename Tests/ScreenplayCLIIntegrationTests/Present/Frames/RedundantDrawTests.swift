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

    func testTestCardDrawsOncePerSizeChange() throws {
        let rig = try startSway([.init(width: 1280, height: 720)])
        let p = try CLI.start(["present", "--all", "test-card", "--stats", "-"], environment: env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-1" }, p.stderr)
        // Past the second or two in which the card used to redraw its frame count.
        settle(p, ["HEADLESS-1"], seconds: 4)
        XCTAssertEqual(draws(p, "HEADLESS-1"), 1, "one draw for the first configure, none while nothing changes")

        try rig.setMode("HEADLESS-1", .init(width: 1024, height: 768))
        XCTAssertNotNil(
            p.waitForEvent { $0.event == "configure" && $0.output == "HEADLESS-1" && $0.int("width") == 1024 })
        settle(p, ["HEADLESS-1"], seconds: 3)
        XCTAssertEqual(draws(p, "HEADLESS-1"), 2, "a new size: one more draw")

        try rig.setMode("HEADLESS-1", .init(width: 1024, height: 768))
        settle(p, ["HEADLESS-1"], seconds: 3)
        XCTAssertEqual(draws(p, "HEADLESS-1"), 2, "the same mode again is no change: no draw")
        assertCleanStop(p)
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
        // A placeholder ("rendering page 1", or another size of page 1
        // scaled) only once the exact page has been awaited for about 100 ms,
        // and then only one, before the page.
        let placeholders = p.statsEvents.filter {
            $0.event == "drawn" && $0.output == "HEADLESS-2" && ($0.raw["content"] as? String) != "page 1"
        }
        XCTAssertLessThanOrEqual(placeholders.count, 1, "at most one placeholder before page 1: \(drawn)")
        for placeholder in placeholders {
            XCTAssertGreaterThanOrEqual(
                placeholder.int("waited_ms"), 90, "a placeholder only after the page was awaited ~100 ms: \(drawn)")
        }
        XCTAssertEqual(drawn.last, "page 1", "the page comes last: \(drawn)")
        let frameDraws = p.frames(for: "HEADLESS-2").reduce(0) { $0 + max(0, $1.int("draws")) }
        XCTAssertEqual(frameDraws, drawn.count, "every draw of the audience is one drawn event: \(drawn)")

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
