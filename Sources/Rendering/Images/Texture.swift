import CEGL

/// An RGBA8 texture holding premultiplied-alpha pixels, row 0 at the top.
package final class Texture {
    package let context: GraphicsContext
    package let width: Int
    package let height: Int
    private(set) var name: GLuint = 0
    private var nearest = false
    /// The format the storage was last specified with (glTexImage2D).
    private var storageFormat: Int32?

    /// Uploads `width * height` RGBA pixels (rows top to bottom).
    /// - Parameter premultiplied: whether colour is already multiplied by
    ///   alpha; straight alpha (as from `ImageSource`) is converted, because
    ///   linear filtering of straight alpha leaves dark fringes.
    package init(context: GraphicsContext, width: Int, height: Int, rgba: [UInt8], premultiplied: Bool = false) throws {
        self.context = context
        self.width = width
        self.height = height
        try Self.validate(width: width, height: height, byteCount: rgba.count, context: context)
        try create()
        try upload(rgba: rgba, premultiplied: premultiplied)
    }

    /// Uploads pixels, first scaled down on the CPU (aspect kept, area
    /// filter) when a side exceeds the GPU's texture limit: an oversized
    /// picture shows, smaller, rather than failing to upload (black).
    package static func fitted(
        context: GraphicsContext, width: Int, height: Int, rgba: [UInt8], premultiplied: Bool = false
    ) throws -> Texture {
        guard max(width, height) > context.maxTextureSize, rgba.count == width * height * 4 else {
            return try Texture(context: context, width: width, height: height, rgba: rgba, premultiplied: premultiplied)
        }
        let scaled = DecodedImage(width: width, height: height, rgba: rgba).scaledDown(toFit: context.maxTextureSize)
        return try Texture(
            context: context, width: scaled.width, height: scaled.height, rgba: scaled.rgba,
            premultiplied: premultiplied)
    }

    /// Uploads a decoded image.
    package convenience init(context: GraphicsContext, image: DecodedImage) throws {
        try self.init(
            context: context, width: image.width, height: image.height, rgba: image.rgba, premultiplied: false)
    }

    /// Uploads cairo ARGB32 pixels (premultiplied, native-endian 32-bit words).
    package init(context: GraphicsContext, width: Int, height: Int, cairoPixels: UnsafePointer<UInt8>, stride: Int)
        throws
    {
        self.context = context
        self.width = width
        self.height = height
        try Self.validate(width: width, height: height, byteCount: nil, context: context)
        try create()
        try upload(cairoPixels: cairoPixels, stride: stride)
    }

    private static func validate(width: Int, height: Int, byteCount: Int?, context: GraphicsContext) throws {
        guard width > 0, height > 0 else {
            throw RenderingError.invalidSize(what: "texture", detail: "\(width)x\(height)")
        }
        guard width <= context.maxTextureSize, height <= context.maxTextureSize else {
            throw RenderingError.tooLarge(
                what: "texture", width: width, height: height, maxSize: context.maxTextureSize)
        }
        if let byteCount, byteCount != width * height * 4 {
            throw RenderingError.invalidSize(
                what: "texture",
                detail: "\(width)x\(height) RGBA needs \(width * height * 4) bytes, got \(byteCount)")
        }
    }

    /// Switches the bound texture between nearest and bilinear sampling
    /// (bilinear after creation); only calls GL when it changes.
    func setNearestFiltering(_ on: Bool) {
        guard on != nearest else { return }
        nearest = on
        let filter = on ? GL_NEAREST : GL_LINEAR
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
    }

    private func create() throws {
        try context.ensureCurrent()
        _ = drainGLErrors()
        glGenTextures(1, &name)
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        // Non-power-of-two textures in ES 2 work only with clamping and no mipmaps.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        try checkGL("glGenTextures")
    }

    /// Replaces the pixels; same size and layout as the initializer.
    package func update(rgba: [UInt8], premultiplied: Bool = false) throws {
        try Self.validate(width: width, height: height, byteCount: rgba.count, context: context)
        try upload(rgba: rgba, premultiplied: premultiplied)
    }

    private func upload(rgba: [UInt8], premultiplied: Bool) throws {
        if premultiplied {
            try upload(pointer: rgba, format: GL_RGBA)
            return
        }
        var converted = rgba
        converted.withUnsafeMutableBufferPointer { pixels in
            var i = 0
            while i < pixels.count {
                let alpha = UInt32(pixels[i + 3])
                if alpha != 255 {
                    pixels[i] = UInt8((UInt32(pixels[i]) * alpha + 127) / 255)
                    pixels[i + 1] = UInt8((UInt32(pixels[i + 1]) * alpha + 127) / 255)
                    pixels[i + 2] = UInt8((UInt32(pixels[i + 2]) * alpha + 127) / 255)
                }
                i += 4
            }
        }
        try upload(pointer: converted, format: GL_RGBA)
    }

    /// Uploads cairo pixels, repacking only when GL cannot take them as they are.
    func upload(cairoPixels: UnsafePointer<UInt8>, stride: Int) throws {
        let rowBytes = width * 4
        let isLittleEndian = 1.littleEndian == 1
        if context.hasBGRAUpload && isLittleEndian && stride == rowBytes {
            // Little-endian ARGB32 words are B, G, R, A bytes: GL_BGRA_EXT.
            try upload(pointer: cairoPixels, format: GL_BGRA_EXT)
            return
        }
        var rgba = [UInt8](repeating: 0, count: rowBytes * height)
        let raw = UnsafeRawPointer(cairoPixels)
        for row in 0..<height {
            for column in 0..<width {
                let word = raw.loadUnaligned(fromByteOffset: row * stride + column * 4, as: UInt32.self)
                let out = row * rowBytes + column * 4
                rgba[out] = UInt8(truncatingIfNeeded: word >> 16)
                rgba[out + 1] = UInt8(truncatingIfNeeded: word >> 8)
                rgba[out + 2] = UInt8(truncatingIfNeeded: word)
                rgba[out + 3] = UInt8(truncatingIfNeeded: word >> 24)
            }
        }
        try upload(pointer: rgba, format: GL_RGBA)
    }

    private func upload(pointer: UnsafeRawPointer, format: Int32) throws {
        guard name != 0 else { throw RenderingError.destroyed(what: "Texture") }
        try context.ensureCurrent()
        _ = drainGLErrors()
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        // EXT_texture_format_BGRA8888 needs the internal format to equal the
        // upload format: storage is specified again only when the format
        // changes, so a texture written again (a text block's, reused) keeps
        // its memory rather than having the driver free and allocate it.
        if storageFormat == format {
            glTexSubImage2D(
                GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height), GLenum(format),
                GLenum(GL_UNSIGNED_BYTE), pointer)
        } else {
            glTexImage2D(
                GLenum(GL_TEXTURE_2D), 0, format, GLsizei(width), GLsizei(height), 0, GLenum(format),
                GLenum(GL_UNSIGNED_BYTE), pointer)
            storageFormat = nil
        }
        try checkGL("texture upload (\(width)x\(height))")
        storageFormat = format
    }

    /// Replaces the pixels with ARGB32 words of the same size (cairo's, or a
    /// wl_shm ARGB8888/XRGB8888 buffer's).
    package func update(cairoPixels: UnsafePointer<UInt8>, stride: Int) throws {
        try upload(cairoPixels: cairoPixels, stride: stride)
    }

    /// A texture whose storage is `eglImage` (GL_OES_EGL_image): the image's
    /// pixels are sampled where they are, never copied. The image must
    /// outlive the texture's use.
    package init(context: GraphicsContext, width: Int, height: Int, eglImage: UnsafeMutableRawPointer) throws {
        self.context = context
        self.width = width
        self.height = height
        try Self.validate(width: width, height: height, byteCount: nil, context: context)
        try create()
        guard screenplay_gl_egl_image_target_texture_2d(eglImage) != 0 else {
            destroy()
            throw RenderingError.gl(
                call: "glEGLImageTargetTexture2DOES",
                error: "\(context.renderer) lacks GL_OES_EGL_image, which a web page's frame needs")
        }
        try checkGL("glEGLImageTargetTexture2DOES (\(width)x\(height))")
    }

    /// Samples alpha as 1 (GLES 3's swizzle): an XRGB8888 buffer's fourth
    /// byte is undefined, and blending would take it for transparency.
    package func ignoreAlpha() throws {
        guard context.glesMajorVersion >= 3 else { return }
        try context.ensureCurrent()
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_SWIZZLE_A), GL_ONE)
    }

    /// Frees the texture. Idempotent; also run by deinit.
    package func destroy() {
        guard name != 0 else { return }
        if (try? context.ensureCurrent()) != nil { glDeleteTextures(1, &name) }
        name = 0
    }

    deinit { destroy() }
}
