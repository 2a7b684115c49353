import CEGL

/// A framebuffer object with an RGBA8 colour texture: a render target that
/// needs no window system, for tests, benchmarks and read-back.
package final class OffscreenTarget: RenderTarget {
    package let context: GraphicsContext
    package let pixelWidth: Int
    package let pixelHeight: Int
    package var clip: PixelRect?
    private var framebuffer: GLuint = 0
    private var colorTexture: GLuint = 0

    /// - Parameter bgra: a GL_BGRA_EXT colour texture, whose bytes read back
    ///   with GL_BGRA_EXT unconverted (wl_shm's XRGB8888); needs
    ///   `GraphicsContext.offersBGRARenderAndReadback`.
    package init(context: GraphicsContext, width: Int, height: Int, bgra: Bool = false) throws {
        guard width > 0, height > 0 else {
            throw RenderingError.invalidSize(what: "offscreen target", detail: "\(width)x\(height)")
        }
        guard width <= context.maxTextureSize, height <= context.maxTextureSize else {
            throw RenderingError.tooLarge(
                what: "offscreen target", width: width, height: height, maxSize: context.maxTextureSize)
        }
        self.context = context
        pixelWidth = width
        pixelHeight = height
        try context.ensureCurrent()
        _ = drainGLErrors()
        // A texture rather than a renderbuffer: RGBA8 renderbuffers are not
        // core in ES 2 (GL_OES_rgb8_rgba8), RGBA/UNSIGNED_BYTE textures are.
        glGenTextures(1, &colorTexture)
        glBindTexture(GLenum(GL_TEXTURE_2D), colorTexture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        let format = bgra ? GL_BGRA_EXT : GL_RGBA
        glTexImage2D(
            GLenum(GL_TEXTURE_2D), 0, format, GLsizei(width), GLsizei(height), 0,
            GLenum(format), GLenum(GL_UNSIGNED_BYTE), nil)
        try checkGL("glTexImage2D(\(width)x\(height) render target)")
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(
            GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), colorTexture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderingError.incompleteFramebuffer(status: "0x" + String(status, radix: 16))
        }
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }

    /// The colour texture, to draw the target's content elsewhere
    /// (QuadRenderer's `.layer` mapping: row 0 is the bottom).
    var textureName: GLuint { colorTexture }

    package var framebufferObject: UInt32 { framebuffer }

    /// Binds the framebuffer object and sets a full-target viewport.
    package func makeCurrent() throws {
        guard framebuffer != 0 else { throw RenderingError.destroyed(what: "OffscreenTarget") }
        try context.ensureCurrent()
        bindFramebuffer(framebuffer)
        glViewport(0, 0, GLsizei(pixelWidth), GLsizei(pixelHeight))
    }

    /// Sets every pixel's alpha to 1 (inside the clip), keeping colour:
    /// content such as a shader may write any alpha, and a layer is
    /// composited as opaque.
    package func makeOpaque() throws {
        try makeCurrent()
        applyClip(self)
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_TRUE))
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
    }

    /// Waits until every queued command has executed; benchmarks call this so
    /// they time rendering rather than queueing.
    package func finish() throws {
        try makeCurrent()
        glFinish()
    }

    /// Frees the GL objects. Idempotent; also run by deinit.
    package func destroy() {
        guard framebuffer != 0 else { return }
        if (try? context.ensureCurrent()) != nil {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
            glDeleteFramebuffers(1, &framebuffer)
            glDeleteTextures(1, &colorTexture)
        }
        framebuffer = 0
        colorTexture = 0
    }

    deinit { destroy() }
}
