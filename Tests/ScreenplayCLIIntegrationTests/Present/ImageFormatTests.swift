import Foundation
import TestHarness
import TestSupport
import XCTest

/// `screenplay present` with every image format people put on panels,
/// checked by the pixels that reached the output (grim) on headless sway.
final class ImageFormatTests: ScreenplayTestCase {
    private var dir = ""
    let red = RGB(hex: 0xff0000), green = RGB(hex: 0x00ff00), blue = RGB(hex: 0x0000ff)
    let white = RGB(hex: 0xffffff), black = RGB(hex: 0x000000)

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "screenplay-images-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let d = dir
        addTeardownBlock { try? FileManager.default.removeItem(atPath: d) }
    }

    /// Captures `output` until `ready` holds (or 10 s pass) and returns the last capture.
    private func capture(_ rig: SwayRig, _ output: String, until ready: (RigImage) -> Bool) -> RigImage? {
        var image: RigImage?
        _ = waitUntil(timeout: 10) {
            image = try? rig.capture(output: output)
            return image.map(ready) ?? false
        }
        return image
    }

    private func near(_ a: RGB, _ b: RGB, _ tolerance: Int = 12) -> Bool { a.distance(to: b) <= tolerance }

    /// The SVG is rendered at the buffer's device pixels, not at its logical
    /// size and scaled up: at scale 2 a line half a unit thick is exactly one
    /// device pixel, with no grey rows; after a mode change it is rendered
    /// again for the new size (two device pixels at twice the pixels).
    func testSVGIsSharpAtScaleTwoAndRenderedAgainOnResize() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 1280, height: 720)])
        try rig.setScale("HEADLESS-2", 2)
        let svg = dir + "/logo.svg"
        try TestImages.svg(
            width: "640", height: "360", viewBox: "0 0 640 360",
            body: """
                <rect width="640" height="360" fill="#ffffff"/>
                <rect x="0" y="180" width="640" height="0.5" fill="#000000"/>
                <rect x="320" y="0" width="0.5" height="360" fill="#000000"/>
                """
        ).write(toFile: svg, atomically: true, encoding: .utf8)
        let p = try CLI.start(["present", svg, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        let connect = p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }
        XCTAssertEqual(connect?.int("scale"), 2, p.stderr)

        func darkRows(_ image: RigImage, column: Int) -> [Int] {
            (0..<image.height).filter { image.pixel(x: column, y: $0) == black }
        }
        func darkColumns(_ image: RigImage, row: Int) -> [Int] {
            (0..<image.width).filter { image.pixel(x: $0, y: row) == black }
        }
        func blurred(_ image: RigImage, column: Int) -> Int {
            (0..<image.height).filter {
                let c = image.pixel(x: column, y: $0); return c != black && c != white
            }.count
        }

        let image = try XCTUnwrap(capture(rig, "HEADLESS-2") { $0.pixel(x: 100, y: 360) == self.black }, p.stderr)
        XCTAssertEqual([image.width, image.height], [1280, 720])
        XCTAssertEqual(darkRows(image, column: 100), [360], "a half-unit line at scale 2 is one device row")
        XCTAssertEqual(darkColumns(image, row: 100), [640], "a half-unit line at scale 2 is one device column")
        XCTAssertEqual(blurred(image, column: 100), 0, "no grey (blurred) pixels")

        // Twice the pixels: rendered again, the line is two device rows.
        try rig.setMode("HEADLESS-2", .init(width: 2560, height: 1440))
        XCTAssertNotNil(p.waitForEvent { $0.event == "configure" && $0.int("width") == 2560 }, p.stderr)
        let larger = try XCTUnwrap(
            capture(rig, "HEADLESS-2") { $0.width == 2560 && $0.pixel(x: 100, y: 721) == self.black })
        XCTAssertEqual(darkRows(larger, column: 100), [720, 721], "rendered for 2560x1440, not scaled up")
        XCTAssertEqual(blurred(larger, column: 100), 0)
        XCTAssertFalse(p.stderr.contains("error"), p.stderr)
        assertCleanStop(p)
    }

    /// Frames of an animated GIF reach the panel in the file's order, and
    /// between them the scene asks for no frames (about two presented a
    /// second for a GIF of half-second frames, not sixty).
    func testAnimatedGIFShowsItsFramesInOrderAndIsStaticBetweenThem() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let gif = dir + "/signal.gif"
        // Four frames: a capture that comes late skips one (two steps on),
        // which three frames could not tell from a step back.
        let yellow = RGB(hex: 0xffff00)
        let order = [red, green, blue, yellow]
        try TestImages.animation(order, frameSeconds: 0.5, to: gif)
        let p = try CLI.start(["present", gif, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }, p.stderr)

        var seen: [RGB] = []
        let end = Date().addingTimeInterval(5)
        while Date() < end {
            guard let image = try? rig.capture(output: "HEADLESS-2") else { continue }
            let center = image.pixel(x: 320, y: 240)
            guard let color = order.first(where: { near($0, center) }) else { continue }
            if seen.last != color { seen.append(color) }
        }
        XCTAssertGreaterThanOrEqual(seen.count, 4, "expected several frame changes in 5 s: \(seen)")
        let steps = zip(seen, seen.dropFirst()).map { a, b in
            (order.firstIndex(of: b)! - order.firstIndex(of: a)! + order.count) % order.count
        }
        // One step on, or two where grim was slower than a frame; a step
        // back (three on) is frames out of order.
        XCTAssertTrue(steps.allSatisfy { $0 == 1 || $0 == 2 }, "frames out of order: \(seen), steps \(steps)")
        XCTAssertGreaterThan(steps.filter { $0 == 1 }.count, steps.count / 2, "mostly one frame at a time: \(steps)")

        // Stats lines count the frames presented in each second.
        XCTAssertTrue(waitUntil(timeout: 5) { p.frames(for: "HEADLESS-2").count >= 3 })
        let perSecond = p.frames(for: "HEADLESS-2").dropFirst().map { $0.int("presented") }
        XCTAssertFalse(perSecond.isEmpty)
        for presented in perSecond {
            XCTAssertLessThanOrEqual(
                presented, 4, "a GIF of 0.5 s frames asked for \(presented) frames in a second: \(perSecond)")
        }
        XCTAssertGreaterThan(perSecond.reduce(0, +), 0, "the animation presented nothing: \(perSecond)")
        assertCleanStop(p)
    }

    /// A GIF with one frame is a still image: drawn once, then no CPU.
    func testStaticGIFCostsNoCPU() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 1280, height: 720)])
        let gif = dir + "/still.gif"
        try TestImages.animation([green], frameSeconds: 1, to: gif)
        let p = try CLI.start(["present", gif], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(capture(rig, "HEADLESS-2") { self.near($0.pixel(x: 640, y: 360), self.green) }, p.stderr)
        Thread.sleep(forTimeInterval: 0.5)
        let before = ProcessUsage.cpuTicks(p.pid)
        Thread.sleep(forTimeInterval: 3)
        let used = ProcessUsage.cpuTicks(p.pid) - before
        XCTAssertLessThanOrEqual(used, 2, "a still GIF used \(used) CPU ticks in 3 s")
        assertCleanStop(p)
    }

    /// A 20000x1000 panorama, beyond the GPU's texture limit, is scaled at
    /// load to the panel: its content shows (red left, blue right,
    /// letterboxed), not a black panel with a texture-limit message.
    func testPanoramaWiderThanTheTextureLimitShowsItsContent() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 1280, height: 720)])
        let png = dir + "/panorama.png"
        try TestImages.png(left: red, right: blue, width: 20000, height: 1000, to: png)
        let p = try CLI.start(["present", png], environment: env(rig, builtin: "HEADLESS-1"))
        // Fitted into 1280x720: 1280x64, rows 328 to 391.
        let image = try XCTUnwrap(
            capture(rig, "HEADLESS-2") { self.near($0.pixel(x: 320, y: 360), self.red) },
            "panel stayed dark: \(p.stderr)")
        XCTAssertTrue(near(image.pixel(x: 320, y: 360), red), "\(image.pixel(x: 320, y: 360))")
        XCTAssertTrue(near(image.pixel(x: 960, y: 360), blue), "\(image.pixel(x: 960, y: 360))")
        XCTAssertEqual(image.pixel(x: 640, y: 200), black, "letterbox above")
        XCTAssertEqual(image.pixel(x: 640, y: 520), black, "letterbox below")
        XCTAssertTrue(
            near(image.pixel(x: 10, y: 330), red) && near(image.pixel(x: 10, y: 389), red), "the strip is 64 rows")
        XCTAssertEqual(image.pixel(x: 10, y: 325), black)
        XCTAssertEqual(image.pixel(x: 10, y: 394), black)
        XCTAssertFalse(p.stderr.contains("texture"), p.stderr)
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }

    /// A camera JPEG stored sideways with EXIF orientation 6 shows upright:
    /// portrait, the stored top half (green) on the right.
    func testEXIFRotatedJPEGShowsUpright() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 1280, height: 720)])
        let jpeg = dir + "/camera.jpg"
        try TestImages.jpeg(top: green, bottom: white, width: 128, height: 64, orientation: 6, to: jpeg)
        let p = try CLI.start(["present", jpeg], environment: env(rig, builtin: "HEADLESS-1"))
        // 64x128 upright, fitted into 1280x720: 360x720 at x 460 to 819.
        let image = try XCTUnwrap(
            capture(rig, "HEADLESS-2") { self.near($0.pixel(x: 730, y: 200), self.green, 30) }, p.stderr)
        XCTAssertTrue(near(image.pixel(x: 730, y: 200), green, 30), "right half: \(image.pixel(x: 730, y: 200))")
        XCTAssertTrue(near(image.pixel(x: 550, y: 200), white, 30), "left half: \(image.pixel(x: 550, y: 200))")
        XCTAssertEqual(image.pixel(x: 300, y: 360), black, "pillarbox: the picture is portrait")
        XCTAssertEqual(image.pixel(x: 980, y: 360), black)
        assertCleanStop(p)
    }

    /// A WebP named like a JPEG, and an SVG named .txt: recognised by content.
    func testWebPAndSVGAreRecognisedWhateverTheirNames() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let webp = dir + "/photo.jpg"
        try TestImages.webp(top: red, bottom: blue, width: 64, height: 48, to: webp)
        let p = try CLI.start(["present", webp], environment: env(rig, builtin: "HEADLESS-1"))
        let image = try XCTUnwrap(
            capture(rig, "HEADLESS-2") { self.near($0.pixel(x: 320, y: 100), self.red) }, p.stderr)
        XCTAssertTrue(near(image.pixel(x: 320, y: 380), blue), "\(image.pixel(x: 320, y: 380))")
        assertCleanStop(p)

        let svg = dir + "/drawing.txt"
        try TestImages.svg(
            width: "4", height: "3", viewBox: nil, body: "<rect width=\"4\" height=\"3\" fill=\"#00ff00\"/>"
        )
        .write(toFile: svg, atomically: true, encoding: .utf8)
        let q = try CLI.start(["present", svg], environment: env(rig, builtin: "HEADLESS-1"))
        let drawn = try XCTUnwrap(capture(rig, "HEADLESS-2") { $0.fraction(of: self.green) == 1 }, q.stderr)
        XCTAssertEqual(drawn.fraction(of: green), 1, "a 4:3 SVG fills the 4:3 panel edge to edge")
        assertCleanStop(q)
    }
}
