// Captured pixels and the checks tests make on them. PNG is decoded here (with a small
// inflate) because TestSupport may depend on Foundation only, and weston's screenshooter
// writes nothing but PNG.
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

// MARK: - PNG

enum PNGCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

    static func decode(_ bytes: [UInt8]) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        guard bytes.starts(with: signature) else { throw RigError("PNG: bad signature") }
        func be32(_ i: Int) -> Int {
            Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        var pos = 8
        var width = 0, height = 0, depth = 0, colorType = 0
        var palette: [UInt8] = []
        var compressed: [UInt8] = []
        while pos + 8 <= bytes.count {
            let length = be32(pos)
            let type = String(decoding: bytes[(pos + 4)..<(pos + 8)], as: UTF8.self)
            let body = pos + 8
            guard body + length + 4 <= bytes.count else { throw RigError("PNG: truncated chunk \(type)") }
            switch type {
            case "IHDR":
                width = be32(body)
                height = be32(body + 4)
                depth = Int(bytes[body + 8])
                colorType = Int(bytes[body + 9])
                guard bytes[body + 12] == 0 else { throw RigError("PNG: interlaced images unsupported") }
            case "PLTE": palette = Array(bytes[body..<(body + length)])
            case "IDAT": compressed.append(contentsOf: bytes[body..<(body + length)])
            default: break
            }
            if type == "IEND" { break }
            pos = body + length + 4
        }
        guard depth == 8 || depth == 16 else { throw RigError("PNG: bit depth \(depth) unsupported") }
        let channels: Int
        switch colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 3: channels = 1
        case 4: channels = 2
        case 6: channels = 4
        default: throw RigError("PNG: colour type \(colorType) unsupported")
        }
        guard colorType != 3 || depth == 8 else { throw RigError("PNG: palette depth \(depth) unsupported") }
        guard compressed.count > 2 else { throw RigError("PNG: no image data") }
        // Skip the 2-byte zlib header; the Adler-32 trailer is not checked.
        let raw = try Inflater.inflate(Array(compressed[2...]))
        let bpp = channels * depth / 8
        let stride = width * bpp
        guard raw.count >= height * (stride + 1) else {
            throw RigError("PNG: \(raw.count) bytes of scanlines, expected \(height * (stride + 1))")
        }
        var image = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let src = y * (stride + 1) + 1
            let dst = y * stride
            for i in 0..<stride {
                let a = i >= bpp ? Int(image[dst + i - bpp]) : 0
                let b = y > 0 ? Int(image[dst - stride + i]) : 0
                let c = (i >= bpp && y > 0) ? Int(image[dst - stride + i - bpp]) : 0
                let x = Int(raw[src + i])
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                default: throw RigError("PNG: bad filter type \(filter)")
                }
                image[dst + i] = UInt8((x + predicted) & 0xff)
            }
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let step = depth / 8  // for 16-bit samples, keep the high byte
        for p in 0..<(width * height) {
            let base = p * bpp
            let sample = { (channel: Int) in image[base + channel * step] }
            let o = p * 3
            switch colorType {
            case 0, 4:
                rgb[o] = sample(0)
                rgb[o + 1] = sample(0)
                rgb[o + 2] = sample(0)
            case 3:
                let index = Int(sample(0)) * 3
                guard index + 2 < palette.count else { throw RigError("PNG: palette index out of range") }
                rgb[o] = palette[index]
                rgb[o + 1] = palette[index + 1]
                rgb[o + 2] = palette[index + 2]
            default:
                rgb[o] = sample(0)
                rgb[o + 1] = sample(1)
                rgb[o + 2] = sample(2)
            }
        }
        return (width, height, rgb)
    }

    /// Stored (uncompressed) deflate blocks: debugging output only, size does not matter.
    static func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (width * 3 + 1))
        for y in 0..<height {
            raw.append(0)
            raw.append(contentsOf: rgb[(y * width * 3)..<((y + 1) * width * 3)])
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, raw.count - offset)
            let last: UInt8 = offset + n >= raw.count ? 1 : 0
            zlib.append(last)
            zlib.append(contentsOf: [UInt8(n & 0xff), UInt8(n >> 8), UInt8(~n & 0xff), UInt8((~n >> 8) & 0xff)])
            zlib.append(contentsOf: raw[offset..<(offset + n)])
            offset += n
        } while offset < raw.count
        var s1: UInt32 = 1, s2: UInt32 = 0
        for byte in raw {
            s1 = (s1 + UInt32(byte)) % 65521
            s2 = (s2 + s1) % 65521
        }
        zlib.append(contentsOf: be(s2 << 16 | s1))

        var out = signature
        func chunk(_ type: String, _ body: [UInt8]) {
            out.append(contentsOf: be(UInt32(body.count)))
            let typed = Array(type.utf8) + body
            out.append(contentsOf: typed)
            out.append(contentsOf: be(crc32(typed)))
        }
        chunk("IHDR", be(UInt32(width)) + be(UInt32(height)) + [8, 2, 0, 0, 0])
        chunk("IDAT", zlib)
        chunk("IEND", [])
        return out
    }

    private static func be(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xffff_ffff
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xffff_ffff
    }
}

