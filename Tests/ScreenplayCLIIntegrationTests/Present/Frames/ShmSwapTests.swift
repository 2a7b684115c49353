import Foundation
import TestHarness
import TestSupport
import XCTest

extension PlayTests {
    /// With a software renderer, frames that change everywhere one after
    /// another (a shader region) are presented by Mesa's EGL swap, not
    /// copied into the window's wl_shm buffers, and the frames that change
    /// in part (a ticker under the next picture) go back to wl_shm. What
    /// reaches the output (grim) is always the playlist's current item: it
    /// never goes back to an item already replaced, as it would if the
    /// first wl_shm frame after the swaps redrew only the band over what
    /// its buffer last held.
    func testWholeFramesInARowAreSwappedAndTheFramesAfterThemShowTheCurrentPicture() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let folder = try mediaFolder()
        let shader: UInt32 = 0xcc8019
        let photos: [UInt32] = [0x2060a0, 0xa02060, 0x60a020]
        for (index, colour) in photos.enumerated() {
            try writePNG(folder + "/photo\(index).png", colour, width: 640, height: 360)
        }
        // A constant colour the compiler cannot fold away from iTime: the
        // shader item redraws every refresh.
        try """
        void mainImage(out vec4 c, in vec2 p) {
            c = vec4(0.8, 0.5, 0.1, 1.0) * step(-2.0, sin(iTime));
        }
        """.write(toFile: folder + "/steady.frag", atomically: true, encoding: .utf8)
        let items = photos.indices.flatMap {
            [#"{"file": "steady.frag", "duration": 0.7}"#, #"{"file": "photo\#($0).png", "duration": 0.7}"#]
        }
        let playlist = try writeRegionOverBand(
            folder, items: items, transitionSeconds: 0, ticker: "Whole frames swap, bands copy  ·  ")
        var environment = rig.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let p = try CLI.start(["play", playlist], environment: environment)
        let colours = [shader] + photos
        let area = PixelRect(x: 0, y: 0, width: 640, height: 300)
        func item(_ image: RigImage) -> Int? {
            colours.firstIndex { image.fraction(of: RGB(hex: $0), tolerance: 2, in: area) == 1 }
        }
        XCTAssertTrue(
            waitUntil(timeout: 15) { (try? rig.capture(output: "HEADLESS-1")).flatMap(item) != nil },
            p.screenplayLines)
        // The area above the band, a capture every 50 ms or so over two
        // rounds of the playlist: the shader, then the next photo in turn.
        var seen: [Int] = []
        let end = Date().addingTimeInterval(8.4)
        while Date() < end {
            guard let image = try? rig.capture(output: "HEADLESS-1") else { continue }
            guard let index = item(image) else {
                XCTFail("not one whole item: \(image.pixel(x: 10, y: 10)), \(image.pixel(x: 630, y: 290))")
                continue
            }
            if seen.last != index { seen.append(index) }
            usleep(50_000)
        }
        assertCleanStop(p)
        let shown = seen.filter { $0 != 0 }
        XCTAssertGreaterThanOrEqual(shown.count, 4, "photos seen: \(seen)")
        for (a, b) in zip(seen, seen.dropFirst()) where a != 0 {
            XCTAssertEqual(b, 0, "the output went from photo \(a) to \(b), not to the shader: \(seen)")
        }
        for (a, b) in zip(shown, shown.dropFirst()) {
            XCTAssertEqual(b, a % photos.count + 1, "the photos out of turn: \(seen)")
        }
        // Mesa's swap damages the whole surface (wl_surface.damage);
        // Screenplay's wl_shm frames damage the buffer's changed rows.
        let requests = p.stderr.split(separator: "\n").filter { $0.contains(" -> wl_surface@") }
        let swapped = requests.filter { $0.contains(".damage(0, 0, 2147483647, 2147483647)") }.count
        let copiedBands = requests.filter { $0.contains(".damage_buffer(0, 300, 640, 60)") }.count
        XCTAssertGreaterThanOrEqual(swapped, 100, "whole frames swapped: \(swapped)")
        XCTAssertGreaterThanOrEqual(copiedBands, 100, "band frames through wl_shm: \(copiedBands)")
    }
}
