import CEGL

/// Draws textures and solid rectangles at pixel positions of a target.
///
/// Blending is premultiplied "over" for colour and leaves the target's alpha
/// untouched, so a surface cleared to opaque stays opaque even when the EGL
/// config has an alpha channel (which would otherwise make the compositor
/// blend the output with whatever is below it).
package final class QuadRenderer {
    package let context: GraphicsContext
    private let programs: QuadPrograms
    private var quad: GLuint = 0

    package init(context: GraphicsContext) throws {
        self.context = context
        programs = try QuadPrograms(context: context)
        try context.ensureCurrent()
        let corners: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
        glGenBuffers(1, &quad)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glBufferData(
            GLenum(GL_ARRAY_BUFFER), corners.count * MemoryLayout<GLfloat>.size, corners, GLenum(GL_STATIC_DRAW))
        try checkGL("glBufferData(quad)")
    }

    /// Fills the whole target with an opaque colour (components 0...1).
    ///
    /// glClear where it works: llvmpipe then writes each tile at memory
    /// speed. On a window whose config has no alpha channel (XRGB8888, only
    /// when the driver offers no ARGB config, see GraphicsContext), Mesa
    /// 22.3's glClear never reached weston, so there the colour is drawn as
    /// one unblended quad of a shader writing it (what a fragment shader of
    /// the same colour costs; unlike the blended fill, it stays off
    /// llvmpipe's linear blend path, which scaled the red channel in wide
    /// BGRX windows on cage).
    package func clear(red: Double, green: Double, blue: Double, on target: any RenderTarget) throws {
        try target.makeCurrent()
        applyClip(target)
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        guard target is WindowSurface, context.isOpaqueConfig else {
            glClearColor(GLfloat(red), GLfloat(green), GLfloat(blue), 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            return
        }
        try programs.opaque.use()
        glUniform4f(programs.opaque.uniformLocation("color"), GLfloat(red), GLfloat(green), GLfloat(blue), 1)
        glViewport(0, 0, GLsizei(target.pixelWidth), GLsizei(target.pixelHeight))
        glDisable(GLenum(GL_BLEND))
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        try checkGL("glDrawArrays(clear)")
    }

    /// Starts a frame on a window buffer with an alpha channel: alpha 1
    /// everywhere (a glClear, at memory speed), so content that does not
    /// cover the buffer, or a plain shader that writes alpha below 1,
    /// leaves no translucent pixels in a surface declared opaque.
    package func beginFrame(on target: any RenderTarget) throws {
        guard target is WindowSurface, !context.isOpaqueConfig else { return }
        try target.makeCurrent()
        applyClip(target)
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }

    /// Draws `texture` stretched over `rect` (top-left pixel coordinates of
    /// the target); use `aspectFit` to letterbox. Scaling is bilinear.
    package func draw(_ texture: Texture, in rect: PixelRect, on target: any RenderTarget, opacity: Double = 1) throws {
        guard texture.name != 0 else { throw RenderingError.destroyed(what: "Texture") }
        // At its own size a texture maps texel to pixel: nearest sampling
        // and no opacity multiply give the same pixels for a fraction of
        // llvmpipe's per-pixel work (text, slides at the screen's size).
        let exact = rect.width == texture.width && rect.height == texture.height && opacity >= 1
        try context.ensureCurrent()
        glBindTexture(GLenum(GL_TEXTURE_2D), texture.name)
        texture.setNearestFiltering(exact)
        try draw(textureName: texture.name, mapping: .image, in: rect, on: target, opacity: opacity, blitting: exact)
    }

    /// Copies all of `layer` (its size is the target's) onto `target`
    /// unblended, texel for pixel, alpha included: a scene's retained copy
    /// drawn into a new window buffer. Measured on llvmpipe at 1280x720, the
    /// presenter console's clock second cost 9 ms of CPU this way against 12
    /// with a cleared buffer and the blended `draw(_:mapping:in:on:)`.
    ///
    /// On an ES 3 context of the same size it is a framebuffer blit, which
    /// Mesa's software path runs about a quarter faster than the textured
    /// quad (1920x1080 on llvmpipe, swap included: 8.9 ms of CPU a frame
    /// against 11.5; the quad is kept for ES 2).
    package func copy(_ layer: OffscreenTarget, onto target: any RenderTarget) throws {
        guard layer.textureName != 0 else { throw RenderingError.destroyed(what: "OffscreenTarget") }
        try target.makeCurrent()
        if context.glesMajorVersion >= 3, layer.pixelWidth == target.pixelWidth,
            layer.pixelHeight == target.pixelHeight
        {
            let (w, h) = (GLint(target.pixelWidth), GLint(target.pixelHeight))
            // A blit is scissored and masked like a draw: the same clip as
            // the quad's, and every channel.
            applyClip(target)
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), layer.framebufferObject)
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), target.framebufferObject)
            glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.framebufferObject)
            try checkGL("glBlitFramebuffer(copy)")
            return
        }
        try programs.blit.use()
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), layer.textureName)
        glUniform1i(programs.blit.uniformLocation("image"), 0)
        let mapping = TextureMapping.layer
        glUniform2f(programs.blit.uniformLocation("uvOrigin"), mapping.origin.0, mapping.origin.1)
        glUniform2f(programs.blit.uniformLocation("uvAcross"), mapping.across.0, mapping.across.1)
        glUniform2f(programs.blit.uniformLocation("uvUp"), mapping.up.0, mapping.up.1)
        glViewport(0, 0, GLsizei(target.pixelWidth), GLsizei(target.pixelHeight))
        applyClip(target)
        glDisable(GLenum(GL_BLEND))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        try checkGL("glDrawArrays(copy)")
    }

    /// Draws what was rendered into `layer` over `rect` of `target`.
    package func draw(
        _ layer: OffscreenTarget, mapping: TextureMapping, in rect: PixelRect, on target: any RenderTarget,
        opacity: Double = 1
    ) throws {
        guard layer.textureName != 0 else { throw RenderingError.destroyed(what: "OffscreenTarget") }
        try draw(textureName: layer.textureName, mapping: mapping, in: rect, on: target, opacity: opacity)
    }

    private func draw(
        textureName name: GLuint, mapping: TextureMapping, in rect: PixelRect, on target: any RenderTarget,
        opacity: Double, blitting: Bool = false
    ) throws {
        guard rect.width > 0, rect.height > 0 else { return }
        try target.makeCurrent()
        let program = blitting ? programs.blit : programs.textured
        try program.use()
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glUniform1i(program.uniformLocation("image"), 0)
        if !blitting { glUniform1f(program.uniformLocation("opacity"), GLfloat(opacity)) }
        glUniform2f(program.uniformLocation("uvOrigin"), mapping.origin.0, mapping.origin.1)
        glUniform2f(program.uniformLocation("uvAcross"), mapping.across.0, mapping.across.1)
        glUniform2f(program.uniformLocation("uvUp"), mapping.up.0, mapping.up.1)
        try drawQuad(rect, on: target)
    }

    /// Draws parts of `texture` at its own size, blended over the target,
    /// with its top-left at (`x`, `y`): `regions` are rectangles of the
    /// texture (e.g. `Canvas.inkRects`), so fully transparent parts cost
    /// nothing. One draw call for all of them. At whole pixels the texels
    /// map to pixels (nearest sampling: text stays sharp); at a fraction
    /// of a pixel (text scrolled by a fraction each refresh) sampling is
    /// bilinear, so the text moves smoothly instead of jumping a pixel at a
    /// time. A region there should reach a texel past the ink on each side,
    /// or the part of an edge texel blended into the next pixel is cut off.
    ///
    /// On a window (`opaqueTarget` nil: `target is WindowSurface`), whose
    /// alpha is 1 everywhere (`beginFrame`) or not shown, alpha is blended
    /// "over" like colour: 1 stays 1 (a + (1 - a) in 8 bits is exactly
    /// 255), and llvmpipe's blend is
    /// then plain premultiplied "over" (on a callgrind of the text scene,
    /// 14 % fewer instructions in the shaded blocks than with alpha kept
    /// by a separate blend). Elsewhere (a layer) the target's alpha is kept.
    package func draw(
        _ texture: Texture, regions parts: [PixelRect], x: Double, y: Double, on target: any RenderTarget,
        opaqueTarget: Bool? = nil
    ) throws {
        guard texture.name != 0 else { throw RenderingError.destroyed(what: "Texture") }
        guard !parts.isEmpty else { return }
        try target.makeCurrent()
        try programs.regions.use()
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture.name)
        texture.setNearestFiltering(x == x.rounded() && y == y.rounded())
        glUniform1i(programs.regions.uniformLocation("image"), 0)
        let (w, h) = (Float(target.pixelWidth), Float(target.pixelHeight))
        let (tw, th) = (Float(texture.width), Float(texture.height))
        var vertices: [GLfloat] = []
        vertices.reserveCapacity(parts.count * 24)
        for part in parts {
            let left = Float(x + Double(part.x)), top = Float(y + Double(part.y))
            let right = left + Float(part.width), bottom = top + Float(part.height)
            let (x0, x1) = (2 * left / w - 1, 2 * right / w - 1)
            let (y0, y1) = (1 - 2 * top / h, 1 - 2 * bottom / h)
            let (u0, u1) = (Float(part.x) / tw, Float(part.x + part.width) / tw)
            let (v0, v1) = (Float(part.y) / th, Float(part.y + part.height) / th)
            vertices += [
                x0, y0, u0, v0, x1, y0, u1, v0, x0, y1, u0, v1, x1, y0, u1, v0, x1, y1, u1, v1, x0, y1, u0, v1,
            ]
        }
        glViewport(0, 0, GLsizei(target.pixelWidth), GLsizei(target.pixelHeight))
        applyClip(target)
        glEnable(GLenum(GL_BLEND))
        if opaqueTarget ?? (target is WindowSurface) {
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        } else {
            glBlendFuncSeparate(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ZERO), GLenum(GL_ONE))
        }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        glEnableVertexAttribArray(0)
        glEnableVertexAttribArray(1)
        vertices.withUnsafeBufferPointer { buffer in
            let stride = GLsizei(4 * MemoryLayout<GLfloat>.size)
            glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, buffer.baseAddress)
            glVertexAttribPointer(1, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, buffer.baseAddress! + 2)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(parts.count * 6))
        }
        glDisableVertexAttribArray(1)
        glDisable(GLenum(GL_BLEND))
        try checkGL("glDrawArrays(regions)")
    }

    /// Fills `rect` with a colour, blended over what is there when alpha < 1.
    package func fill(_ rect: PixelRect, color: Color, on target: any RenderTarget) throws {
        guard rect.width > 0, rect.height > 0 else { return }
        try target.makeCurrent()
        try programs.solid.use()
        glUniform4f(
            programs.solid.uniformLocation("color"), GLfloat(color.red), GLfloat(color.green), GLfloat(color.blue),
            GLfloat(color.alpha))
        try drawQuad(rect, on: target)
    }

    /// Fills the part of `rect` inside (or, with `outside`, outside) the
    /// circle around (`centerX`, `centerY`) of `radius` (top-left pixel
    /// coordinates of the target), blended over what is there; the edge is
    /// anti-aliased over one pixel.
    package func fill(
        _ rect: PixelRect, color: Color, circleX centerX: Double, circleY centerY: Double, radius: Double,
        outside: Bool = false, on target: any RenderTarget
    ) throws {
        guard rect.width > 0, rect.height > 0 else { return }
        try target.makeCurrent()
        try programs.disc.use()
        glUniform4f(
            programs.disc.uniformLocation("color"), GLfloat(color.red), GLfloat(color.green), GLfloat(color.blue),
            GLfloat(color.alpha))
        glUniform3f(
            programs.disc.uniformLocation("circle"), GLfloat(centerX), GLfloat(Double(target.pixelHeight) - centerY),
            GLfloat(max(0, radius)))
        glUniform1f(programs.disc.uniformLocation("outside"), outside ? 1 : 0)
        try drawQuad(rect, on: target)
    }

    private func drawQuad(_ rect: PixelRect, on target: any RenderTarget) throws {
        setViewport(rect, targetHeight: target.pixelHeight)
        applyClip(target)
        glEnable(GLenum(GL_BLEND))
        glBlendFuncSeparate(
            GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ZERO), GLenum(GL_ONE))
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glDisable(GLenum(GL_BLEND))
        try checkGL("glDrawArrays(quad)")
    }

    /// Frees the GL objects. Idempotent; also run by deinit.
    package func destroy() {
        programs.destroy()
        guard quad != 0 else { return }
        if (try? context.ensureCurrent()) != nil { glDeleteBuffers(1, &quad) }
        quad = 0
    }

    deinit { destroy() }
}
