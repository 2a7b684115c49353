import Foundation
import TestHarness
import TestSupport
import XCTest

/// One playlist shown on several panels (every output matches it): what the
/// panels share is decoded and uploaded once, while each panel still shows
/// the item itself.
final class PlayMirrorTests: ScreenplayTestCase {
    var media = ""

    override func setUpWithError() throws {
        media = try TestMedia.directory()
        let dir = media
        addTeardownBlock { TestMedia.remove(dir) }
    }

    /// Two panels of different sizes show the same image: both show its
    /// colour, and the process holds one picture texture for it, not one
    /// per panel (the `graphics` stats line, every ten seconds).
    func testOneImageOnTwoPanelsIsOneTexture() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 480, height: 270)])
        // 16:9 on both panels' full width: the centre is the picture's.
        try writeSolidPNG(media + "/a.png", hex: 0x20c060)
        let playlist = media + "/signage.json"
        try #"{"playlists": {"show": [{"file": "a.png"}]}, "default": "show"}"#
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", playlist, "--stats", "-", "--all"], environment: env(rig))
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            XCTAssertNotNil(
                p.waitForEvent(timeout: 20) { $0.event == "item" && $0.output == output },
                "\(output) shows no item: \(p.stderr)")
        }
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            let shot = try rig.capture(output: output)
            XCTAssertEqual(
                shot.pixel(x: shot.width / 2, y: shot.height / 2), RGB(hex: 0x20c060), "\(output) shows the image")
        }
        let graphics = p.waitForEvent(timeout: 25) { $0.event == "graphics" }
        XCTAssertEqual(graphics?.int("picture_textures"), 1, "one texture serves both panels: \(p.stderr)")
        assertCleanStop(p)
    }

    /// Two panels of one size show a playlist of two pictures: at each
    /// change after the first, one panel draws the picture and the other
    /// copies its frame (`copied`), and each shows one of the pictures.
    func testPicturesOnTwoPanelsOfOneSizeAreCopied() throws {
        let rig = try startSway([.init(width: 320, height: 180), .init(width: 320, height: 180)])
        try writeSolidPNG(media + "/a.png", hex: 0x20c060)
        try writeSolidPNG(media + "/b.png", hex: 0xc02060)
        let playlist = media + "/signage.json"
        try
            #"{"playlists": {"show": [{"file": "a.png", "duration": 1}, {"file": "b.png", "duration": 1}]}, "default": "show"}"#
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", playlist, "--stats", "-", "--all"], environment: env(rig))
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            XCTAssertNotNil(p.waitForEvent(timeout: 20) { $0.event == "item" && $0.output == output }, p.stderr)
        }
        let start = p.statsEvents.count
        Thread.sleep(forTimeInterval: 6)
        let events = p.statsEvents.dropFirst(start)
        let changes = events.filter { $0.event == "item" && $0.output == "HEADLESS-1" }.count
        let copied = events.filter { $0.event == "frames" }.reduce(0) { $0 + max(0, $1.int("copied")) }
        XCTAssertGreaterThan(changes, 2, "the pictures change every second: \(p.stderr)")
        XCTAssertGreaterThanOrEqual(copied, changes / 2, "\(changes) changes, \(copied) frames copied: \(p.stderr)")
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            let shot = try rig.capture(output: output)
            let centre = shot.pixel(x: shot.width / 2, y: shot.height / 2)
            XCTAssertTrue([RGB(hex: 0x20c060), RGB(hex: 0xc02060)].contains(centre), "\(output) shows \(centre)")
        }
        assertCleanStop(p)
    }

    /// Two panels of different sizes play the same clip: each draws new
    /// video pictures (its own `video_frames`) and shows the clip's colours,
    /// while the process runs one libmpv video output thread, not one per
    /// panel: the clip is decoded once for both.
    func testOneVideoOnTwoPanelsIsOneDecoder() throws {
        let (rig, p) = try playMirroredClip()
        let start = p.statsEvents.count
        var outputThreads: [Int] = []
        for _ in 0..<8 {
            outputThreads.append(Self.threads(of: p.pid, named: "mpv/vo"))
            Thread.sleep(forTimeInterval: 0.5)
        }
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            let shot = try rig.capture(output: output)
            let centre = shot.pixel(x: shot.width / 2, y: shot.height / 2)
            XCTAssertTrue(Self.isClipColour(centre), "\(output) shows \(centre), not a colour of the clip")
        }
        let frames = p.statsEvents.dropFirst(start).filter { $0.event == "frames" }
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            let drawn = frames.filter { $0.output == output }.reduce(0) { $0 + max(0, $1.int("video_frames")) }
            XCTAssertGreaterThan(drawn, 10, "\(output) drew new video pictures: \(p.stderr)")
        }
        // Panels of two sizes each draw their own frame: nothing is copied.
        XCTAssertEqual(frames.reduce(0) { $0 + $1.int("copied") }, 0, "no frame copied across sizes: \(p.stderr)")
        XCTAssertEqual(outputThreads, Array(repeating: 1, count: 8), "one video output thread serves both panels")
        assertCleanStop(p)
    }

    /// Two panels of one size mirroring a clip of their size: each picture
    /// is drawn (read back from the shared picture) for one panel and
    /// copied for the other (`copied`), and both show the clip the right
    /// way up.
    func testOneVideoOnTwoPanelsOfItsSizeIsCopied() throws {
        try assertMirrorCopies(panel: .init(width: 320, height: 180))
    }

    /// The same where the clip is scaled to the panels: one panel draws
    /// the frame and reads it back, the other copies it.
    func testScaledVideoOnTwoPanelsOfOneSizeIsCopied() throws {
        try assertMirrorCopies(panel: .init(width: 480, height: 270))
    }

    /// Over three seconds of a clip (red over blue, 320x180) mirrored on
    /// two panels of `panel`'s size: each panel shows new pictures, red
    /// above and blue below, and of the pictures shown, at least half
    /// reached one of the panels as a copy of the other's frame rather
    /// than a second draw.
    func assertMirrorCopies(panel: OutputMode) throws {
        let (rig, p) = try playMirroredClip(outputs: [panel, panel], stacked: true)
        let start = p.statsEvents.count
        Thread.sleep(forTimeInterval: 3)
        let frames = p.statsEvents.dropFirst(start).filter { $0.event == "frames" }
        var pictures = 0
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            let drawn = frames.filter { $0.output == output }.reduce(0) { $0 + max(0, $1.int("video_frames")) }
            XCTAssertGreaterThan(drawn, 10, "\(output) drew new video pictures: \(p.stderr)")
            pictures = max(pictures, drawn)
            assertRedOverBlue(try rig.capture(output: output), output)
        }
        let copied = frames.reduce(0) { $0 + max(0, $1.int("copied")) }
        XCTAssertGreaterThanOrEqual(
            copied, pictures / 2, "most pictures drawn once for both panels (\(pictures) pictures): \(p.stderr)")
        assertCleanStop(p)
    }

    /// An override on one panel stops that panel asking for the video's
    /// frames; the other panel's video goes on. Each panel is covered in
    /// turn, so the one that paces the shared player is covered once.
    func testMirroredVideoGoesOnBesideAnOverride() throws {
        let (rig, p) = try playMirroredClip()
        for (covered, shown) in [("HEADLESS-1", "HEADLESS-2"), ("HEADLESS-2", "HEADLESS-1")] {
            let result = try CLI.run(
                ["ctl", "override", "--text", "CLOSED", "--for", "3s", "--output", covered], environment: env(rig))
            XCTAssertEqual(result.status, 0, result.stderr)
            Thread.sleep(forTimeInterval: 1)
            let start = p.statsEvents.count
            Thread.sleep(forTimeInterval: 2.5)
            let drawn = p.statsEvents.dropFirst(start).filter { $0.event == "frames" && $0.output == shown }
                .reduce(0) { $0 + max(0, $1.int("video_frames")) }
            XCTAssertGreaterThan(drawn, 10, "\(shown) plays on while \(covered) shows an override: \(p.stderr)")
            Thread.sleep(forTimeInterval: 0.5)
        }
        assertCleanStop(p)
    }

    /// Two panels of one size copying each other's video frames: with one
    /// unplugged the other goes on drawing new pictures the right way up.
    /// A panel plugged back in is `testAPanelPluggedBackInDuringALongVideoSlotShowsTheClip`.
    func testAMirrorGoesOnWhenAPanelIsUnplugged() throws {
        let (rig, p) = try playLongClipOnTwoNestedPanels()
        func assertPlays(_ outputs: [String], _ when: String) throws {
            let start = p.statsEvents.count
            Thread.sleep(forTimeInterval: 2)
            let frames = p.statsEvents.dropFirst(start).filter { $0.event == "frames" }
            for output in outputs {
                let drawn = frames.filter { $0.output == output }.reduce(0) { $0 + max(0, $1.int("video_frames")) }
                XCTAssertGreaterThan(drawn, 10, "\(when): \(output) drew new video pictures: \(p.stderr)")
                assertRedOverBlue(try rig.capture(output: output), "\(when): \(output)")
            }
        }
        Thread.sleep(forTimeInterval: 1)
        let mirrored = p.statsEvents.count
        try assertPlays(["WL-1", "WL-2"], "mirrored")
        XCTAssertGreaterThan(
            p.statsEvents.dropFirst(mirrored).reduce(0) { $0 + max(0, $1.int("copied")) }, 0,
            "frames copied while mirrored: \(p.stderr)")
        try rig.removeOutput("WL-2")
        XCTAssertNotNil(p.waitForEvent { $0.event == "disconnect" && $0.output == "WL-2" }, p.stderr)
        try assertPlays(["WL-1"], "unplugged")
        XCTAssertFalse(p.stderr.contains("protocol error"), p.stderr)
        assertCleanStop(p)
    }

    /// `play` of a one-second image and a clip on two panels (`outputs`),
    /// returned once both show the clip after the image: the clip's whole
    /// slot is ahead. The clip changes colour each second, or with
    /// `stacked` is red above blue.
    func playMirroredClip(
        outputs: [OutputMode] = [.init(width: 320, height: 240), .init(width: 480, height: 270)], stacked: Bool = false
    ) throws -> (SwayRig, RunningProcess) {
        let rig = try startSway(outputs)
        if stacked {
            try writeStackedClip()
        } else {
            _ = try TestMedia.colourSequence(in: media, name: "clip")
        }
        try writeSolidPNG(media + "/a.png", hex: 0x808080)
        let playlist = media + "/signage.json"
        try """
        {"playlists": {"show": [{"file": "a.png", "duration": 1}, {"file": "clip.mp4", "duration": 14}]},
         "default": "show"}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", playlist, "--stats", "-", "--all"], environment: env(rig))
        func clipShown() -> Bool {
            let events = p.statsEvents
            guard let image = events.firstIndex(where: { $0.event == "item" && self.name($0) == "a.png" }) else {
                return false
            }
            let later = events[image...].filter { $0.event == "item" && self.name($0) == "clip.mp4" }
            return Set(later.map(\.output)) == ["HEADLESS-1", "HEADLESS-2"]
        }
        XCTAssertTrue(waitUntil(timeout: 40) { clipShown() || !p.isRunning }, p.stderr)
        Thread.sleep(forTimeInterval: 1)
        return (rig, p)
    }

    /// clip.mp4: four seconds of 320x180, red above blue.
    func writeStackedClip() throws {
        _ = try TestMedia.halves(
            in: media, name: "clip", left: "red", right: "blue", seconds: 4, height: 90, stacked: true)
    }

    /// `shot` shows the stacked clip the right way up: red above, blue below.
    func assertRedOverBlue(_ shot: RigImage, _ what: String) {
        let top = shot.pixel(x: shot.width / 2, y: shot.height / 4)
        let bottom = shot.pixel(x: shot.width / 2, y: shot.height * 3 / 4)
        XCTAssertTrue(
            top.r > 200 && top.b < 60 && bottom.b > 200 && bottom.r < 60,
            "\(what) shows \(top) over \(bottom), not red over blue")
    }

    /// Red, green or blue, as the colour clip shows them.
    static func isClipColour(_ pixel: RGB) -> Bool {
        let colours: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
        let (r, g, b) = (Int(pixel.r), Int(pixel.g), Int(pixel.b))
        return colours.contains { abs(r - $0.0) < 40 && abs(g - $0.1) < 40 && abs(b - $0.2) < 40 }
    }

    func name(_ event: StatsEvent) -> String {
        (event.raw["source"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
    }

    func writeSolidPNG(_ path: String, hex: UInt32) throws {
        let (width, height) = (64, 36)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            (pixels[i], pixels[i + 1], pixels[i + 2]) = (
                UInt8(hex >> 16 & 0xff), UInt8(hex >> 8 & 0xff), UInt8(hex & 0xff)
            )
        }
        try RigImage(width: width, height: height, pixels: pixels).writePNG(to: path)
    }

    /// Threads of `pid` with the name `name` (libmpv names its threads).
    static func threads(of pid: Int32, named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    /// Two panels of one size show the same web page: both show it, one
    /// web process renders it for both, not one per panel, and the panel
    /// whose window the page's frame did not go into copies it (`copied`).
    func testOneWebPageOnTwoPanelsIsOneWebProcess() throws {
        let rig = try startSway([.init(width: 320, height: 180), .init(width: 320, height: 180)])
        try Data(#"<html><body style="margin:0;background:#20c060"></body></html>"#.utf8)
            .write(to: URL(fileURLWithPath: media + "/board.html"))
        let playlist = media + "/signage.json"
        try #"{"playlists": {"show": [{"web": "board.html"}]}, "default": "show"}"#
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", playlist, "--stats", "-", "--all"], environment: env(rig))
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            let shown = waitUntil(timeout: 40) {
                (try? rig.capture(output: output))?.pixel(x: 160, y: 90) == RGB(hex: 0x20c060)
            }
            XCTAssertTrue(shown, "\(output) shows the page: \(p.stderr)")
        }
        var processes: [Int] = []
        for _ in 0..<4 {
            processes.append(PlayWallVideoTests.webProcesses(under: p.pid).count)
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertEqual(processes, [1, 1, 1, 1], "one web process renders the page for both panels")
        // The page's frame goes into one panel's buffer; the other copies it.
        let copied = p.statsEvents.filter { $0.event == "frames" }.reduce(0) { $0 + max(0, $1.int("copied")) }
        XCTAssertGreaterThan(copied, 0, "the second panel copies the page's frame: \(p.stderr)")
        assertCleanStop(p)
    }
}
