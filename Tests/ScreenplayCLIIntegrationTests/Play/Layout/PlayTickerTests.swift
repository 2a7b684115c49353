import Foundation
import TestSupport
import XCTest

/// Ticker items of `screenplay play` on headless sway: the line's steps per
/// frame (the per-frame probe lines), its file re-read between passes, and a
/// line too long for the GPU skipped.
extension PlayTests {
    /// Plays a playlist of one ticker `item` on a 640x120 panel, with a
    /// probe line per frame (`SCREENPLAY_PLAY_PROBE=1`: the ticker's
    /// position, step and line width), once its first frame is shown;
    /// `headlines` is written to `headlines.txt` beside it first.
    func playTicker(_ item: String, headlines: String = "") throws -> (SwayRig, String, RunningProcess) {
        let rig = try startSway([.init(width: 640, height: 120)])
        let folder = try mediaFolder()
        try headlines.write(toFile: folder + "/headlines.txt", atomically: true, encoding: .utf8)
        let playlist = try writePlaylist(folder, #"{"playlists": {"news": [\#(item)]}, "default": "news"}"#)
        var environment = env(rig)
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-1" }, p.stderr)
        return (rig, folder, p)
    }

    /// A ticker moves by exactly speed × refresh interval on every frame
    /// (read from the per-frame probe lines, `SCREENPLAY_PLAY_PROBE=1`) at
    /// 30, 60 and 75 Hz, a frame every refresh; grim sees its ink move left.
    func testTickerMovesTheSameStepEveryRefreshAt30_60And75Hz() throws {
        let (rig, _, p) = try playTicker(#"{"ticker": "Breaking: tickers tick", "speed": 120, "size": 40}"#)
        let black = RGB(hex: 0)
        for hz in [30.0, 60, 75] {
            let mark = p.statsEvents.count
            try rig.setMode("HEADLESS-1", .init(width: 640, height: 120, refreshHz: hz))
            let step = 120 / hz
            // The mode's refresh as the compositor gives it: 30 Hz is 33,333,333 ns.
            func probes() -> [(x: Double, step: Double, ns: Int)] {
                p.statsEvents.dropFirst(mark).filter { $0.event == "probe" && $0.output == "HEADLESS-1" }.compactMap {
                    event in
                    guard let x = event.raw["ticker_x"] as? Double, let stepped = event.raw["ticker_step"] as? Double,
                        abs(stepped - step) < 1e-5
                    else { return nil }
                    return (x, stepped, event.int("ns"))
                }
            }
            let lastProbes = { p.statsEvents.filter { $0.event == "probe" }.suffix(2).map { "\($0.raw)" } }
            guard waitUntil(timeout: 10, { probes().count >= Int(hz * 2) }) else {
                return XCTFail("\(hz) Hz: no probe lines with a step of \(step) px: \(lastProbes()) \(p.stderr)")
            }
            let frames = probes()
            var steps = 0
            for (a, b) in zip(frames, frames.dropFirst()) {
                if b.x > a.x {
                    XCTAssertEqual(b.x, 640, "\(hz) Hz: a new pass starts at the right edge")
                } else {
                    XCTAssertEqual(a.x - b.x, b.step, accuracy: 1e-9, "\(hz) Hz: the same step every frame")
                    steps += 1
                }
            }
            XCTAssertGreaterThanOrEqual(steps, Int(hz * 2) - 2, "\(hz) Hz")
            let intervals = zip(frames, frames.dropFirst()).map { Double($1.ns - $0.ns) / 1e9 }.sorted()
            let median = intervals[intervals.count / 2]
            XCTAssertEqual(median, 1 / hz, accuracy: 0.15 / hz, "\(hz) Hz: a frame every refresh: median \(median) s")

            // Second opinion from grim: the ink moves left between captures
            // (or a new pass began at the right).
            let first = try XCTUnwrap(captureText(rig, "HEADLESS-1") { self.ink($0, background: black) != nil })
            Thread.sleep(forTimeInterval: 0.3)
            let second = try XCTUnwrap(captureText(rig, "HEADLESS-1") { self.ink($0, background: black) != nil })
            let (a, b) = (
                try XCTUnwrap(ink(first, background: black)).box, try XCTUnwrap(ink(second, background: black)).box
            )
            XCTAssertTrue(
                b.x + b.width < a.x + a.width || b.x + b.width >= 630, "\(hz) Hz: ink moved left: \(a) then \(b)")
        }
        XCTAssertFalse(p.stderr.contains("skipped"), p.stderr)
        assertCleanStop(p)
    }

    /// A ticker's file is re-read between passes: an edit shows from the
    /// next pass, and the line on screen never changes within a pass (its
    /// width, in the per-frame probe lines, changes only on a pass's first
    /// frame, at the right edge).
    func testTickerFileIsReadAgainBetweenPasses() throws {
        let (rig, folder, p) = try playTicker(
            #"{"ticker-file": "headlines.txt", "speed": 600, "size": 40}"#, headlines: "short")
        func frames() -> [(x: Double, width: Int)] {
            p.statsEvents.filter { $0.event == "probe" && $0.output == "HEADLESS-1" }.compactMap { event in
                (event.raw["ticker_x"] as? Double).map { ($0, event.int("ticker_width")) }
            }
        }
        XCTAssertTrue(waitUntil(timeout: 10) { frames().count > 30 }, p.stderr)
        let shortWidth = try XCTUnwrap(frames().last?.width)
        try "a much longer headline, line one\nand line two".write(
            toFile: folder + "/headlines.txt", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            waitUntil(timeout: 10) { (frames().last?.width ?? 0) > shortWidth * 3 },
            "the edit never showed: \(p.stderr)")
        let all = frames()
        for (a, b) in zip(all, all.dropFirst()) where a.width != b.width {
            XCTAssertEqual(b.x, 640, "the text changed mid-pass, at x \(b.x)")
        }
        let black = RGB(hex: 0)
        let long = try XCTUnwrap(
            captureText(rig, "HEADLESS-1") { (self.ink($0, background: black)?.box.width ?? 0) > 400 },
            "grim never saw the longer line")
        XCTAssertLessThan(try XCTUnwrap(ink(long, background: black)).box.height, 60, "one line, not two")
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// A ticker line longer than the GPU's largest texture (llvmpipe's
    /// 16384 px; 200 capitals at 100 px are about 19000) is skipped with
    /// its reason before it shows a frame (it is uploaded before its turn),
    /// and the next item comes on: playback goes on.
    func testTickerLongerThanTheLargestTextureIsSkipped() throws {
        let (rig, _, p) = try playTicker(
            #"{"ticker": "\#(String(repeating: "W", count: 200))", "size": 100, "duration": 2}, {"color": "00FF00", "duration": 2}"#
        )
        XCTAssertTrue(
            waitUntil(timeout: 10) { p.stderr.contains("skipped: the line cannot be drawn") },
            "not skipped: \(p.stderr)")
        XCTAssertTrue(p.stderr.contains("GL_MAX_TEXTURE_SIZE"), "the reason names the limit: \(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                (try? rig.capture(output: "HEADLESS-1").pixel(x: 320, y: 60)) == RGB(hex: 0x00ff00)
            },
            "the next item never came on: \(p.stderr)")
        let tickerFrames = p.statsEvents.filter { $0.event == "probe" && $0.raw["ticker_x"] != nil }
        XCTAssertEqual(tickerFrames.count, 0, "the ticker drew frames: \(tickerFrames.map(\.raw))")
        XCTAssertEqual(items(p).map { $0.raw["source"] as? String }, Array(repeating: "#00FF00", count: items(p).count))
        assertCleanStop(p)
    }
}
