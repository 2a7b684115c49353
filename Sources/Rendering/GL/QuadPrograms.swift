import CEGL

/// The shader programs `QuadRenderer` draws with, compiled once per GL
/// context: each program is one way of colouring the unit quad (a
/// texture, texels as they are, a solid colour, a disc, an unblended clear).
final class QuadPrograms {
    let textured: ShaderProgram
    /// Copies texels as they are: for textures drawn at their own size.
    let blit: ShaderProgram
    /// The same for parts of a texture, each with its own position.
    let regions: ShaderProgram
    let solid: ShaderProgram
    /// A colour inside or outside a circle, its edge anti-aliased.
    let disc: ShaderProgram
    /// Writes one opaque colour, unblended: what `clear` draws.
    let opaque: ShaderProgram

    /// Texels as they are, for the blit program.
    private static let copyFragment = """
        #version 100
        precision mediump float;
        uniform sampler2D image;
        varying vec2 uv;
        void main() { gl_FragColor = texture2D(image, uv); }
        """

    /// The same copy at full precision, for the regions program (text,
    /// ink). Mesa lowers a mediump copy to 16-bit floats: its texel fetch
    /// returns halves that the shader converts back, and llvmpipe (the
    /// software path) then rejects the shader for its linear rasterizer,
    /// shading every 4x4 block with its general float pipeline. At highp
    /// (a lowp sampler is the ES default, hence `highp sampler2D`) the copy
    /// is a plain fetch and store: llvmpipe runs it a row at a time in
    /// 8-bit lanes, which halves the cost of blending text over a changing
    /// frame (`scripts/frame-instructions.sh text-30fps`). Same pixels:
    /// the blend is the same premultiplied "over".
    private static let regionsFragment = """
        #version 100
        #ifdef GL_FRAGMENT_PRECISION_HIGH
        precision highp float;
        uniform highp sampler2D image;
        #else
        precision mediump float;
        uniform sampler2D image;
        #endif
        varying vec2 uv;
        void main() { gl_FragColor = texture2D(image, uv); }
        """

    init(context: GraphicsContext) throws {
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
        blit = try ShaderProgram(
            context: context, vertexSource: vertex,
            fragmentSource: Self.copyFragment,
            attributeBindings: ["position": 0], sourceName: "QuadRenderer blit shader")
        regions = try ShaderProgram(
            context: context,
            vertexSource: """
                #version 100
                attribute vec2 position;
                attribute vec2 texcoord;
                varying vec2 uv;
                void main() {
                    uv = texcoord;
                    gl_Position = vec4(position, 0.0, 1.0);
                }
                """,
            fragmentSource: Self.regionsFragment,
            attributeBindings: ["position": 0, "texcoord": 1], sourceName: "QuadRenderer regions shader")
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
        disc = try ShaderProgram(
            context: context, vertexSource: vertex,
            fragmentSource: """
                #version 100
                // Distances across a 4K screen need more than mediump's
                // 11-bit mantissa where a GPU has it.
                #ifdef GL_FRAGMENT_PRECISION_HIGH
                precision highp float;
                #else
                precision mediump float;
                #endif
                uniform vec4 color;
                // Centre (window coordinates, origin bottom left) and radius, in pixels.
                uniform vec3 circle;
                // 0: colour the disc; 1: colour everything but the disc.
                uniform float outside;
                varying vec2 uv;
                void main() {
                    // Coverage of this pixel by the disc: a one-pixel ramp at the edge.
                    float inside = clamp(circle.z - distance(gl_FragCoord.xy, circle.xy) + 0.5, 0.0, 1.0);
                    float a = color.a * mix(inside, 1.0 - inside, outside);
                    gl_FragColor = vec4(color.rgb * a, a);
                }
                """,
            attributeBindings: ["position": 0], sourceName: "QuadRenderer disc shader")
        opaque = try ShaderProgram(
            context: context, vertexSource: vertex,
            fragmentSource: """
                #version 100
                precision mediump float;
                uniform vec4 color;
                void main() { gl_FragColor = color; }
                """,
            attributeBindings: ["position": 0], sourceName: "QuadRenderer clear shader")
    }

    /// Frees the programs. Idempotent.
    func destroy() {
        textured.destroy()
        blit.destroy()
        regions.destroy()
        solid.destroy()
        disc.destroy()
        opaque.destroy()
    }
}