/// A plain RFC 1951 decoder (canonical Huffman codes decoded bit by bit).
enum Inflater {
    private struct Bits {
        let data: [UInt8]
        var pos = 0
        var buffer = 0
        var count = 0

        mutating func take(_ n: Int) throws -> Int {
            while count < n {
                guard pos < data.count else { throw RigError("inflate: unexpected end of data") }
                buffer |= Int(data[pos]) << count
                pos += 1
                count += 8
            }
            let value = buffer & ((1 << n) - 1)
            buffer >>= n
            count -= n
            return value
        }

        mutating func alignToByte() {
            buffer = 0
            count = 0
        }
    }

    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for l in 1..<16 { offsets[l] = offsets[l - 1] + counts[l - 1] }
            for (symbol, l) in lengths.enumerated() where l != 0 {
                symbols[offsets[l]] = symbol
                offsets[l] += 1
            }
        }

        func decode(_ bits: inout Bits) throws -> Int {
            var code = 0, first = 0, index = 0
            for length in 1..<16 {
                code |= try bits.take(1)
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw RigError("inflate: invalid Huffman code")
        }
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
        2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static let fixedLiterals = Huffman(
        lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
            + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))
    private static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))

    static func inflate(_ data: [UInt8]) throws -> [UInt8] {
        var bits = Bits(data: data)
        var out: [UInt8] = []
        out.reserveCapacity(data.count * 4)
        var last = 0
        repeat {
            last = try bits.take(1)
            switch try bits.take(2) {
            case 0:
                bits.alignToByte()
                guard bits.pos + 4 <= data.count else { throw RigError("inflate: truncated stored block") }
                let n = Int(data[bits.pos]) | Int(data[bits.pos + 1]) << 8
                bits.pos += 4
                guard bits.pos + n <= data.count else { throw RigError("inflate: truncated stored block") }
                out.append(contentsOf: data[bits.pos..<(bits.pos + n)])
                bits.pos += n
            case 1:
                try inflateBlock(&bits, &out, fixedLiterals, fixedDistances)
            case 2:
                let (literals, distances) = try readDynamicTables(&bits)
                try inflateBlock(&bits, &out, literals, distances)
            default:
                throw RigError("inflate: invalid block type")
            }
        } while last == 0
        return out
    }

    private static func readDynamicTables(_ bits: inout Bits) throws -> (Huffman, Huffman) {
        let literalCount = try bits.take(5) + 257
        let distanceCount = try bits.take(5) + 1
        let codeLengthCount = try bits.take(4) + 4
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengths[codeLengthOrder[i]] = try bits.take(3) }
        let codeLengthCode = Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthCode.decode(&bits)
            switch symbol {
            case 0..<16: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw RigError("inflate: repeat with no length") }
                lengths.append(contentsOf: repeatElement(previous, count: 3 + (try bits.take(2))))
            case 17: lengths.append(contentsOf: repeatElement(0, count: 3 + (try bits.take(3))))
            default: lengths.append(contentsOf: repeatElement(0, count: 11 + (try bits.take(7))))
            }
        }
        guard lengths.count == literalCount + distanceCount else {
            throw RigError("inflate: code lengths overflow")
        }
        return (
            Huffman(lengths: Array(lengths[0..<literalCount])),
            Huffman(lengths: Array(lengths[literalCount...]))
        )
    }

    private static func inflateBlock(
        _ bits: inout Bits, _ out: inout [UInt8], _ literals: Huffman, _ distances: Huffman
    ) throws {
        while true {
            let symbol = try literals.decode(&bits)
            if symbol < 256 {
                out.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let li = symbol - 257
                guard li < lengthBase.count else { throw RigError("inflate: bad length symbol") }
                let length = lengthBase[li] + (try bits.take(lengthExtra[li]))
                let di = try distances.decode(&bits)
                guard di < distanceBase.count else { throw RigError("inflate: bad distance symbol") }
                let distance = distanceBase[di] + (try bits.take(distanceExtra[di]))
                guard distance <= out.count else { throw RigError("inflate: distance too far back") }
                let start = out.count - distance
                // Byte by byte: a match may overlap the bytes it is producing.
                for i in 0..<length { out.append(out[start + i]) }
            }
        }
    }
}
