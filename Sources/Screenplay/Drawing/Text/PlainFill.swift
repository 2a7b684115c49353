import Rendering

/// Where a frame holds nothing but the colour it was cleared to, and the
/// text blocks drawn onto it since: a block redrawn there frame after
/// frame is the same pixels each time, so it is copied whole from a layer
/// made once (`CachedText.overPlain`) instead of blended glyph by glyph.
///
/// Why: on llvmpipe a line of text blended over a scene redrawn every
/// frame (a scoreboard over its background) cost about 0.74 M
/// instructions a frame, 40 % more than the cleared frame itself
/// (`scripts/frame-instructions.sh text-30fps`); a copy of its rows is a
/// memcpy each (`PartCopy`).
///
/// Kept by `FrameInProgress`: a clear starts it, any other drawing call
/// ends it (it reaches for the target), and a text block drawn on it
/// (copied or blended) marks its rectangle, so a block over another is
/// blended as text.
struct PlainFill {
    /// The colour cleared to.
    var color: RGBColor
    /// The part of the target the clear filled (the clip, or all of it).
    var rect: PixelRect
    /// The rectangles text blocks were drawn on since.
    var covered: [PixelRect] = []

    /// Whether `written` lies in the plain colour and on no text block.
    func holds(_ written: PixelRect) -> Bool {
        written.intersection(rect) == written && !covered.contains { $0.intersection(written) != nil }
    }
}

extension TextDrawer {
    /// Draws a text block with its top-left at (`x`, `y`): where the frame
    /// holds only the plain colour it was cleared to and the block is
    /// redrawn there frame after frame, copied whole; blended where it has
    /// ink otherwise.
    func draw(_ block: CachedText, x: Int, y: Int) throws {
        let quads = try context.resources.quads()
        let frame = context.frameInProgress
        func blend(on target: any RenderTarget) throws {
            try quads.draw(block.texture, regions: block.ink(x: x, y: y), x: Double(x), y: Double(y), on: target)
        }
        guard let copier = PartCopy(context: quads.context), let plain = frame.plain, frame.deferred.holdsNothing
        else { return try blend(on: context.target) }
        let target = frame.targetKeepingPlain
        let bounds = PixelRect(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
        let placed = PixelRect(x: x, y: y, width: block.texture.width, height: block.texture.height)
        // What the block changes: its part inside the target and the clip.
        guard let written = placed.intersection(target.clip ?? bounds).flatMap({ $0.intersection(bounds) }) else {
            return
        }
        guard plain.holds(written) else { return try blend(on: context.target) }
        // No longer the plain colour there, whichever way it is drawn.
        frame.coveredOverPlain(written)
        let upsideDown = copier.storesUpsideDown(for: target)
        let redrawn = block.redrawnOverPlain(on: ObjectIdentifier(target), at: monotonicNanoseconds())
        guard redrawn || block.keepsOverPlain(plain.color, upsideDown: upsideDown) else { return try blend(on: target) }
        let layer = try block.overPlain(plain.color, upsideDown: upsideDown, quads: quads, copier: copier)
        let part = PixelRect(x: written.x - x, y: written.y - y, width: written.width, height: written.height)
        try copier.copy(layer, upsideDown: upsideDown, part: part, at: written.x, written.y, onto: target)
        try context.resources.textCopiesOverPlain += 1
    }
}
