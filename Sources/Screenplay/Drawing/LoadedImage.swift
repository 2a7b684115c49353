import Rendering

/// An image file, recognised by its content whatever its name: PNG, JPEG
/// (EXIF orientation applied), GIF and WebP, animated or not (gdk-pixbuf),
/// and SVG (librsvg).
///
/// `load` decodes the whole file, so a damaged one fails there, before
/// anything is shown. Pictures for the screen come from
/// `picture(fitting:height:)`: an SVG is rendered at exactly the pixel
/// size it will fill, so it is sharp at any size and scale (ask again
/// when the size changes); a raster image larger than the target is scaled
/// down on the CPU with an area filter, so an image beyond the GPU's
/// texture limit (a 20000-pixel panorama) still shows, and sharply.
///
/// Loading and `pixels(fitting:height:)` may run on any thread; pictures
/// are made on the main one.
public final class LoadedImage: Sendable {
    let source: ImageSource

    /// The file it came from.
    public var path: String { source.path }
    /// The format found in the content: "png", "jpeg", "gif", "webp", "svg"
    /// (or another gdk-pixbuf loader's name).
    public var format: String { source.format }
    /// Size in pixels as the viewer sees it (after EXIF orientation). For
    /// an SVG, its own size or its viewBox's; 0x0 when it states neither
    /// (it then fills whatever it is fitted into).
    public var width: Int { source.width }
    /// The height in pixels, as `width` is the width.
    public var height: Int { source.height }
    /// Whether it has frames to play (`makeAnimation()`).
    public var isAnimated: Bool { source.isAnimated }
    /// Whether it is rendered per target size (SVG).
    public var isVector: Bool { source.isVector }

    init(source: ImageSource) { self.source = source }

    /// Reads and decodes `path`. Throws `PictureError`: `isUnreadable` for a
    /// missing or unreadable file (sysexits 66), otherwise a damaged,
    /// truncated, unknown or (from its header, before decoding) over
    /// `maxPixels` image (65); the description is one line naming the file.
    public static func load(path: String, maxPixels: Int = 8192 * 8192) throws(PictureError) -> LoadedImage {
        do {
            return LoadedImage(source: try ImageSource.load(path: path, maxPixels: maxPixels))
        } catch {
            throw PictureError(error)
        }
    }

    /// The size `picture(fitting:height:)` returns for a target: the
    /// aspect-fitted size for SVGs; for raster images that or their own
    /// size, whichever is smaller (the GPU scales small pictures up).
    public func pictureSize(fitting width: Int, height: Int) -> (width: Int, height: Int) {
        source.size(fitting: width, height: height)
    }

    /// A still picture (an animation's first frame) for a target of
    /// `width` x `height` device pixels, sized as `pictureSize` says.
    /// - Parameters:
    ///   - width: the target's width in device pixels.
    ///   - height: the target's height in device pixels.
    ///   - reusing: a picture to fill instead of making one (its texture is
    ///     re-uploaded, not made anew): for a scene that resizes.
    @MainActor
    public func picture(fitting width: Int, height: Int, reusing: Picture? = nil) throws(PictureError) -> Picture {
        let image = try pixels(fitting: width, height: height)
        guard let reusing else { return Picture(width: image.width, height: image.height, rgba: image.rgba) }
        reusing.replace(width: image.width, height: image.height, rgba: image.rgba)
        return reusing
    }

    /// What `picture(fitting:height:)` holds, made on any thread: straight
    /// RGBA rows, top first. Rendering an SVG or scaling a large photo takes
    /// a while; prepare the next item's pixels off the main thread, then
    /// make the `Picture` from them on it.
    public func pixels(fitting width: Int, height: Int) throws(PictureError) -> (width: Int, height: Int, rgba: [UInt8])
    {
        do {
            let image = try source.image(fitting: width, height: height)
            return (image.width, image.height, image.rgba)
        } catch {
            throw PictureError(error)
        }
    }

    /// Playback state of an animated image, at its first frame; nil for a
    /// still one. Each viewer keeps its own.
    @MainActor
    public func makeAnimation() -> ImageAnimationPlayer? {
        source.makeAnimation().map { ImageAnimationPlayer(image: self, animation: $0) }
    }
}

/// Plays an animated GIF or WebP on a clock the caller keeps (seconds since
/// the animation started), into one `Picture` that is updated in place.
///
/// Cheap between frames: `nextFrameDue` says when the picture next
/// changes, so a scene asks for a frame only then (nil once a finite
/// animation has ended and for good).
@MainActor
public final class ImageAnimationPlayer {
    /// The image played.
    public let image: LoadedImage
    private let animation: ImageAnimation
    private var pictureSize: (width: Int, height: Int)?
    private var current: Picture?
    private var stale = true

    init(image: LoadedImage, animation: ImageAnimation) {
        self.image = image
        self.animation = animation
    }

    /// Moves to the frame shown `elapsed` seconds after the start (earlier
    /// times restart it). Returns whether the frame changed.
    @discardableResult
    public func advance(to elapsed: Double) -> Bool {
        let changed = animation.advance(toMilliseconds: Int((max(0, elapsed) * 1000).rounded(.down)))
        if changed { stale = true }
        return changed
    }

    /// When the next frame is due, in seconds since the start; nil when the
    /// current frame stays (a finite animation that has ended).
    public var nextFrameDue: Double? { animation.nextFrameDueMilliseconds.map { Double($0) / 1000 } }

    /// How long the current frame is shown, in seconds (the file's delay);
    /// nil when it stays.
    public var frameDelay: Double? { animation.frameDelayMilliseconds.map { Double($0) / 1000 } }

    /// How many times the frame has changed since the player was made.
    public var frameChanges: Int { animation.frameChanges }

    /// The current frame for a target of `width` x `height` device pixels
    /// (scaled down when larger). The same `Picture` object each time, its
    /// pixels replaced when the frame or the size changed, so its texture
    /// is re-uploaded only then.
    public func picture(fitting width: Int, height: Int) throws(PictureError) -> Picture {
        let size = image.pictureSize(fitting: width, height: height)
        if let current, !stale, let pictureSize, pictureSize == size { return current }
        let frame: DecodedImage
        do {
            frame = try animation.image(fitting: width, height: height)
        } catch {
            throw PictureError(error)
        }
        stale = false
        pictureSize = size
        if let current {
            current.replace(width: frame.width, height: frame.height, rgba: frame.rgba)
            return current
        }
        let made = Picture(width: frame.width, height: frame.height, rgba: frame.rgba)
        current = made
        return made
    }
}

extension PictureError {
    init(_ error: ImageError) {
        self.init(isUnreadable: error.isUnreadable, description: error.description)
    }
}
