import Rendering

/// Decoded RGBA pixels: an image file or pixels the app made.
@MainActor
public final class Picture {
    public let width: Int
    public let height: Int
    let rgba: [UInt8]

    /// Straight (not premultiplied) RGBA rows, top first.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "RGBA data must be width*height*4 bytes")
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}

extension Picture {
    /// Decodes a PNG or JPEG file (gdk-pixbuf). Refuses images over
    /// `maxPixels` from the header, before decoding.
    public static func load(path: String, maxPixels: Int = 8192 * 8192) throws(PictureError) -> Picture {
        do {
            let image = try ImageLoader.load(path: path, maxPixels: maxPixels)
            return Picture(width: image.width, height: image.height, rgba: image.rgba)
        } catch let error as ImageError {
            throw PictureError(isUnreadable: error.isUnreadable, description: error.description)
        } catch {
            throw PictureError(isUnreadable: false, description: "\(path): \(error)")
        }
    }
}
