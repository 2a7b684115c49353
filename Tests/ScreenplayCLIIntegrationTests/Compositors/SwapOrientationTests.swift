import Foundation
import TestHarness
import TestSupport
import XCTest

/// With a software renderer, frames that change everywhere one after
/// another are drawn into Mesa's EGL window surface and swapped; the rest
/// are drawn into a framebuffer object copied into wl_shm. Either way the
/// top of the content is at the top of the output (grim), as `present` and
/// `play` run with no settings, seconds after the swaps began.
extension PlayTests {
    /// A gradient shader (`fragCoord` from the bottom left, as on
    /// Shadertoy: green grows upwards, red rightwards). `present` draws it
    /// every refresh, so its frames are swapped from the third on. The
    /// first gradient's uniforms never change from frame to frame (the
    /// case where GL kept the framebuffer object's flip of gl_FragCoord
    /// after the switch to the window), the second reads iTime and pulses.
    func testAGradientShaderIsUprightOnceItsFramesAreSwapped() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let still = "c = vec4(p.x / iResolution.x, p.y / iResolution.y, 0.5, 1.0);"
        let pulsing = "c = vec4(p.x / iResolution.x, p.y / iResolution.y, 0.5 + 0.5 * sin(iTime * 3.0), 1.0);"
        for (name, body) in [("still", still), ("pulsing", pulsing)] {
            let frag = try temporaryShader("upright-\(name)", "void mainImage(out vec4 c, in vec2 p) { \(body) }")
            var environment = rig.clientEnvironment
            environment["WAYLAND_DEBUG"] = "client"
            let p = try CLI.start(["present", "--all", frag], environment: environment)
            XCTAssertTrue(
                waitUntil(timeout: 15) {
                    (try? rig.capture(output: "HEADLESS-1")).map { $0.pixel(x: 638, y: 180).r > 200 } ?? false
                }, "\(name): the shader never reached the output")
            // Dozens of frames after the first two: swapped by now.
            usleep(1_500_000)
            var blues: Set<UInt8> = []
            for _ in 0..<8 {
                let image = try rig.capture(output: "HEADLESS-1")
                let wrong = wrongGradientCorners(image)
                XCTAssertEqual(wrong, [], "\(name): the gradient is not upright (green at the top only): \(wrong)")
                // The middle rows are half green either way; their neighbours tell.
                XCTAssertGreaterThan(
                    image.pixel(x: 320, y: 170).g, image.pixel(x: 320, y: 190).g, "\(name): green grows upwards")
                blues.insert(image.pixel(x: 320, y: 180).b)
                usleep(400_000)
            }
            assertCleanStop(p)
            if name == "pulsing" { XCTAssertGreaterThan(blues.count, 1, "the shader did not animate: \(blues)") }
            // Mesa's swap damages the whole surface (wl_surface.damage);
            // Screenplay's wl_shm frames damage the buffer.
            let swapped = p.stderr.split(separator: "\n").filter {
                $0.contains(" -> wl_surface@") && $0.contains(".damage(0, 0, 2147483647, 2147483647)")
            }
            XCTAssertGreaterThanOrEqual(swapped.count, 100, "\(name): whole frames swapped: \(swapped.count)")
        }
    }

    /// The corners of a 640x360 capture that are not the gradient's red
    /// and green there (top-left pixels: green at the top).
    private func wrongGradientCorners(_ image: RigImage) -> [String] {
        let corners: [(name: String, x: Int, y: Int, r: Int, g: Int)] = [
            ("top-left", 1, 1, 0, 255), ("top-right", 638, 1, 255, 255),
            ("bottom-left", 1, 358, 0, 0), ("bottom-right", 638, 358, 255, 0),
        ]
        return corners.compactMap { corner in
            let pixel = image.pixel(x: corner.x, y: corner.y)
            let near = abs(Int(pixel.r) - corner.r) <= 6 && abs(Int(pixel.g) - corner.g) <= 6
            return near ? nil : "\(corner.name) \(pixel)"
        }
    }

    /// Pictures whose top half is red and bottom half blue (the second's
    /// with green added), crossfading into each other (whole frames in a
    /// row: swapped) under a ticker band at the bottom (frames that change
    /// in part: wl_shm). Every capture has the red half at the top, the
    /// blue half below it and the band at the bottom.
    func testCrossfadingPicturesAndABandKeepTheirOrientationWhenSwapped() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let folder = try mediaFolder()
        for (index, green) in [UInt8(0), 255].enumerated() {
            var pixels = [UInt8](repeating: 0, count: 640 * 360 * 3)
            for y in 0..<360 {
                for x in 0..<640 {
                    let i = (y * 640 + x) * 3
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = y < 180 ? (255, green, 0) : (0, green, 255)
                }
            }
            try RigImage(width: 640, height: 360, pixels: pixels).writePNG(to: folder + "/half\(index).png")
        }
        let playlist = try writeRegionOverBand(
            folder, items: [#"{"file": "half0.png", "duration": 1.2}"#, #"{"file": "half1.png", "duration": 1.2}"#],
            transitionSeconds: 0.8, ticker: "Upright through the swap  ·  ")
        var environment = rig.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let p = try CLI.start(["play", playlist], environment: environment)
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                (try? rig.capture(output: "HEADLESS-1")).map { $0.pixel(x: 320, y: 20).r > 200 } ?? false
            }, p.screenplayLines)
        var greens: Set<UInt8> = []
        let end = Date().addingTimeInterval(6)
        while Date() < end {
            guard let image = try? rig.capture(output: "HEADLESS-1") else { continue }
            let top = image.pixel(x: 320, y: 20)
            let lower = image.pixel(x: 320, y: 240)
            XCTAssertTrue(top.r > 200 && top.b < 55, "the top is not the pictures' top half: \(top)")
            XCTAssertTrue(lower.r < 55 && lower.b > 200, "below the middle is not their bottom half: \(lower)")
            // The band covers rows 300 to 359, whatever the picture.
            XCTAssertFalse(
                (300..<360).allSatisfy { image.pixel(x: 5, y: $0) == image.pixel(x: 5, y: 240) },
                "no band at the bottom: \(image.pixel(x: 5, y: 330))")
            greens.insert(top.g)
            usleep(100_000)
        }
        assertCleanStop(p)
        XCTAssertGreaterThan(greens.count, 2, "no crossfade seen: greens \(greens.sorted())")
        let requests = p.stderr.split(separator: "\n").filter { $0.contains(" -> wl_surface@") }
        let swapped = requests.filter { $0.contains(".damage(0, 0, 2147483647, 2147483647)") }.count
        let copiedBands = requests.filter { $0.contains(".damage_buffer(0, 300, 640, 60)") }.count
        // Both paths ran: here about 150 to 230 swapped frames and 80 to
        // 100 band frames, 59 band frames once beside a busy core.
        XCTAssertGreaterThanOrEqual(swapped, 20, "crossfade frames swapped: \(swapped)")
        XCTAssertGreaterThanOrEqual(copiedBands, 20, "band frames through wl_shm: \(copiedBands)")
    }

    /// A 640x360 playlist: `items` in a region over the whole panel, and a
    /// ticker band over its bottom 60 rows.
    func writeRegionOverBand(
        _ folder: String, items: [String], transitionSeconds: Double, ticker: String
    ) throws -> String {
        try writePlaylist(
            folder,
            """
            {"transition": {"seconds": \(transitionSeconds)},
             "layouts": {"m": {"background": "000000", "regions": [
                {"name": "photo", "x": 0, "y": 0, "width": "100%", "height": "100%",
                 "items": [\(items.joined(separator: ", "))]},
                {"name": "news", "x": 0, "y": 300, "width": 640, "height": 60, "z": 1,
                 "items": [{"ticker": "\(ticker)", "speed": 120, "size": 30}]}]}},
             "panels": [{"match": "*", "layout": "m"}]}
            """)
    }
}
