import Foundation
import TestHarness
import TestSupport
import XCTest

/// `screenplay play` on headless sway: playlists per panel, crossfades
/// checked frame by frame, clock alignment, reload, bad media, proof of play.
final class PlayTests: ScreenplayTestCase {
    /// A temporary folder for this test's media, removed at teardown.
    func mediaFolder() throws -> String {
        let path = NSTemporaryDirectory() + "screenplay-play-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Writes a solid-colour PNG.
    func writePNG(_ path: String, _ hex: UInt32, width: Int = 64, height: Int = 36) throws {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = UInt8(hex >> 16 & 0xff)
            pixels[i + 1] = UInt8(hex >> 8 & 0xff)
            pixels[i + 2] = UInt8(hex & 0xff)
        }
        try RigImage(width: width, height: height, pixels: pixels).writePNG(to: path)
    }

    func items(_ p: RunningProcess, _ output: String? = nil) -> [StatsEvent] {
        p.statsEvents.filter { $0.event == "item" && (output == nil || $0.output == output) }
    }

    func testFolderPlaysImagesInNameOrder() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 360)])
        let folder = try mediaFolder()
        try writePNG(folder + "/b.png", 0x00ff00)
        try writePNG(folder + "/a.png", 0xff0000)
        try writePNG(folder + "/c.png", 0x0000ff)
        try "not media".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let p = try CLI.start(
            ["play", folder, "--duration", "1", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 15) { self.items(p).count >= 5 }, p.stderr)
        let sources = items(p).map {
            ($0.raw["source"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
        }
        let order = ["a.png", "b.png", "c.png"]
        // Clock-aligned: it starts at the clock's item, then goes on in name order.
        guard let first = order.firstIndex(of: sources[0]) else { return XCTFail("unexpected source \(sources)") }
        for (k, source) in sources.enumerated() { XCTAssertEqual(source, order[(first + k) % 3], "\(sources)") }
        XCTAssertTrue(p.stderr.contains("notes.txt: skipped"), p.stderr)
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// Writes a playlist file into `folder`.
    func writePlaylist(_ folder: String, _ json: String, name: String = "signage.json") throws -> String {
        let path = folder + "/" + name
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The clock's item for a playlist of `count` items of `seconds` each at wall time `at`.
    /// Items come on just after their slot starts, so the slot of the time
    /// an item was shown is the item's.
    func clockIndex(_ at: String, count: Int, seconds: Double) -> Int? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: at) else { return nil }
        let t = date.timeIntervalSince1970
        let slot = (t / seconds).rounded(.down)
        return Int(slot.truncatingRemainder(dividingBy: Double(count)))
    }

    func testJSONPanelsByNameByDescriptionAndDefault() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 320, height: 240), .init(width: 320, height: 240),
            .init(width: 320, height: 240),
        ])
        let folder = try mediaFolder()
        try writePNG(folder + "/poster.png", 0x20c040)
        // HEADLESS-3's description ("Headless output 2" in sway 1.7), in lower case.
        let listing = try CLI.run(["outputs", "--json"], environment: env(rig)).stdout
        let screens = try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]] ?? []
        let description = try XCTUnwrap(
            screens.first { $0["name"] as? String == "HEADLESS-3" }?["description"] as? String
        ).lowercased()
        XCTAssertFalse(description.contains("headless-3"), "the pattern must match by description only")
        let playlist = try writePlaylist(
            folder,
            """
            {
              "playlists": {
                "lobby": [{"file": "poster.png"}],
                "menu": [{"color": "ff8000"}],
                "other": [{"color": "3050a0"}]
              },
              "panels": [
                {"match": "HEADLESS-2", "playlist": "lobby"},
                {"match": "\(description)", "playlist": "menu"}
              ],
              "default": "other"
            }
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        let expected = ["HEADLESS-2": 0x20c040, "HEADLESS-3": 0xff8000, "HEADLESS-4": 0x3050a0]
        for (output, hex) in expected {
            XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
            XCTAssertTrue(
                waitUntil(timeout: 5) {
                    (try? rig.capture(output: output).pixel(x: 160, y: 120)) == RGB(hex: UInt32(hex))
                },
                "\(output) shows \(String(describing: try? rig.capture(output: output).pixel(x: 160, y: 120)))")
        }
        XCTAssertEqual(items(p, "HEADLESS-2").first?.raw["playlist"] as? String, "lobby")
        XCTAssertEqual(items(p, "HEADLESS-3").first?.raw["playlist"] as? String, "menu")
        XCTAssertEqual(items(p, "HEADLESS-4").first?.raw["playlist"] as? String, "other")
        XCTAssertTrue(items(p, "HEADLESS-1").isEmpty, "the built-in screen plays nothing")
        assertCleanStop(p)
    }

    /// Every frame drawn during crossfades (read back before it is presented)
    /// is a blend of the two items, never black or anything else.
    func testCrossfadesHaveNoFrameOutsideTheBlend() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 480, height: 270)])
        let folder = try mediaFolder()
        try writePNG(folder + "/blue.png", 0x0000ff)
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"fade": [{"color": "ff0000", "duration": 0.5}, {"file": "blue.png", "duration": 0.5}]},
             "default": "fade", "transition": {"seconds": 0.25}}
            """)
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertTrue(waitUntil(timeout: 30) { self.items(p, "HEADLESS-2").count >= 22 }, p.stderr)
        assertCleanStop(p)
        // Before its first item, a panel shows the neutral grey: play may
        // start so near the end of the clock's slot that the first item
        // would reach the screen in the next one, and then it waits for that
        // slot's boundary. Those frames come before any fade; from the first
        // item on, every frame is red, blue or a blend.
        let probes = p.statsEvents.filter { $0.event == "probe" && $0.output == "HEADLESS-2" }
            .drop { ($0.raw["rgb"] as? String)?.lowercased() == "404040" }
        XCTAssertFalse(probes.isEmpty, "no frame after the placeholder was read back: \(p.stderr)")
        var blended = 0
        var previous: (r: Int, b: Int)?
        var reversals = 0
        var lastDirection: Int?
        for probe in probes {
            let hex = Int(probe.raw["rgb"] as? String ?? "", radix: 16) ?? 0
            let (r, g, b) = (hex >> 16 & 0xff, hex >> 8 & 0xff, hex & 0xff)
            // On the line from red to blue: no green, red + blue = 255.
            XCTAssertLessThanOrEqual(g, 2, "frame \(String(format: "%06x", hex)) is off the blend")
            XCTAssertEqual(
                r + b, 255, accuracy: 4, "frame \(String(format: "%06x", hex)) is off the blend (black would be 0)")
            if r > 8 && b > 8 { blended += 1 }
            if let previous, previous.r > 8, previous.b > 8, r > 8, b > 8, (r - previous.r).signum() != 0 {
                // Within a fade the mix moves one way only.
                if let last = lastDirection, last != (r - previous.r).signum() { reversals += 1 }
                lastDirection = (r - previous.r).signum()
            } else {
                lastDirection = nil
            }
            previous = (r, b)
        }
        let switches = items(p, "HEADLESS-2").count - 1
        XCTAssertGreaterThanOrEqual(switches, 20)
        XCTAssertEqual(reversals, 0, "a fade went back and forth")
        // 0.25 s at 60 Hz is about 15 refreshes: one blended frame per
        // refresh, so well over a handful per fade even on a loaded machine.
        XCTAssertGreaterThan(
            Double(blended) / Double(switches), 7, "blended frames per fade: \(blended) over \(switches) fades")
    }
}

