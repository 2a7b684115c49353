import TestHarness
import XCTest

@testable import Rendering

/// The wl_shm readback puts each rectangle of the framebuffer where the
/// buffer keeps it (rows top to bottom, B, G, R, X bytes), and nothing
/// outside it, both straight in and through the flipping fallback.
final class FrameReadbackTests: OffscreenTestCase {
    private let width = 16, height = 12

    /// Every row a different blue, every column a different green, so a
    /// flipped, shifted or mirrored copy shows.
    private func paintedTarget() throws -> OffscreenTarget {
        XCTAssertTrue(context.offersBGRARenderAndReadback, "the wl_shm path needs BGRA render and readback")
        let target = try OffscreenTarget(context: context, width: width, height: height, bgra: true)
        let quads = try QuadRenderer(context: context)
        defer { quads.destroy() }
        try quads.clear(red: 0, green: 0, blue: 0, on: target)
        for y in 0..<height {
            for x in 0..<width {
                let color = Color(red: 1, green: Double(x * 16) / 255, blue: Double(y * 16) / 255)
                try quads.fill(PixelRect(x: x, y: y, width: 1, height: 1), color: color, on: target)
            }
        }
        return target
    }

    private func check(straightIn: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let target = try paintedTarget()
        defer { target.destroy() }
        var readback = FrameReadback(context: context)
        if straightIn {
            XCTAssertTrue(
                readback.readsStraightIn, "llvmpipe offers GL_ANGLE_pack_reverse_row_order", file: file, line: line)
        }
        readback.readsStraightIn = straightIn
        // A buffer wider than the target, as a stride with padding would be.
        let stride = (width + 3) * 4
        var memory = [UInt8](repeating: 7, count: stride * height)
        let rects = [PixelRect(x: 3, y: 2, width: 5, height: 4), PixelRect(x: 0, y: 9, width: width, height: 3)]
        try memory.withUnsafeMutableBytes {
            try readback.read(
                rects, of: target.framebufferObject, height: height, into: $0.baseAddress!, stride: stride)
        }
        for y in 0..<height {
            for x in 0..<(stride / 4) {
                let i = y * stride + x * 4
                let bytes = Array(memory[i..<(i + 3)])
                let inside = rects.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
                let expected: [UInt8] = inside ? [UInt8(y * 16), UInt8(x * 16), 255] : [7, 7, 7]
                XCTAssertEqual(bytes, expected, "pixel \(x),\(y) (straight in: \(straightIn))", file: file, line: line)
            }
        }
    }

    func testRectanglesLandTopRowFirstStraightIn() throws { try check(straightIn: true) }

    func testRectanglesLandTopRowFirstThroughTheFlip() throws { try check(straightIn: false) }

    /// A wall's tile: the target placed at `origin` in a smaller frame
    /// (its left columns before the frame's edge, black below it) lands
    /// pixel for pixel where it is placed, every other pixel of the frame
    /// is opaque black, and the stride's padding is left alone.
    private func checkPlaced(at origin: (x: Int, y: Int), straightIn: Bool, line: UInt = #line) throws {
        let target = try paintedTarget()
        defer { target.destroy() }
        var readback = FrameReadback(context: context)
        readback.readsStraightIn = straightIn
        let (frameWidth, frameHeight) = (14, 10)
        let stride = (frameWidth + 2) * 4
        var memory = [UInt8](repeating: 7, count: stride * frameHeight)
        try memory.withUnsafeMutableBytes {
            try readback.read(
                (target.framebufferObject, width, height), at: origin, width: frameWidth, height: frameHeight,
                into: $0.baseAddress!, stride: stride)
        }
        for y in 0..<frameHeight {
            for x in 0..<(stride / 4) {
                let i = y * stride + x * 4
                let (sx, sy) = (x - origin.x, y - origin.y)
                let expected: [UInt8]
                if x >= frameWidth {
                    expected = [7, 7, 7, 7]
                } else if sx >= 0, sx < width, sy >= 0, sy < height {
                    expected = [UInt8(sy * 16), UInt8(sx * 16), 255, 255]
                } else {
                    expected = [0, 0, 0, 255]
                }
                XCTAssertEqual(
                    Array(memory[i..<(i + 4)]), expected, "pixel \(x),\(y) (straight in: \(straightIn))", line: line)
            }
        }
    }

    func testAPlacedTargetLandsOnBlackStraightIn() throws {
        try checkPlaced(at: (-5, 3), straightIn: true)
        try checkPlaced(at: (4, -2), straightIn: true)
        try checkPlaced(at: (20, 0), straightIn: true)
    }

    func testAPlacedTargetLandsOnBlackThroughTheFlip() throws {
        try checkPlaced(at: (-5, 3), straightIn: false)
        try checkPlaced(at: (4, -2), straightIn: false)
    }

    /// The reverse row order is set for the wl_shm reads only: a read for a
    /// test or a screenshot afterwards still gets GL's order turned by hand.
    func testReadPixelsAfterwardsIsStillTopDown() throws {
        let target = try paintedTarget()
        defer { target.destroy() }
        var readback = FrameReadback(context: context)
        var memory = [UInt8](repeating: 0, count: width * 4 * height)
        try memory.withUnsafeMutableBytes {
            try readback.read(
                [PixelRect(x: 0, y: 0, width: width, height: height)], of: target.framebufferObject,
                height: height, into: $0.baseAddress!, stride: width * 4)
        }
        let pixels = try target.readPixels(x: 0, y: 0, width: width, height: height)
        XCTAssertEqual(pixel(pixels, width: width, x: 2, y: 1), [255, 32, 16, 255])
    }
}
