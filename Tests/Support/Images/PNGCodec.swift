// PNG for captured pixels: read (weston's screenshooter writes nothing but PNG) and written
// back for failure reports. Stored (uncompressed) deflate blocks are enough to write.
import Foundation

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
