import Foundation
import TestHarness
import TestSupport
import XCTest

/// Video items in `screenplay play` on headless sway: a clip between two
/// images with crossfades, checked on every frame drawn (the play probe's
/// read-back), a video lasting its own length in a folder playlist, and
/// videos that cannot be played (damaged from the start, or cut off
/// part-way) skipped as bad items. Clips are made here by ffmpeg.
final class PlayVideoTests: ScreenplayTestCase {
    var media = ""

    override func setUpWithError() throws {
        media = try TestMedia.directory()
        let dir = media
        addTeardownBlock { TestMedia.remove(dir) }
    }

    func writePNG(_ path: String, _ hex: UInt32) throws {
        let (width, height) = (64, 36)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = UInt8(hex >> 16 & 0xff)
            pixels[i + 1] = UInt8(hex >> 8 & 0xff)
            pixels[i + 2] = UInt8(hex & 0xff)
        }
        try RigImage(width: width, height: height, pixels: pixels).writePNG(to: path)
    }

    func items(_ p: RunningProcess, _ output: String) -> [StatsEvent] {
        p.statsEvents.filter { $0.event == "item" && $0.output == output }
    }

    func name(_ event: StatsEvent) -> String {
        (event.raw["source"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
    }

    /// The clip's colours as decoded (H.264 in limited-range YUV comes back
    /// a few steps off pure red, green and blue).
    static let clipColours: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]

    /// How far `c` lies from the straight line between `a` and `b` (a blend
    /// of the two at some mix), in the largest channel difference.
    static func distance(_ c: (Int, Int, Int), fromBlendOf a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let d = (Double(b.0 - a.0), Double(b.1 - a.1), Double(b.2 - a.2))
        let v = (Double(c.0 - a.0), Double(c.1 - a.1), Double(c.2 - a.2))
        let length = d.0 * d.0 + d.1 * d.1 + d.2 * d.2
        let t = length == 0 ? 0 : min(1, max(0, (v.0 * d.0 + v.1 * d.1 + v.2 * d.2) / length))
        let p = (Double(a.0) + t * d.0, Double(a.1) + t * d.1, Double(a.2) + t * d.2)
        return Int(max(abs(Double(c.0) - p.0), abs(Double(c.1) - p.1), abs(Double(c.2) - p.2)).rounded())
    }

    static func rgb(_ hex: String) -> (Int, Int, Int) {
        let value = Int(hex, radix: 16) ?? 0
        return (value >> 16 & 0xff, value >> 8 & 0xff, value & 0xff)
    }

    /// A clip of red, green and blue seconds between a cyan and a yellow
    /// image, with 0.4 s crossfades: every frame drawn on the panel is an
    /// image, a clip colour, or a blend of an image with a clip colour (into
    /// and out of the video) or of the two images; never black, never
    /// anything else. The fades into and out of the video are seen, and the
    /// clip plays its colours in order.
    func testVideoBetweenTwoImagesCrossfadesWithNoFrameOutsideTheBlends() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 480, height: 270)])
        try writePNG(media + "/a.png", 0x00ffff)
        try writePNG(media + "/b.png", 0xffff00)
        _ = try TestMedia.colourSequence(in: media, name: "clip")
        // noise.mp4 has no length mpv could read: its slot is given (1 s,
        // not the 10 s default), so a pass lasts 9 s and two fit the waits.
        let playlist = media + "/signage.json"
        try """
        {"playlists": {"show": [{"file": "a.png", "duration": 1.2}, {"file": "clip.mp4"}, {"file": "b.png", "duration": 1.2}]},
         "default": "show", "transition": {"seconds": 0.4}}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertTrue(
            waitUntil(timeout: 45) {
                self.items(p, "HEADLESS-2").filter { self.name($0) == "clip.mp4" }.count >= 3 || !p.isRunning
            },
            p.stderr)
        assertCleanStop(p)
        XCTAssertFalse(p.stderr.contains("skipped"), p.stderr)

        let cyan = (0, 255, 255), yellow = (255, 255, 0)
        let pairs =
            Self.clipColours.map { (cyan, $0) } + Self.clipColours.map { ($0, yellow) } + [(yellow, cyan)]
            + [(Self.clipColours[0], Self.clipColours[1]), (Self.clipColours[1], Self.clipColours[2])]
        let probes = p.statsEvents.filter { $0.event == "probe" && $0.output == "HEADLESS-2" }
            .map { $0.raw["rgb"] as? String ?? "" }
            .drop { $0 == "404040" }  // the neutral grey before the first item is ready
        XCTAssertGreaterThan(probes.count, 100)
        var intoVideo = 0, outOfVideo = 0, clip = ""
        for hex in probes {
            let c = Self.rgb(hex)
            let best = pairs.map { Self.distance(c, fromBlendOf: $0.0, $0.1) }.min() ?? 255
            XCTAssertLessThanOrEqual(best, 24, "frame \(hex) is neither an item nor a blend of neighbours")
            let isClipColour = Self.clipColours.map { Self.distance(c, fromBlendOf: $0, $0) }.min()! <= 60
            let isImage =
                Self.distance(c, fromBlendOf: cyan, cyan) <= 8 || Self.distance(c, fromBlendOf: yellow, yellow) <= 8
            if !isClipColour, !isImage {
                if Self.distance(c, fromBlendOf: cyan, Self.clipColours[0]) <= 24 { intoVideo += 1 }
                if Self.distance(c, fromBlendOf: Self.clipColours[2], yellow) <= 24 { outOfVideo += 1 }
            }
            if isClipColour, !isImage {
                let letter: Character = c.0 > 160 ? "R" : c.1 > 160 ? "G" : "B"
                if clip.last != letter { clip.append(letter) }
            }
        }
        // 0.4 s at 60 Hz is about 24 refreshes; at least a few blended frames each way per pass.
        XCTAssertGreaterThan(intoVideo, 10, "frames blending the image into the video")
        XCTAssertGreaterThan(outOfVideo, 10, "frames blending the video into the next image")
        // The first pass may be a clip that came on mid-slot (clock
        // alignment): it plays from its start and is cut at its slot's end.
        let whole = try XCTUnwrap(
            clip.range(of: "RGB").map { clip[$0.lowerBound...] }, "the clip's colours in order: \(clip)")
        for wrong in ["RB", "GR", "BG"] { XCTAssertFalse(whole.contains(wrong), "out of order (\(wrong)) in \(clip)") }
    }

    /// A folder picks up a video by its content (a clip without an
    /// extension), and the video lasts its own length: the next item comes
    /// on 3 s (the clip's length) after it, while images last --duration.
    func testFolderVideoLastsItsOwnLength() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = media + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writePNG(folder + "/a.png", 0xff00ff)
        let clip = try TestMedia.colourSequence(in: media, name: "clip")
        try FileManager.default.moveItem(atPath: clip, toPath: folder + "/b-clip")
        try "not media".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let p = try CLI.start(
            ["play", folder, "--duration", "1", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 30) { self.items(p, "HEADLESS-2").count >= 5 || !p.isRunning }, p.stderr)
        assertCleanStop(p)
        XCTAssertTrue(p.stderr.contains("notes.txt: skipped"), p.stderr)
        let shown = items(p, "HEADLESS-2")
        XCTAssertEqual(Set(shown.map(name)), ["a.png", "b-clip"])
        // Consecutive items, the time from one coming on to the next:
        // the clip's slot is its 3 s, the image's the 1 s of --duration.
        // The first item started mid-slot (clock alignment): drop it.
        let whole = zip(shown, shown.dropFirst()).dropFirst().map { pair in
            (name(pair.0), Double(pair.1.int("presented_ns") - pair.0.int("presented_ns")) / 1e9)
        }
        XCTAssertTrue(whole.contains { $0.0 == "b-clip" }, "\(whole)")
        for (source, seconds) in whole {
            XCTAssertEqual(
                seconds, source == "b-clip" ? 3 : 1, accuracy: 0.1, "\(source) lasted \(seconds) s: \(whole)")
        }
    }

    /// A video that is damaged from the start (random bytes) and one cut off
    /// part-way (it opens, then fails while playing) are each skipped with
    /// one stderr line naming the file; the colours around them play on, and
    /// the cut one is not tried again on the next pass.
    func testVideosThatFailAreSkipped() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let whole = try TestMedia.pattern(in: media, name: "long", seconds: 6, fps: 30, width: 320, height: 180)
        _ = try TestMedia.truncated(whole, fraction: 0.5, to: media + "/cut.mp4")
        try Data((0..<20_000).map { _ in UInt8.random(in: 0...255) }).write(
            to: URL(fileURLWithPath: media + "/noise.mp4"))
        // noise.mp4 has no length mpv could read: its slot is given (1 s,
        // not the 10 s default), so a pass lasts 9 s and two fit the waits.
        let playlist = media + "/signage.json"
        try """
        {"playlists": {"show": [{"color": "00ff00", "duration": 1}, {"file": "cut.mp4"}, {"file": "noise.mp4", "duration": 1}, {"color": "0000ff", "duration": 1}]},
         "default": "show"}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(
            p.waitForEvent(timeout: 40) {
                $0.event == "skipped" && ($0.raw["source"] as? String ?? "").hasSuffix("cut.mp4")
            }, p.stderr)
        // Two more passes after the cut clip failed: it is not shown again.
        let failedAt = items(p, "HEADLESS-2").count
        XCTAssertTrue(
            waitUntil(timeout: 40) { self.items(p, "HEADLESS-2").count >= failedAt + 4 || !p.isRunning }, p.stderr)
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
        let lines = p.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("cut.mp4: skipped") }.count, 1, p.stderr)
        XCTAssertEqual(lines.filter { $0.contains("noise.mp4: skipped") && $0.contains("libmpv") }.count, 1, p.stderr)
        let shown = items(p, "HEADLESS-2").map(name)
        XCTAssertFalse(shown.contains("noise.mp4"), "\(shown)")
        XCTAssertFalse(shown.dropFirst(failedAt).contains("cut.mp4"), "the failed clip came back: \(shown)")
        XCTAssertTrue(
            shown.dropFirst(failedAt).contains("#00FF00") && shown.dropFirst(failedAt).contains("#0000FF"), "\(shown)")
    }
}