extension PlayTests {
    /// Content is upright on a rotated output, and "rotate" turns it for a
    /// panel that hangs rotated on a compositor that was not told so.
    func testRotatedOutputsAndRotatedPanels() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 1280, height: 720), .init(width: 1280, height: 720),
        ])
        try rig.setTransform("HEADLESS-3", "90")
        let folder = try mediaFolder()
        // 200x200: the top-left quarter red, the rest blue.
        var pixels = [UInt8](repeating: 0, count: 200 * 200 * 3)
        for y in 0..<200 {
            for x in 0..<200 {
                let i = (y * 200 + x) * 3
                if x < 100 && y < 100 { pixels[i] = 0xff } else { pixels[i + 2] = 0xff }
            }
        }
        try RigImage(width: 200, height: 200, pixels: pixels).writePNG(to: folder + "/corner.png")
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"p": [{"file": "corner.png"}]},
             "panels": [{"match": "HEADLESS-2", "playlist": "p", "rotate": 90}], "default": "p"}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }, p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-3" }, p.stderr)
        let red = RGB(hex: 0xff0000), blue = RGB(hex: 0x0000ff)
        // HEADLESS-2 hangs turned 90° clockwise: the buffer holds the content
        // turned back (counter-clockwise), so the image's top-left corner is
        // at the buffer's bottom-left; the 720-px square sits at x 280...1000.
        var turned = try rig.capture(output: "HEADLESS-2")
        _ = waitUntil(timeout: 5) {
            turned = (try? rig.capture(output: "HEADLESS-2")) ?? turned
            return turned.pixel(x: 300, y: 700) == red
        }
        XCTAssertEqual(turned.pixel(x: 300, y: 700), red, "the content's top-left is at the panel's bottom-left")
        XCTAssertEqual(turned.pixel(x: 300, y: 20), blue)
        XCTAssertEqual(turned.pixel(x: 980, y: 700), blue)
        XCTAssertEqual(turned.pixel(x: 100, y: 360), RGB(hex: 0), "letterbox beside the square")
        // HEADLESS-3 is rotated by the compositor: the viewer sees it upright
        // (grim captures it as the viewer sees it, 720x1280).
        var upright = try rig.capture(output: "HEADLESS-3")
        _ = waitUntil(timeout: 5) {
            upright = (try? rig.capture(output: "HEADLESS-3")) ?? upright
            return upright.pixel(x: 20, y: 300) == red
        }
        XCTAssertEqual([upright.width, upright.height], [720, 1280])
        XCTAssertEqual(upright.pixel(x: 20, y: 300), red, "top-left is red on the rotated output")
        XCTAssertEqual(upright.pixel(x: 700, y: 300), blue)
        XCTAssertEqual(upright.pixel(x: 20, y: 980), blue)
        assertCleanStop(p)
    }
}
