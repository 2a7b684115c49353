import CEGL

/// Something GL can draw into: a Wayland window surface or an offscreen
/// framebuffer. Drawing calls bind the target themselves.
package protocol RenderTarget: AnyObject {
    /// Width of the drawable in pixels.
    var pixelWidth: Int { get }
    /// Height of the drawable in pixels.
    var pixelHeight: Int { get }
    /// Binds this target for drawing and reading. Cheap when already bound.
    func makeCurrent() throws
    /// The GL framebuffer object drawing goes to (0: the window's own), for
    /// renderers that bind it themselves (libmpv).
    var framebufferObject: UInt32 { get }
    /// The part of the target this frame repaints (top-left pixels), or nil
    /// for all of it: every Screenplay renderer scissors its draws to it
    /// (`applyClip`), so drawing that covers the whole target still leaves
    /// the older content outside untouched.
    var clip: PixelRect? { get set }
}

extension RenderTarget {
    /// Reads back a rectangle (top-left origin) as straight RGBA bytes, rows
    /// top to bottom. For a window surface this reads the back buffer, so call
    /// it before `present()`. Meant for tests and checks, not per-frame use:
    /// it stalls until the GPU has finished.
    package func readPixels(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0, x >= 0, y >= 0, x + width <= pixelWidth, y + height <= pixelHeight
        else {
            throw RenderingError.invalidSize(
                what: "readPixels",
                detail: "\(width)x\(height)+\(x)+\(y) is outside the \(pixelWidth)x\(pixelHeight) target")
        }
        try makeCurrent()
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        let rowBytes = width * 4
        var bottomUp = [UInt8](repeating: 0, count: rowBytes * height)
        // GL's origin is the bottom-left corner.
        glReadPixels(
            GLint(x), GLint(pixelHeight - y - height), GLsizei(width), GLsizei(height),
            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &bottomUp)
        try checkGL("glReadPixels")
        var topDown = [UInt8](repeating: 0, count: bottomUp.count)
        for row in 0..<height {
            let source = (height - 1 - row) * rowBytes
            topDown[(row * rowBytes)..<((row + 1) * rowBytes)] = bottomUp[source..<(source + rowBytes)]
        }
        return topDown
    }
}

/// Sets the viewport for a destination rectangle given in top-left pixel
/// coordinates of a target of height `targetHeight`.
func setViewport(_ rect: PixelRect, targetHeight: Int) {
    glViewport(
        GLint(rect.x), GLint(targetHeight - rect.y - rect.height), GLsizei(rect.width), GLsizei(rect.height))
}

/// Scissors drawing to the target's clip (the part a frame repaints), or
/// turns the scissor off when it has none. Every renderer calls this where
/// it would turn the scissor off, so content drawn over the whole target
/// touches only the part being repainted.
package func applyClip(_ target: any RenderTarget) {
    guard let clip = target.clip else {
        glDisable(GLenum(GL_SCISSOR_TEST))
        return
    }
    glEnable(GLenum(GL_SCISSOR_TEST))
    glScissor(
        GLint(clip.x), GLint(target.pixelHeight - clip.y - clip.height), GLsizei(max(clip.width, 0)),
        GLsizei(max(clip.height, 0)))
}

/// Binds `framebuffer` (0: the current EGL surface's own) for drawing and
/// reading, and has GL take the change in at once.
///
/// Why at once: Mesa (22.3's GL state tracker, llvmpipe here) gives a
/// fragment shader's gl_FragCoord its bottom-left origin with a hidden
/// uniform made from the framebuffer drawn into (flipped for a window
/// surface, whose rows are stored the other way up from a framebuffer
/// object's, and offset by its height). A draw that takes in a change of
/// framebuffer marks that uniform for upload; a glClear that comes first
/// takes the change in without marking it (`_mesa_update_clear_state`),
/// and the uniform keeps the old framebuffer's value until the program or
/// one of its own uniforms changes. So a frame that went from the wl_shm
/// path's framebuffer object to the EGL window, cleared it (alpha 1,
/// `QuadRenderer.beginFrame`) and drew the same shader as the frame
/// before, with the same uniforms (a gradient that does not read iTime),
/// came out upside down. Asking for GL_SAMPLE_BUFFERS makes Mesa run its
/// whole state update first, which marks the uniform while the change is
/// pending; with no change pending it costs a lookup.
func bindFramebuffer(_ framebuffer: GLuint) {
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    var sampleBuffers: GLint = 0
    glGetIntegerv(GLenum(GL_SAMPLE_BUFFERS), &sampleBuffers)
}
