import CEGL

/// Draws textures and solid rectangles at pixel positions of a target.
///
/// Blending is premultiplied "over" for colour and leaves the target's alpha
/// untouched, so a surface cleared to opaque stays opaque even when the EGL
/// config has an alpha channel (which would otherwise make the compositor
/// blend the output with whatever is below it).
package final class QuadRenderer {
    package let context: GraphicsContext
    private let textured: ShaderProgram
    private let solid: ShaderProgram
    private var quad: GLuint = 0

    package init(context: GraphicsContext) throws {
        self.context = context
        // The unit square; the viewport maps it onto the destination rectangle.
        let vertex = """
            #version 100
            attribute vec2 position;
            // Where the quad's corners sample the texture: uv = origin +
            // x * across + y * up. An image's row 0 is its top and the
            // viewport's bottom is y = 0, hence the default (0,1) (1,0) (0,-1);
            // a rendered layer (row 0 at the bottom) or a turned panel
            // passes its own mapping (QuadRenderer.TextureMapping).
            uniform vec2 uvOrigin;
            uniform vec2 uvAcross;
            uniform vec2 uvUp;
            varying vec2 uv;
            void main() {
                uv = uvOrigin + position.x * uvAcross + position.y * uvUp;
                gl_Position = vec4(position * 2.0 - 1.0, 0.0, 1.0);
            }
            """
        textured = try ShaderProgram(
            context: context, vertexSource: vertex,
            fragmentSource: """
                #version 100
                precision mediump float;
                uniform sampler2D image;
                uniform float opacity;
                varying vec2 uv;
                void main() { gl_FragColor = texture2D(image, uv) * opacity; }
                """,
            attributeBindings: ["position": 0], sourceName: "QuadRenderer texture shader")
        solid = try ShaderProgram(
            context: context, vertexSource: vertex,
            fragmentSource: """
                #version 100
                precision mediump float;
                uniform vec4 color;
                varying vec2 uv;
                // step(0, x) is 1 on every fragment, but llvmpipe cannot
                // know that: a constant colour would take its whole-tile
                // shortcuts, which lose tiles on the Wayland path and, in
                // the linear path for BGRX buffers, scale the red channel
                // (0x33 came out 0x0a in a 2560-px-wide window).
                void main() { gl_FragColor = vec4(color.rgb * color.a, color.a) * step(0.0, gl_FragCoord.x); }
                """,
            attributeBindings: ["position": 0], sourceName: "QuadRenderer colour shader")
        try context.ensureCurrent()
        let corners: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
        glGenBuffers(1, &quad)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glBufferData(
            GLenum(GL_ARRAY_BUFFER), corners.count * MemoryLayout<GLfloat>.size, corners, GLenum(GL_STATIC_DRAW))
        try checkGL("glBufferData(quad)")
    }

    /// Fills the whole target with an opaque colour (components 0...1).
    package func clear(red: Double, green: Double, blue: Double, on target: any RenderTarget) throws {
        try target.makeCurrent()
        glDisable(GLenum(GL_SCISSOR_TEST))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glClearColor(GLfloat(red), GLfloat(green), GLfloat(blue), 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }

    /// Draws `texture` stretched over `rect` (top-left pixel coordinates of
    /// the target); use `aspectFit` to letterbox. Scaling is bilinear.
    package func draw(_ texture: Texture, in rect: PixelRect, on target: any RenderTarget, opacity: Double = 1) throws {
        guard texture.name != 0 else { throw RenderingError.destroyed(what: "Texture") }
        try draw(textureName: texture.name, mapping: .image, in: rect, on: target, opacity: opacity)
    }

    /// How a quad samples its texture: an image (row 0 on top) or a
    /// rendered layer (row 0 at the bottom), turned by quarter turns.
    package struct TextureMapping: Equatable, Sendable {
        var origin: (Float, Float)
        var across: (Float, Float)
        var up: (Float, Float)
        package static let image = TextureMapping(origin: (0, 1), across: (1, 0), up: (0, -1))
        package static let layer = TextureMapping(origin: (0, 0), across: (1, 0), up: (0, 1))

        /// A layer shown turned clockwise by `quarterTurns` × 90° (the
        /// layer was drawn at the turned size: width and height swapped for
        /// odd turns).
        package static func layer(turnedClockwise quarterTurns: Int) -> TextureMapping {
            switch ((quarterTurns % 4) + 4) % 4 {
            // Destination (x right, y up); the layer's content turned
            // clockwise means its "up" points along the destination's +x.
            case 1: TextureMapping(origin: (1, 0), across: (0, 1), up: (-1, 0))
            case 2: TextureMapping(origin: (1, 1), across: (-1, 0), up: (0, -1))
            case 3: TextureMapping(origin: (0, 1), across: (0, -1), up: (1, 0))
            default: .layer
            }
        }

        package static func == (a: TextureMapping, b: TextureMapping) -> Bool {
            a.origin == b.origin && a.across == b.across && a.up == b.up
        }
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
        opacity: Double
    ) throws {
        guard rect.width > 0, rect.height > 0 else { return }
        try target.makeCurrent()
        try textured.use()
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glUniform1i(textured.uniformLocation("image"), 0)
        glUniform1f(textured.uniformLocation("opacity"), GLfloat(opacity))
        glUniform2f(textured.uniformLocation("uvOrigin"), mapping.origin.0, mapping.origin.1)
        glUniform2f(textured.uniformLocation("uvAcross"), mapping.across.0, mapping.across.1)
        glUniform2f(textured.uniformLocation("uvUp"), mapping.up.0, mapping.up.1)
        try drawQuad(rect, targetHeight: target.pixelHeight)
    }

    /// Fills `rect` with a colour, blended over what is there when alpha < 1.
    package func fill(_ rect: PixelRect, color: Color, on target: any RenderTarget) throws {
        guard rect.width > 0, rect.height > 0 else { return }
        try target.makeCurrent()
        try solid.use()
        glUniform4f(
            solid.uniformLocation("color"), GLfloat(color.red), GLfloat(color.green), GLfloat(color.blue),
            GLfloat(color.alpha))
        try drawQuad(rect, targetHeight: target.pixelHeight)
    }

    private func drawQuad(_ rect: PixelRect, targetHeight: Int) throws {
        setViewport(rect, targetHeight: targetHeight)
        glDisable(GLenum(GL_SCISSOR_TEST))
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
        textured.destroy()
        solid.destroy()
        guard quad != 0 else { return }
        if (try? context.ensureCurrent()) != nil { glDeleteBuffers(1, &quad) }
        quad = 0
    }

    deinit { destroy() }
}
