import Rendering

/// Decoded RGBA pixels: an image file or pixels the app made.
@MainActor
public final class Picture {
    /// Width in pixels.
    public private(set) var width: Int
    /// Height in pixels.
    public private(set) var height: Int
    private(set) var rgba: [UInt8]
    /// Counts replacements, so the texture cache knows to upload again.
    private(set) var generation = 0
    /// Its frames' source number (`SharedFrameKey`): a frame that is only
    /// this picture, fitted, is copied between screens of one size.
    let frameSource = SharedFrameKey.newSource()
    /// Whether every pixel's alpha is 255, and for which generation.
    private var opacity: (generation: Int, isOpaque: Bool)?

    /// No pixel is transparent at all (read once per content), so the
    /// picture drawn covers whatever lay under it.
    public var isOpaque: Bool {
        if let opacity, opacity.generation == generation { return opacity.isOpaque }
        var opaque = true
        rgba.withUnsafeBufferPointer { bytes in
            var index = 3
            while index < bytes.count {
                if bytes[index] != 255 {
                    opaque = false
                    return
                }
                index += 4
            }
        }
        opacity = (generation, opaque)
        return opaque
    }

    /// Straight (not premultiplied) RGBA rows, top first.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "RGBA data must be width*height*4 bytes")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    // Its texture is freed on the main thread soon after, not at some
    // later upload.
    deinit { noteGraphicsOwnerReleased() }

    /// Replaces the pixels (straight RGBA rows, top first); the texture is
    /// uploaded again on the next draw. One picture for content that changes
    /// (an animation's frames, an SVG rendered for a new size) keeps one
    /// texture and uploads in place; a new picture each time makes a new
    /// texture (each dropped one's is freed right after it is released).
    public func replace(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "RGBA data must be width*height*4 bytes")
        self.width = width
        self.height = height
        self.rgba = rgba
        generation += 1
    }
}

extension Picture {
    /// Decodes an image file at its own size (an animation's first frame,
    /// an SVG at its natural size); `LoadedImage` does more: pictures sized
    /// for a screen, animation. Refuses images over `maxPixels` from the
    /// header, before decoding.
    public static func load(path: String, maxPixels: Int = 8192 * 8192) throws(PictureError) -> Picture {
        let image = try LoadedImage.load(path: path, maxPixels: maxPixels)
        return try image.picture(fitting: max(image.width, 1), height: max(image.height, 1))
    }
}
