import Foundation
import TestHarness
import TestSupport
import XCTest

/// Pictures that say which canvas pixel each panel pixel shows, for the
/// wall tests: a tile's part is checked pixel for pixel.
extension ScreenplayTestCase {
    /// A temporary folder for a wall's files, removed at teardown.
    func wallFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "screenplay-wall-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    /// A picture whose every pixel spells its own place: red the low byte
    /// of x, blue the low byte of y, green their high bits; so each pixel a
    /// panel shows tells which canvas pixel it is.
    func writeCoordinatePicture(_ path: String, width: Int, height: Int) throws {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(x & 0xff)
                pixels[i + 1] = UInt8((x >> 8) | ((y >> 8) << 4))
                pixels[i + 2] = UInt8(y & 0xff)
            }
        }
        try RigImage(width: width, height: height, pixels: pixels).writePNG(to: path)
    }

    /// The canvas pixel `colour` spells (`writeCoordinatePicture`).
    func canvasPixel(_ colour: RGB) -> (x: Int, y: Int) {
        (Int(colour.r) | Int(colour.g & 0x0f) << 8, Int(colour.b) | Int(colour.g >> 4) << 8)
    }

    /// Pixels of `image` that are not the canvas pixel `expected` gives
    /// for them: how many, and the first few.
    func misplaced(_ image: RigImage, expected: (Int, Int) -> (x: Int, y: Int)) -> (count: Int, first: [String]) {
        var count = 0
        var first: [String] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let shown = canvasPixel(image.pixel(x: x, y: y)), want = expected(x, y)
                guard shown != want else { continue }
                count += 1
                if first.count < 5 { first.append("(\(x),\(y)) shows canvas \(shown), not \(want)") }
            }
        }
        return (count, first)
    }
}
