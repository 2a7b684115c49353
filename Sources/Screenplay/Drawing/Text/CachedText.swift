import Rendering

/// A laid-out text block: its texture and which of its pixels have ink.
final class CachedText {
    let texture: Texture
    var lastUse: UInt64
    private let mask: InkMask?
    /// The inked rectangles for each placement modulo `inkCell`, made at
    /// the first draw there (a block drawn in one place makes one).
    private var inkByPhase: [Int: [PixelRect]] = [:]
    /// Cells of 8 pixels on the target's own grid. llvmpipe draws these
    /// rectangles on its linear path (QuadPrograms.regionsFragment), a
    /// row at a time, where each row of each rectangle costs a call and
    /// each pixel its blend: 8-pixel cells (fewer, wider rectangles, a few
    /// more pixels) cost 2.51 M instructions a frame for the text scene,
    /// 4-pixel cells 2.61 M, 16-pixel 2.60 M and the whole block 3.05 M
    /// (`scripts/frame-instructions.sh text-30fps`). Off that path (a tile
    /// that also holds a triangle) llvmpipe shades 4x4 blocks whole, which
    /// an 8-pixel grid on the target's own grid also never splits.
    private static let inkCell = 8

    /// The block over a plain colour, one opaque layer for each way up
    /// (`PartCopy.storesUpsideDown(for:)`), made when the block is
    /// redrawn over that colour (`PlainFill`).
    private var overPlain: [Bool: (color: RGBColor, layer: OffscreenTarget)] = [:]
    /// When the block was last drawn over a plain colour, per target
    /// (`redrawnOverPlain(on:at:)`).
    private var lastOverPlain: [ObjectIdentifier: UInt64] = [:]
    /// A redraw this soon after the last on the same target is an animated
    /// scene's next frame (10 frames a second or more).
    private static let redrawWithin: UInt64 = 100_000_000

    init(texture: Texture, mask: InkMask?, lastUse: UInt64) {
        self.texture = texture
        self.mask = mask
        self.lastUse = lastUse
    }

    /// The parts with ink, as rectangles of the texture, for the block
    /// drawn with its top-left at (`x`, `y`) of the target: the whole
    /// texture if its pixels could not be read.
    func ink(x: Int, y: Int) -> [PixelRect] {
        guard let mask else { return [PixelRect(x: 0, y: 0, width: texture.width, height: texture.height)] }
        let cell = Self.inkCell
        let phase = ((x % cell) + cell) % cell * cell + ((y % cell) + cell) % cell
        if let rects = inkByPhase[phase] { return rects }
        let rects = mask.rects(cell: cell, originX: x, originY: y)
        inkByPhase[phase] = rects
        return rects
    }

    /// Whether the block was drawn over a plain colour on `target` less
    /// than `redrawWithin` before `now` (monotonic nanoseconds), noting
    /// this draw. Only such a block is worth a layer: text drawn once, or
    /// now and then (a clock's second, a text slide on two panels), would
    /// pay a clear, a blend of the whole block and the layer's memory for
    /// nothing.
    func redrawnOverPlain(on target: ObjectIdentifier, at now: UInt64) -> Bool {
        let previous = lastOverPlain[target]
        // A few targets at most (one per window and layer it is drawn on).
        if previous == nil, lastOverPlain.count >= 8 { lastOverPlain = [:] }
        lastOverPlain[target] = now
        return previous.map { now &- $0 <= Self.redrawWithin } ?? false
    }

    /// Whether a layer of the block over `color`, stored that way up, is kept.
    func keepsOverPlain(_ color: RGBColor, upsideDown: Bool) -> Bool { overPlain[upsideDown]?.color == color }

    /// The block drawn over `color`, opaque, stored for copying onto a
    /// target of that way up: made (one clear and one draw of the whole
    /// block, the same blend as on a window) unless kept from before.
    func overPlain(_ color: RGBColor, upsideDown: Bool, quads: QuadRenderer, copier: PartCopy) throws
        -> OffscreenTarget
    {
        if let kept = overPlain[upsideDown], kept.color == color { return kept.layer }
        overPlain.removeValue(forKey: upsideDown)?.layer.destroy()
        let bgra = quads.context.offersBGRARenderAndReadback
        let (w, h) = (texture.width, texture.height)
        var layer = try OffscreenTarget(context: quads.context, width: w, height: h, bgra: bgra)
        do {
            try quads.clear(red: color.red, green: color.green, blue: color.blue, on: layer)
            // The whole block: its empty texels leave the colour as it is.
            try quads.draw(
                texture, regions: [PixelRect(x: 0, y: 0, width: w, height: h)], x: 0, y: 0, on: layer,
                opaqueTarget: true)
            if upsideDown {
                let turned = try copier.upsideDown(layer, bgra: bgra)
                layer.destroy()
                layer = turned
            }
        } catch {
            layer.destroy()
            throw error
        }
        overPlain[upsideDown] = (color, layer)
        return layer
    }

    /// Frees the layers over plain colours (the block evicted or the GL
    /// objects going).
    func releasePlainCopies() {
        for kept in overPlain.values { kept.layer.destroy() }
        overPlain = [:]
    }
}
