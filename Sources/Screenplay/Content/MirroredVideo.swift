import Rendering

/// One video player's pictures shown by several scenes (one playlist on
/// several screens): libmpv decodes each frame once and renders it once,
/// at the video's own size, into a kept picture that every scene draws
/// fitted to its own rectangle and letterboxed in black, as a scene's own
/// player would. Every scene shares one GL context, so the kept picture
/// is one texture for all.
///
/// Pacing stays with one display link: the scene that steps the player
/// (`VideoPlayer.frameIsDue(pacedBy:)`) draws each new picture first and
/// reports its swap; the others draw when `serial` moved on since theirs.
@MainActor
public final class MirroredVideo {
    /// The player whose pictures are shown.
    public let player: VideoPlayer
    /// New pictures rendered into the kept picture so far: a scene whose
    /// last drawn serial differs has a new picture to show.
    public private(set) var serial = 0
    /// Where in the file (seconds) the kept picture is, as mpv reported
    /// when it was rendered; nil until known.
    public private(set) var keptPosition: Double?
    private var kept: OffscreenTarget?
    /// Its frames' source number (`SharedFrameKey`).
    private let frameSource = SharedFrameKey.newSource()

    /// Shows `player`'s pictures; `close()` closes the player too.
    public init(player: VideoPlayer) { self.player = player }

    /// A new picture is waiting to be rendered: drawing now shows it.
    public var hasNewPicture: Bool { player.hasNewPicture }

    /// Draws the current picture into the rectangle (device pixels,
    /// top-left origin), aspect kept, letterboxed in black; renders it from
    /// libmpv first when it is new (once for every scene). With `mayAdvance`
    /// false the kept picture is drawn even when a newer one waits: another
    /// scene has not shown the kept one yet, and a picture shown on some
    /// screens and never on others would tear a video wall apart (libmpv
    /// then drops a late picture for every scene alike).
    public func draw(
        x: Int, y: Int, width: Int, height: Int, on context: DrawingContext, mayAdvance: Bool = true
    ) throws {
        guard width > 0, height > 0 else { return }
        let graphics = try context.resources.context
        let size = player.displaySize ?? (width, height)
        if let current = kept, current.pixelWidth != size.width || current.pixelHeight != size.height {
            current.destroy()
            kept = nil
        }
        if kept == nil || (player.hasNewPicture && mayAdvance) {
            // In wl_shm's byte order where windows present through it: a
            // frame that is only this picture is read back from it as it is.
            let target =
                try kept
                ?? OffscreenTarget(
                    context: graphics, width: size.width, height: size.height,
                    bgra: WindowSurface.presentsThroughShm(with: graphics))
            kept = target
            try player.draw(into: target, afterPresent: &context.frameInProgress.afterPresent)
            try target.makeOpaque()
            serial += 1
            keptPosition = player.drawnPicture?.position
        }
        guard let kept else { return }
        // The whole frame is this picture: held, so a screen of this size
        // that showed it already is copied, and this one's kept picture is
        // read back as it is (black around it) where it is shown at its own
        // size (`SharedFrames`); a wall's tiles each read their part of it.
        if x == 0, y == 0, width == context.pixelWidth, height == context.pixelHeight {
            let key = SharedFrameKey(source: frameSource, version: serial, width: width, height: height)
            let fit = aspectFit(
                contentWidth: size.width, contentHeight: size.height, intoWidth: width, intoHeight: height)
            let oneToOne = (fit.width, fit.height) == size
            let held = SharedFrame(key: key, source: oneToOne ? kept : nil, origin: (fit.x, fit.y)) { [weak context] in
                guard let context else { return }
                try Self.draw(kept, size: size, x: x, y: y, width: width, height: height, on: context)
            }
            if context.frameInProgress.deferred.holdShared(held) { return }
        }
        try Self.draw(kept, size: size, x: x, y: y, width: width, height: height, on: context)
    }

    /// Draws the kept picture fitted into the rectangle, letterboxed in black.
    private static func draw(
        _ kept: OffscreenTarget, size: (width: Int, height: Int), x: Int, y: Int, width: Int, height: Int,
        on context: DrawingContext
    ) throws {
        let quads = try context.resources.quads()
        let target = context.target
        // The video's own size filling the whole buffer: copied texel for
        // pixel, the cheapest way on a software rasteriser.
        if x == 0, y == 0, width == target.pixelWidth, height == target.pixelHeight, size == (width, height) {
            try quads.copy(kept, onto: target)
            return
        }
        let fit = aspectFit(contentWidth: size.width, contentHeight: size.height, intoWidth: width, intoHeight: height)
        let picture = PixelRect(x: x + fit.x, y: y + fit.y, width: fit.width, height: fit.height)
        // Only the bars are filled: the picture covers the rest.
        for bar in [
            PixelRect(x: x, y: y, width: width, height: fit.y),
            PixelRect(x: x, y: picture.y + picture.height, width: width, height: height - fit.y - fit.height),
            PixelRect(x: x, y: picture.y, width: fit.x, height: fit.height),
            PixelRect(x: picture.x + picture.width, y: picture.y, width: width - fit.x - fit.width, height: fit.height),
        ] where bar.width > 0 && bar.height > 0 {
            try quads.fill(bar, color: .black, on: target)
        }
        try quads.draw(kept, mapping: .layer, in: picture, on: target)
    }

    /// Frees the kept picture and closes the player. Idempotent.
    public func close() {
        CurrentContext.preserving { kept?.destroy() }
        kept = nil
        player.close()
    }
}
