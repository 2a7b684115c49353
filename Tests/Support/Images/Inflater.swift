// The inflate PNG needs, written here because TestSupport may depend on Foundation only.
import Foundation

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
