import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// Memory stays flat while scenes run for minutes, in Screenplay and in the
/// compositor: an animated shader, a static picture, the presenter, a
/// playlist (a half-second image, a colour and a 3 s video, crossfading)
/// and a looping video run side by side on one headless sway for `MEMORY_SOAK_SECONDS` (120 by
/// default, so the suite fits in 20 minutes; 180 until it had to; the
/// bench's long run takes 30 minutes), and after a warm-up of a quarter of
/// that (at most 40 s) none may grow 200 KiB from each third of the time to
/// the next (growth all along, what 90 s of RSS can resolve; the 30-minute
/// soak holds them to 1 KiB per minute). An animated
/// scene once grew 13 KiB/s here (presentation feedback that sway never
/// answers piled up on both sides) and passed every short test.
///
/// Beside them, a second `play` switches fast (images, a colour and PDF
/// pages every 0.15 s, with crossfades) on two panels of other sizes: its
/// open file descriptors at the end are those it had after the warm-up,
/// and its RSS grew less than 5 %. That was a 200 s test of its own; in
/// the same minutes as the others it proves the same in no extra time.
final class MemoryFlatTests: ScreenplayTestCase {
    func testMemoryStaysFlatForMinutes() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["MEMORY_SOAK_SECONDS"] ?? "") ?? 120
        let warmup = min(40, seconds / 4)
        // HEADLESS-1 is the built-in panel (the presenter's console); the
        // others are external screens, one per program.
        let rig = try startSway([
            OutputMode(width: 640, height: 360, refreshHz: 60), OutputMode(width: 640, height: 360, refreshHz: 60),
            OutputMode(width: 640, height: 360, refreshHz: 60), OutputMode(width: 640, height: 360, refreshHz: 60),
            OutputMode(width: 640, height: 360, refreshHz: 60), OutputMode(width: 640, height: 360, refreshHz: 60),
            OutputMode(width: 320, height: 240, refreshHz: 60), OutputMode(width: 480, height: 270, refreshHz: 60),
        ])
        let e = env(rig, builtin: "HEADLESS-1")
        let dir = NSTemporaryDirectory() + "memory-flat-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let deck = try SampleDeck.write(to: dir)
        let shader = try temporaryShader(
            "memory-flat", "void mainImage(out vec4 c, in vec2 p) { c = vec4(0.2, 0.5 + 0.4 * sin(iTime), 0.6, 1.0); }")

        // The playlist switches every half second between an image and a
        // colour, with a video between them: a new mpv core every pass.
        let clip = try TestMedia.colourSequence(in: dir, name: "clip", width: 320, height: 180)
        let poster = dir + "/poster.png"
        try RigImage(width: 64, height: 36, pixels: [UInt8](repeating: 0xc0, count: 64 * 36 * 3)).writePNG(to: poster)
        let playlist = dir + "/signage.json"
        try """
        {"playlists": {"loop": [{"file": "poster.png", "duration": 0.5}, {"color": "204080", "duration": 0.5}, {"file": "clip.mp4"}]},
         "default": "loop", "transition": {"seconds": 0.2}}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)

        let animated = try CLI.start(["present", shader, "--output", "HEADLESS-2", "--stats", "-"], environment: e)
        let still = try CLI.start(["present", "test-card", "--output", "HEADLESS-3", "--stats", "-"], environment: e)
        let presenter = try CLI.start(["present", deck.pdf, "--output", "HEADLESS-4", "--stats", "-"], environment: e)
        let signage = try CLI.start(["play", playlist, "--output", "HEADLESS-5", "--stats", "-"], environment: e)
        let video = try CLI.start(["present", clip, "--output", "HEADLESS-6", "--stats", "-"], environment: e)
        let switching = try CLI.start(
            [
                "play", try fastSwitchingPlaylist(in: dir), "--duration", "0.15", "--output", "HEADLESS-7", "--output",
                "HEADLESS-8", "--socket", dir + "/fast.sock", "--stats", "-",
            ], environment: e)
        let programs = [
            ("screenplay shader", animated), ("screenplay static", still), ("screenplay presenter", presenter),
            ("screenplay play", signage), ("screenplay video", video), ("screenplay play, fast", switching),
        ]
        for (label, p) in programs {
            XCTAssertNotNil(p.waitForEvent { $0.event == "connect" }, "\(label) did not connect: \(p.stderr)")
        }
        let swayPID = try XCTUnwrap(rig.compositorPID, "the sway process behind runuser")

        // A page being rendered holds its PDF open for a moment: the
        // fewest of a few samples is the count at rest.
        func fds() -> Int {
            (0..<5).map { _ in
                Thread.sleep(forTimeInterval: 0.05)
                return ProcessUsage.openFileDescriptors(switching.pid)
            }.min() ?? -1
        }
        let started = Date()
        var afterWarmup: (fds: Int, rss: Int, items: Int)?
        // A screenshot every few seconds: a deferred reply, a read-back and
        // a PNG each time, and a client connection that must not stay open.
        var checks = 0
        var screenshots = 0
        let trends = MemoryTrend.watch(
            programs.map { ($0.0, $0.1.pid) } + [("sway", swayPID)], seconds: seconds, warmupSeconds: warmup,
            check: {
                if afterWarmup == nil, Date().timeIntervalSince(started) >= warmup {
                    afterWarmup = (
                        fds(), ProcessUsage.residentKiB(switching.pid),
                        switching.statsEvents.filter { $0.event == "item" }.count
                    )
                }
                checks += 1
                if checks % 5 == 0,
                    let shot = try? CLI.run(
                        [
                            "ctl", "screenshot", dir + "/shot.png", "--output", "HEADLESS-7", "--socket",
                            dir + "/fast.sock",
                        ],
                        environment: e), shot.status == 0
                {
                    screenshots += 1
                }
                return programs.allSatisfy { $0.1.isRunning }
            })
        XCTAssertGreaterThan(screenshots, Int(seconds / 5) / 2, "screenshots of the fast play mostly answered")
        for (label, p) in programs {
            XCTAssertTrue(p.isRunning, "\(label) died: \(p.stderr.suffix(2000))")
        }
        for trend in trends {
            print("memory:", trend)
            // The fast play is judged as its own soak always was (RSS at the
            // end against after the warm-up, below): switching 13 items a
            // second, its RSS steps by pages and decoded images, and its
            // slope over 140 s moved from -0.8 to +8 KiB/s between a quiet
            // and a loaded run with the same code.
            guard trend.label != "screenplay play, fast" else { continue }
            // RSS moves in whole pages as malloc's arenas and mpv's buffers
            // settle and come and go: a looping video's 10 s medians wander
            // 170 KiB from one window to the next with nothing growing, and
            // `play` on this crowded sway steps once by 900 KiB, one more
            // 640x360 frame buffer while sway held frames (bounded: at most
            // four, and dropped once unused for 2 s). A least-squares slope
            // over 90 s read that step as 7 KiB/s and failed CI. What 90 s
            // can tell is growth all along: both the middle third of the
            // windows over the first and the last over the middle grew 200
            // KiB (6.7 KiB/s). The leak this test was written for grew 13
            // KiB/s; `MemoryTrendTests` shows a step in any window passes and
            // 13 KiB/s fails under 100 KiB of wandering. Slower leaks are the
            // 30-minute soak's (`scripts/bench.sh --only soak`, goal 1 KiB
            // per minute).
            let thirds = try XCTUnwrap(trend.growthByThirds, "\(trend)")
            XCTAssertFalse(
                thirds.early >= 200 && thirds.late >= 200,
                "\(trend): grew \(thirds.early) KiB from the first third of the windows to the middle and \(thirds.late) to the last, as a leak of 6.7 KiB/s or more would; medians \(trend.medians.map(\.kib))"
            )
        }
        // The animated scene really animated the whole time (a stalled
        // shader would be flat for the wrong reason).
        let frames = animated.frames(for: "HEADLESS-2").suffix(10)
        XCTAssertEqual(frames.count, 10)
        let presented = frames.map { $0.int("presented") }
        XCTAssertGreaterThan(presented.reduce(0, +), 300, "frames in the last ten seconds: \(presented)")
        // So did the video (30 fps: new frames every second to the end) and
        // the playlist (its items, the video among them, came on all along).
        let videoFrames = video.frames(for: "HEADLESS-6").suffix(10).map { $0.int("video_frames") }
        XCTAssertGreaterThan(videoFrames.reduce(0, +), 150, "video frames in the last ten seconds: \(videoFrames)")
        let shown = signage.statsEvents.filter { $0.event == "item" }
        XCTAssertGreaterThan(
            shown.filter { ($0.raw["source"] as? String ?? "").hasSuffix("clip.mp4") }.count, Int(seconds / 5) / 2,
            "passes of the playlist")
        XCTAssertFalse(signage.statsEvents.contains { $0.event == "skipped" }, signage.stderr)

        let before = try XCTUnwrap(afterWarmup, "no sample after the warm-up")
        let fdsAfter = fds()
        let rssAfter = ProcessUsage.residentKiB(switching.pid)
        let switches = switching.statsEvents.filter { $0.event == "item" }.count - before.items
        let measured = Date().timeIntervalSince(started) - warmup
        print(
            "fast play: \(switches) switches in \(Int(measured)) s after the warm-up, fds \(before.fds) -> \(fdsAfter), RSS \(before.rss) -> \(rssAfter) KiB"
        )
        // Two panels at 0.15 s an item would make 13 a second; half of that
        // leaves room for a loaded machine and still proves both switched.
        XCTAssertGreaterThan(switches, Int(measured / 0.15), "both fast panels kept switching")
        XCTAssertEqual(fdsAfter, before.fds, "the fast play's file descriptors leaked")
        let growth = Double(rssAfter - before.rss) / Double(before.rss)
        XCTAssertLessThan(
            growth, 0.05, "the fast play's RSS grew \(Int(growth * 100)) % (\(before.rss) -> \(rssAfter) KiB)")
        for (_, p) in programs { assertCleanStop(p) }
    }

    /// Two 800x450 images, a colour, two PDF pages, a text, a clock and a
    /// ticker, crossfading in 0.05 s.
    private func fastSwitchingPlaylist(in dir: String) throws -> String {
        for (name, hex) in [("a", 0xc03030), ("b", 0x30c030)] {
            try RigImage.solid(width: 800, height: 450, hex: hex).writePNG(to: "\(dir)/\(name).png")
        }
        try SampleDeck.writePDF(to: dir + "/fast-deck.pdf")
        let path = dir + "/fast.json"
        try """
        {"playlists": {"s": [{"file": "a.png"}, {"color": "2040ff"}, {"file": "b.png"}, {"file": "fast-deck.pdf", "pages": "1-2"},
                             {"text": "Lunch 12-14", "size": 60}, {"clock": "%H:%M:%S"}, {"ticker": "Headlines scroll by", "speed": 300}]},
         "default": "s", "transition": {"seconds": 0.05}}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
