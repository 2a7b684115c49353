import Foundation
import TestHarness
import TestSupport
import XCTest

extension PlayTests {
    /// With a software renderer a frame that changes everywhere (a photo
    /// region's next picture) is presented by Mesa's EGL swap, not copied
    /// into the window's wl_shm buffers, while the ticker's frames between
    /// are: and what reaches the output (grim) never goes back to a
    /// picture already replaced, as it would if a wl_shm frame after a swap
    /// redrew only the band over the picture its buffer last held.
    func testFramesThatChangeEverywhereAreSwappedAndTheBandsFramesBetweenShowTheCurrentPicture() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let folder = try mediaFolder()
        let colours: [UInt32] = [0x2060a0, 0xa02060, 0x60a020]
        for (index, colour) in colours.enumerated() {
            try writePNG(folder + "/photo\(index).png", colour, width: 640, height: 360)
        }
        let pictures = colours.indices.map { #"{"file": "photo\#($0).png", "duration": 0.7}"# }
        let playlist = try writePlaylist(
            folder,
            """
            {"transition": {"seconds": 0},
             "layouts": {"m": {"background": "000000", "regions": [
                {"name": "photo", "x": 0, "y": 0, "width": "100%", "height": "100%",
                 "items": [\(pictures.joined(separator: ", "))]},
                {"name": "news", "x": 0, "y": 300, "width": 640, "height": 60, "z": 1,
                 "items": [{"ticker": "Whole frames swap, bands copy  ·  ", "speed": 120, "size": 30}]}]}},
             "panels": [{"match": "*", "layout": "m"}]}
            """)
        var environment = rig.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let p = try CLI.start(["play", playlist], environment: environment)
        let area = PixelRect(x: 0, y: 0, width: 640, height: 300)
        func picture(_ image: RigImage) -> Int? {
            colours.firstIndex { image.fraction(of: RGB(hex: $0), in: area) == 1 }
        }
        XCTAssertTrue(
            waitUntil(timeout: 15) { (try? rig.capture(output: "HEADLESS-1")).flatMap(picture) != nil },
            p.screenplayLines)
        // The photo above the band, a capture every 50-100 ms over four
        // rounds of the three pictures: runs of one colour, in the
        // playlist's order.
        var seen: [Int] = []
        let end = Date().addingTimeInterval(8.4)
        while Date() < end {
            guard let image = try? rig.capture(output: "HEADLESS-1") else { continue }
            guard let index = picture(image) else {
                XCTFail(
                    "the photo area is not one whole picture: \(image.pixel(x: 10, y: 10)), \(image.pixel(x: 630, y: 290))"
                )
                continue
            }
            if seen.last != index { seen.append(index) }
            usleep(50_000)
        }
        assertCleanStop(p)
        XCTAssertGreaterThanOrEqual(seen.count, 9, "pictures seen in turn: \(seen)")
        for (a, b) in zip(seen, seen.dropFirst()) {
            XCTAssertEqual(b, (a + 1) % colours.count, "the output went from picture \(a) to \(b): \(seen)")
        }
        // Mesa's swap damages the whole surface (wl_surface.damage);
        // Screenplay's wl_shm frames damage the buffer's changed rows.
        let requests = p.stderr.split(separator: "\n").filter { $0.contains(" -> wl_surface@") }
        let swapped = requests.filter { $0.contains(".damage(0, 0, 2147483647, 2147483647)") }.count
        let copiedBands = requests.filter { $0.contains(".damage_buffer(0, 300, 640, 60)") }.count
        XCTAssertGreaterThanOrEqual(swapped, 9, "whole frames swapped: \(swapped)")
        XCTAssertGreaterThanOrEqual(copiedBands, 100, "band frames through wl_shm: \(copiedBands)")
    }
}
