import Rendering

/// Pictures drawn on a frame from their cached textures
/// (`GraphicsResources.texture(for:)`): stretched into a rectangle, fitted
/// to the buffer with the aspect kept, or covering a region when nothing
/// under it would show. The calls that take it, with what they promise,
/// are `DrawingContext`'s.
@MainActor
struct PictureDrawer {
    private let context: DrawingContext

    init(on context: DrawingContext) { self.context = context }

    /// `picture` stretched to `rect`.
    func stretched(_ picture: Picture, to rect: PixelRect, opacity: Double) throws {
        let texture = try context.resources.texture(for: picture)
        try context.resources.quads().draw(texture, in: rect, on: context.target, opacity: opacity)
    }

    /// `picture` fitted to the buffer, letterboxed in `background`: held
    /// as a shared frame while it is the whole frame (`SharedFrames`).
    func fitted(_ picture: Picture, background: RGBColor) throws {
        let context = context
        let channels = [background.red, background.green, background.blue].map {
            UInt32(max(0, min(1, $0)) * 255 + 0.5)
        }
        let key = SharedFrameKey(
            source: picture.frameSource, version: picture.generation,
            variant: channels[0] << 16 | channels[1] << 8 | channels[2],
            width: context.pixelWidth, height: context.pixelHeight)
        let held = SharedFrame(key: key, source: nil) { [weak context] in
            guard let context else { return }
            try PictureDrawer(on: context).drawFitted(picture, background: background)
        }
        if context.frameInProgress.deferred.holdShared(held) { return }
        try drawFitted(picture, background: background)
    }

    private func drawFitted(_ picture: Picture, background: RGBColor) throws {
        try context.clear(background)
        let rect = aspectFit(
            contentWidth: picture.width, contentHeight: picture.height, intoWidth: context.pixelWidth,
            intoHeight: context.pixelHeight)
        try stretched(picture, to: rect, opacity: 1)
    }

    /// `picture` fitted into `rect` if it covers all of it opaquely; false
    /// (nothing drawn) otherwise.
    func covering(_ picture: Picture, in rect: SceneRect) throws -> Bool {
        let fit = aspectFit(
            contentWidth: picture.width, contentHeight: picture.height, intoWidth: rect.width,
            intoHeight: rect.height)
        guard fit.x == 0, fit.y == 0, fit.width == rect.width, fit.height == rect.height, picture.isOpaque else {
            return false
        }
        try stretched(picture, to: rect.pixelRect, opacity: 1)
        return true
    }
}
