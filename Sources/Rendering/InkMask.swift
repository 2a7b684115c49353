/// Which pixels of a picture have any alpha (ink), one bit a pixel, kept
/// after the pixels themselves are gone (a text block's canvas, once it is
/// a texture): drawing only the rectangles around the ink skips the empty
/// parts, and the rectangles can follow the cells of the target the
/// picture lands on (`rects(cell:originX:originY:)`).
package struct InkMask: Sendable {
    package let width: Int
    package let height: Int
    /// 64-bit words per row.
    private let rowWords: Int
    /// Row-major, bit `x % 64` of word `x / 64` of a row set where pixel x
    /// has ink.
    private let bits: [UInt64]

    /// Reads the alpha byte (byte 3 of each 32-bit pixel, as cairo's
    /// ARGB32 stores it on little-endian machines, or RGBA bytes) of
    /// `width` x `height` pixels at `stride` bytes a row.
    package init(width: Int, height: Int, alphaOf pixels: UnsafePointer<UInt8>, stride: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        rowWords = (self.width + 63) / 64
        var bits = [UInt64](repeating: 0, count: rowWords * self.height)
        for y in 0..<self.height {
            let row = pixels + y * stride
            for x in 0..<self.width where row[x * 4 + 3] != 0 {
                bits[y * rowWords + x / 64] |= 1 << UInt64(x % 64)
            }
        }
        self.bits = bits
    }

    /// Whether pixel (`x`, `y`) has ink.
    package func isInked(x: Int, y: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < height else { return false }
        return bits[y * rowWords + x / 64] & (1 << UInt64(x % 64)) != 0
    }

    /// Disjoint rectangles that together cover every inked pixel, made of
    /// `cell`-square cells whose edges fall where `x + originX` and
    /// `y + originY` are multiples of `cell` (cut at the picture's edges):
    /// drawn with its top-left at (`originX`, `originY`) of a target, the
    /// cells are the target's own `cell`-aligned blocks, which a software
    /// rasteriser shades whole (llvmpipe: 4x4 pixels), so none is shaded
    /// for a sliver. Inked cells of a band merge into runs, and equal runs
    /// of consecutive bands into one rectangle.
    package func rects(cell: Int, originX: Int = 0, originY: Int = 0) -> [PixelRect] {
        let cell = max(1, cell)
        let shiftX = ((originX % cell) + cell) % cell
        let shiftY = ((originY % cell) + cell) % cell
        // Cell i covers [i * cell - shift, (i + 1) * cell - shift), cut to the picture.
        let columns = (width + shiftX + cell - 1) / cell
        func span(_ i: Int, shift: Int, limit: Int) -> Range<Int> {
            max(0, i * cell - shift)..<min(limit, (i + 1) * cell - shift)
        }
        var rects: [PixelRect] = []
        var open: [PixelRect] = []
        var band = 0
        var accumulated = [UInt64](repeating: 0, count: rowWords)
        while band * cell - shiftY < height {
            let rows = span(band, shift: shiftY, limit: height)
            band += 1
            for w in 0..<rowWords { accumulated[w] = 0 }
            for y in rows {
                for w in 0..<rowWords { accumulated[w] |= bits[y * rowWords + w] }
            }
            var runs: [PixelRect] = []
            var column = 0
            while column < columns {
                guard any(accumulated, span(column, shift: shiftX, limit: width)) else {
                    column += 1
                    continue
                }
                let start = column
                while column < columns, any(accumulated, span(column, shift: shiftX, limit: width)) { column += 1 }
                let x = span(start, shift: shiftX, limit: width).lowerBound
                let end = span(column - 1, shift: shiftX, limit: width).upperBound
                runs.append(PixelRect(x: x, y: rows.lowerBound, width: end - x, height: rows.count))
            }
            // A run under an identical one of the band above extends it.
            var next: [PixelRect] = []
            for run in runs {
                if let i = open.firstIndex(where: {
                    $0.x == run.x && $0.width == run.width && $0.y + $0.height == rows.lowerBound
                }) {
                    var grown = open.remove(at: i)
                    grown.height += run.height
                    next.append(grown)
                } else {
                    next.append(run)
                }
            }
            rects += open
            open = next
        }
        return rects + open
    }

    /// Whether any bit of `columns` is set in `row` (one row's words).
    private func any(_ row: [UInt64], _ columns: Range<Int>) -> Bool {
        var x = columns.lowerBound
        while x < columns.upperBound {
            let word = x / 64, first = x % 64
            let count = min(64 - first, columns.upperBound - x)
            let mask = (count == 64 ? UInt64.max : (UInt64(1) << UInt64(count)) - 1) << UInt64(first)
            if row[word] & mask != 0 { return true }
            x += count
        }
        return false
    }
}
