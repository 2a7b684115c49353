import CEGL

/// Copies of a layer's parts onto a target with a framebuffer blit (ES 3):
/// a block drawn once over a plain colour, put back where the same colour
/// was cleared, unblended, every channel.
///
/// Mesa stores a window's buffer top row first and a framebuffer object's
/// bottom row first, so a blit from one to the other in GL's coordinates
/// is a flip, which its software path draws as a textured quad. A layer
/// stored upside down and read with its rows reversed is a blit that
/// reverses both, which Mesa turns the right way round and runs as a copy
/// of rows (`util_try_blit_via_copy_region`, a memcpy a row on llvmpipe).
/// Either way up gives the same pixels; only the cost differs.
package struct PartCopy {
    let context: GraphicsContext

    /// Nil where blits are not offered (ES 2).
    package init?(context: GraphicsContext) {
        guard context.glesMajorVersion >= 3 else { return nil }
        self.context = context
    }

    /// Whether a layer copied onto `target` should be stored upside down:
    /// on the window's own framebuffer (0).
    package func storesUpsideDown(for target: any RenderTarget) -> Bool { target.framebufferObject == 0 }

    /// Copies `part` of `layer` (top-left pixels of what the layer shows)
    /// onto `target` with that part's top-left at (`x`, `y`). Ignores the
    /// target's clip: the caller copies only what lies inside it.
    /// - Parameter upsideDown: the layer is stored upside down (`upsideDown(_:bgra:)`).
    package func copy(
        _ layer: OffscreenTarget, upsideDown: Bool, part: PixelRect, at x: Int, _ y: Int,
        onto target: any RenderTarget
    ) throws {
        guard layer.textureName != 0 else { throw RenderingError.destroyed(what: "OffscreenTarget") }
        guard part.width > 0, part.height > 0 else { return }
        try target.makeCurrent()
        // GL's coordinates: the bottom row is 0.
        let (h, height) = (GLint(layer.pixelHeight), GLint(target.pixelHeight))
        let (sx0, sx1) = (GLint(part.x), GLint(part.x + part.width))
        let (dx0, dx1) = (GLint(x), GLint(x + part.width))
        let (dy0, dy1) = (height - GLint(y + part.height), height - GLint(y))
        // Stored upside down, the part's top is the lower GL row, read as the
        // source's first row.
        let (sy0, sy1) =
            upsideDown
            ? (GLint(part.y + part.height), GLint(part.y)) : (h - GLint(part.y + part.height), h - GLint(part.y))
        blit(from: layer.framebufferObject, to: target.framebufferObject, (sx0, sy0, sx1, sy1), (dx0, dy0, dx1, dy1))
        applyClip(target)
        try checkGL("glBlitFramebuffer(part)")
    }

    /// A new layer holding `layer`'s pixels upside down, of its size and
    /// format (`bgra` as it was made), for `copy(_:upsideDown:part:at:onto:)`
    /// onto a window's own framebuffer.
    package func upsideDown(_ layer: OffscreenTarget, bgra: Bool) throws -> OffscreenTarget {
        let made = try OffscreenTarget(
            context: context, width: layer.pixelWidth, height: layer.pixelHeight, bgra: bgra)
        let (w, h) = (GLint(layer.pixelWidth), GLint(layer.pixelHeight))
        blit(from: layer.framebufferObject, to: made.framebufferObject, (0, 0, w, h), (0, h, w, 0))
        do {
            try checkGL("glBlitFramebuffer(upside down)")
        } catch {
            made.destroy()
            throw error
        }
        return made
    }

    /// One unscissored blit of every channel; both bindings back to
    /// `destination` after, taken in at once (`bindFramebuffer`).
    private func blit(
        from source: GLuint, to destination: GLuint, _ s: (GLint, GLint, GLint, GLint),
        _ d: (GLint, GLint, GLint, GLint)
    ) {
        glDisable(GLenum(GL_SCISSOR_TEST))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), source)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), destination)
        glBlitFramebuffer(s.0, s.1, s.2, s.3, d.0, d.1, d.2, d.3, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        bindFramebuffer(destination)
    }
}
