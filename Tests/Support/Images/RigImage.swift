// Captured pixels and the checks tests make on them. PNG is decoded by PNGCodec.swift (with
// a small inflate, Inflater.swift) because TestSupport may depend on Foundation only, and
// weston's screenshooter writes nothing but PNG.
public import Foundation

/// An 8-bit RGB colour.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    /// Creates a colour from its channels.
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Creates a colour from 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(r: UInt8((hex >> 16) & 0xff), g: UInt8((hex >> 8) & 0xff), b: UInt8(hex & 0xff))
    }

    /// The largest per-channel difference: a tolerance that means the same for every channel.
    public func distance(to other: RGB) -> Int {
        max(abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)))
    }

    public var description: String {
        "#" + [r, g, b].map { String($0, radix: 16).leftPadded(2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}

/// A rectangle in image pixels (origin top-left).
public struct PixelRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// An RGB image captured from a compositor (or loaded from a file).
public struct RigImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Row-major RGB triplets, `width * height * 3` bytes.
    public let pixels: [UInt8]

    /// Creates an image from raw RGB bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width >= 0, height >= 0, pixels.count == width * height * 3 else {
            throw RigError("RigImage: \(pixels.count) bytes do not make a \(width)x\(height) RGB image")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Loads a binary PPM (P6) or PNG file, recognised by its magic bytes.
    /// A `width` x `height` image of one colour (media for playlists).
    public static func solid(width: Int, height: Int, hex: Int) throws -> RigImage {
        let rgb = [UInt8(hex >> 16 & 0xff), UInt8(hex >> 8 & 0xff), UInt8(hex & 0xff)]
        return try RigImage(
            width: width, height: height, pixels: Array([[UInt8]](repeating: rgb, count: width * height).joined()))
    }

    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RigError("cannot read image \(path)")
        }
        if data.starts(with: PNGCodec.signature) {
            try self.init(png: data)
        } else {
            try self.init(ppm: data)
        }
    }

    /// Parses a binary PPM (P6, maxval 255), as written by `grim -t ppm`.
    public init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var pos = 0
        func token() throws -> String {
            // Header tokens are separated by whitespace; '#' starts a comment to end of line.
            while pos < bytes.count {
                if bytes[pos] == UInt8(ascii: "#") {
                    while pos < bytes.count && bytes[pos] != UInt8(ascii: "\n") { pos += 1 }
                } else if [0x20, 0x09, 0x0a, 0x0d].contains(bytes[pos]) {
                    pos += 1
                } else {
                    break
                }
            }
            let start = pos
            while pos < bytes.count && ![0x20, 0x09, 0x0a, 0x0d].contains(bytes[pos]) { pos += 1 }
            guard pos > start else { throw RigError("PPM: truncated header") }
            return String(decoding: bytes[start..<pos], as: UTF8.self)
        }
        guard try token() == "P6" else { throw RigError("PPM: not a binary P6 file") }
        guard let w = Int(try token()), let h = Int(try token()), let maxval = Int(try token()),
            maxval == 255
        else { throw RigError("PPM: unsupported header (only maxval 255)") }
        pos += 1  // exactly one whitespace byte precedes the raster
        let count = w * h * 3
        guard bytes.count - pos >= count else {
            throw RigError("PPM: raster has \(bytes.count - pos) bytes, expected \(count)")
        }
        try self.init(width: w, height: h, pixels: Array(bytes[pos..<(pos + count)]))
    }

    /// Parses an X window dump as `xwd` writes it: a ZPixmap of 24 or 32 bits a
    /// pixel with true-colour masks (what Xvfb's 24-bit screen gives).
    public init(xwd data: Data) throws {
        let bytes = [UInt8](data)
        func field(_ index: Int) -> Int {
            // The header is 25 big-endian 32-bit fields, then the window name.
            let at = index * 4
            return bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        guard bytes.count >= 100 else { throw RigError("XWD: truncated header (\(bytes.count) bytes)") }
        let headerSize = field(0), format = field(2), width = field(4), height = field(5)
        let lsbFirst = field(7) == 0, bitsPerPixel = field(11), bytesPerLine = field(12)
        let masks = [field(14), field(15), field(16)], colours = field(19)
        guard field(1) == 7, format == 2, bitsPerPixel == 24 || bitsPerPixel == 32, masks.allSatisfy({ $0 != 0 })
        else {
            throw RigError(
                "XWD: only version 7 true-colour ZPixmaps of 24 or 32 bits a pixel are read (format \(format), \(bitsPerPixel) bits)"
            )
        }
        let start = headerSize + colours * 12  // each colour map entry is 12 bytes
        guard bytes.count >= start + bytesPerLine * height else {
            throw RigError("XWD: raster has \(bytes.count - start) bytes, expected \(bytesPerLine * height)")
        }
        let step = bitsPerPixel / 8
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = start + y * bytesPerLine + x * step
                var value = 0
                for i in 0..<step { value |= Int(bytes[at + i]) << (8 * (lsbFirst ? i : step - 1 - i)) }
                for (c, mask) in masks.enumerated() {
                    rgb[(y * width + x) * 3 + c] = UInt8((value & mask) >> mask.trailingZeroBitCount & 0xff)
                }
            }
        }
        try self.init(width: width, height: height, pixels: rgb)
    }

    /// Decodes a non-interlaced PNG with 8 or 16 bits per channel (alpha is dropped).
    public init(png data: Data) throws {
        let decoded = try PNGCodec.decode([UInt8](data))
        try self.init(width: decoded.width, height: decoded.height, pixels: decoded.rgb)
    }

    /// The whole image as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The colour at (x, y); (0, 0) is top-left.
    public func pixel(x: Int, y: Int) -> RGB {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)x\(height)")
        let i = (y * width + x) * 3
        return RGB(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
    }

    /// The colour at (x, y).
    public subscript(x: Int, y: Int) -> RGB { pixel(x: x, y: y) }

    private func clipped(_ rect: PixelRect?) -> PixelRect {
        guard let rect else { return bounds }
        let x0 = max(0, rect.x)
        let y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width)
        let y1 = min(height, rect.y + rect.height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    private func forEachPixel(in rect: PixelRect?, _ body: (RGB) -> Void) {
        let r = clipped(rect)
        for y in r.y..<(r.y + r.height) {
            var i = (y * width + r.x) * 3
            for _ in 0..<r.width {
                body(RGB(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2]))
                i += 3
            }
        }
    }

    /// The share (0...1) of pixels in `rect` (default: whole image, clipped to the image)
    /// within `tolerance` of `color` on every channel. 0 for an empty rectangle.
    public func fraction(of color: RGB, tolerance: Int = 0, in rect: PixelRect? = nil) -> Double {
        let r = clipped(rect)
        guard r.width > 0 && r.height > 0 else { return 0 }
        var matching = 0
        forEachPixel(in: r) { if $0.distance(to: color) <= tolerance { matching += 1 } }
        return Double(matching) / Double(r.width * r.height)
    }

    /// True when every pixel in `rect` is within `tolerance` of the rectangle's first pixel.
    public func isUniform(in rect: PixelRect? = nil, tolerance: Int = 0) -> Bool {
        let r = clipped(rect)
        guard r.width > 0 && r.height > 0 else { return true }
        let reference = pixel(x: r.x, y: r.y)
        var uniform = true
        forEachPixel(in: r) { if $0.distance(to: reference) > tolerance { uniform = false } }
        return uniform
    }

    /// The most frequent exact colour in `rect`, useful in failure messages.
    public func mostCommonColor(in rect: PixelRect? = nil) -> RGB? {
        var counts: [RGB: Int] = [:]
        forEachPixel(in: rect) { counts[$0, default: 0] += 1 }
        return counts.max { $0.value < $1.value }?.key
    }

    /// Writes a binary PPM, for looking at a failed capture.
    public func writePPM(to path: String) throws {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: pixels)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Writes an (uncompressed) PNG, for looking at a failed capture.
    public func writePNG(to path: String) throws {
        try Data(PNGCodec.encode(width: width, height: height, rgb: pixels))
            .write(to: URL(fileURLWithPath: path))
    }
}
