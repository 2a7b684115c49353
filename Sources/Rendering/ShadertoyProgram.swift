import CEGL
import Foundation

/// A fragment shader in Shadertoy form drawn over a rectangle of the target.
///
/// Supported input:
/// - **Shadertoy style** (the file defines `void mainImage(out vec4 fragColor,
///   in vec2 fragCoord)`): Screenplay adds the `#version` line, precision
///   statements, the uniforms `iResolution` (vec3, pixels, z = 1), `iTime`
///   (float seconds), `iTimeDelta`, `iFrameRate`, `iFrame` (int), `iMouse`
///   (always zero), `iDate` (year, month 0-11, day, seconds since midnight)
///   and a `main()` that calls `mainImage`. `fragCoord` is relative to the
///   drawn rectangle, bottom-left origin as on Shadertoy. The output alpha is
///   forced to 1. `iChannel0-3` (textures, buffers, sound) are not supported;
///   a `#version` line in the file is blanked out.
/// - **Plain** (the file defines `void main()` and no `mainImage`): compiled as
///   a GLSL ES fragment shader. Without a `#version` line, `#version 100` and
///   default precision are prepended; with one, the file is used as is. It
///   must declare the uniforms it reads; those named above are set if present.
///
/// Shader errors report lines of the user's file.
package final class ShadertoyProgram {
    /// The GLSL ES version the Shadertoy-style wrapper uses.
    package enum Dialect: Sendable {
        /// GLSL ES 3.00 when the context is ES 3 (Shadertoy itself is WebGL 2,
        /// i.e. GLSL ES 3.00, so shaders copied from it need this), else 1.00.
        case automatic
        /// `#version 100` (OpenGL ES 2.0).
        case glsl100
        /// `#version 300 es`; needs an OpenGL ES 3 context.
        case glsl300
    }

    package let context: GraphicsContext
    /// Whether the file was wrapped as Shadertoy code (false: plain `main()`).
    package let isShadertoyStyle: Bool
    /// The GLSL ES version actually compiled, 100 or 300.
    package let glslVersion: Int
    let program: ShaderProgram
    private var quad: GLuint = 0

    /// Compiles the file. Throws `ShaderError` (lines are the user's) or `RenderingError`.
    package init(
        context: GraphicsContext, source: String, sourceName: String? = nil, dialect: Dialect = .automatic
    ) throws {
        self.context = context
        let userLines = source.split(separator: "\n", omittingEmptySubsequences: false).count
        let hasMainImage = source.contains(/\bvoid\s+mainImage\s*\(/)
        let hasMain = source.contains(/\bvoid\s+main\s*\(\s*(void)?\s*\)/)
        guard hasMainImage || hasMain else {
            throw ShaderError(
                stage: .fragment,
                infoLog: "the shader defines neither `void mainImage(out vec4 fragColor, in vec2 fragCoord)` "
                    + "(Shadertoy style) nor `void main()`",
                diagnostics: [], sourceName: sourceName)
        }
        isShadertoyStyle = hasMainImage

        let version: Int
        switch dialect {
        case .glsl100: version = 100
        case .glsl300:
            guard context.glesMajorVersion >= 3 else {
                throw RenderingError.egl(
                    call: "ShadertoyProgram(.glsl300)", error: "OpenGL ES \(context.glesMajorVersion) context",
                    hint: "GLSL ES 3.00 needs an OpenGL ES 3 driver; use .glsl100")
            }
            version = 300
        case .automatic: version = context.glesMajorVersion >= 3 ? 300 : 100
        }

        let prelude: String
        let body: String
        let suffix: String
        if isShadertoyStyle {
            prelude = Self.prelude(version: version)
            // #version is only legal on the first line, which is ours; blank
            // it rather than delete it so line numbers stay put.
            body = source.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#version") ? "" : String($0) }
                .joined(separator: "\n")
            suffix = Self.mainWrapper(version: version)
        } else if source.drop(while: \.isWhitespace).hasPrefix("#version") {
            prelude = ""
            body = source
            suffix = ""
        } else {
            prelude = "#version 100\n" + Self.precisionBlock
            body = source
            suffix = ""
        }
        if isShadertoyStyle {
            glslVersion = version
        } else {
            // A plain file's vertex stage must match its own #version.
            glslVersion = source.drop(while: \.isWhitespace).hasPrefix("#version 300") ? 300 : 100
        }

        // Count the prelude's lines rather than relying on #line, whose
        // meaning (this line or the next) has differed between GLSL versions
        // and drivers.
        let offset = prelude.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
        program = try ShaderProgram(
            context: context, vertexSource: Self.vertexSource(version: glslVersion),
            fragmentSource: prelude + body + "\n" + suffix, attributeBindings: ["screenplay_position": 0],
            sourceName: sourceName,
            fragmentLineMap: { line in
                let user = line - offset
                return (1...max(1, userLines)).contains(user) ? user : 0
            })

        try context.ensureCurrent()
        let corners: [GLfloat] = [-1, -1, 1, -1, -1, 1, 1, 1]
        glGenBuffers(1, &quad)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glBufferData(
            GLenum(GL_ARRAY_BUFFER), corners.count * MemoryLayout<GLfloat>.size, corners, GLenum(GL_STATIC_DRAW))
        try checkGL("glBufferData(quad)")
    }

    private static let precisionBlock = """
        #ifdef GL_FRAGMENT_PRECISION_HIGH
        precision highp float;
        precision highp int;
        #else
        precision mediump float;
        precision mediump int;
        #endif

        """

    private static func prelude(version: Int) -> String {
        (version == 300 ? "#version 300 es\n" : "#version 100\n") + precisionBlock + """
            uniform vec3 iResolution;
            uniform float iTime;
            uniform float iTimeDelta;
            uniform float iFrameRate;
            uniform int iFrame;
            uniform vec4 iMouse;
            uniform vec4 iDate;
            uniform vec2 screenplay_origin;

            """
    }

    private static func mainWrapper(version: Int) -> String {
        let output = version == 300 ? "screenplay_fragColor" : "gl_FragColor"
        return (version == 300 ? "out vec4 screenplay_fragColor;\n" : "") + """
            void main() {
                vec4 color = vec4(0.0, 0.0, 0.0, 1.0);
                mainImage(color, gl_FragCoord.xy - screenplay_origin);
                \(output) = vec4(color.rgb, 1.0);
            }

            """
    }

    private static func vertexSource(version: Int) -> String {
        version == 300
            ? """
            #version 300 es
            in vec2 screenplay_position;
            void main() { gl_Position = vec4(screenplay_position, 0.0, 1.0); }

            """
            : """
            #version 100
            attribute vec2 screenplay_position;
            void main() { gl_Position = vec4(screenplay_position, 0.0, 1.0); }

            """
    }

    /// Draws the shader over `rect` (top-left pixel coordinates; the whole
    /// target when nil). `iResolution` is the rectangle's size.
    package func draw(
        on target: any RenderTarget, in rect: PixelRect? = nil, time: Double, timeDelta: Double = 0, frame: Int
    ) throws {
        let area = rect ?? PixelRect(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
        guard area.width > 0, area.height > 0 else { return }
        try target.makeCurrent()
        try program.use()
        setViewport(area, targetHeight: target.pixelHeight)
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_SCISSOR_TEST))

        glUniform3f(program.uniformLocation("iResolution"), GLfloat(area.width), GLfloat(area.height), 1)
        // Float seconds lose precision after days of uptime; callers should
        // pass time since the shader started, not since boot.
        glUniform1f(program.uniformLocation("iTime"), GLfloat(time))
        glUniform1f(program.uniformLocation("iTimeDelta"), GLfloat(timeDelta))
        glUniform1f(program.uniformLocation("iFrameRate"), timeDelta > 0 ? GLfloat(1 / timeDelta) : 0)
        glUniform1i(program.uniformLocation("iFrame"), GLint(truncatingIfNeeded: frame))
        glUniform4f(program.uniformLocation("iMouse"), 0, 0, 0, 0)
        let dateLocation = program.uniformLocation("iDate")
        if dateLocation >= 0 {
            var now = time_t(Date().timeIntervalSince1970)
            var parts = tm()
            localtime_r(&now, &parts)
            let seconds = Double(parts.tm_hour * 3600 + parts.tm_min * 60 + parts.tm_sec)
            glUniform4f(
                dateLocation, GLfloat(parts.tm_year + 1900), GLfloat(parts.tm_mon), GLfloat(parts.tm_mday),
                GLfloat(seconds))
        }
        // gl_FragCoord counts from the bottom-left of the whole target.
        glUniform2f(
            program.uniformLocation("screenplay_origin"), GLfloat(area.x),
            GLfloat(target.pixelHeight - area.y - area.height))

        glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        // A plain shader may write any alpha; on a window with an alpha
        // channel that would make an opaque surface translucent, so alpha
        // keeps the 1 the frame started with (QuadRenderer.beginFrame).
        let keepAlpha = !isShadertoyStyle && !context.isOpaqueConfig && target is WindowSurface
        if keepAlpha { glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_FALSE)) }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        if keepAlpha { glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE)) }
        try checkGL("glDrawArrays(shader)")
    }

    /// Frees the GL objects. Idempotent; also run by deinit.
    package func destroy() {
        program.destroy()
        guard quad != 0 else { return }
        if (try? context.ensureCurrent()) != nil { glDeleteBuffers(1, &quad) }
        quad = 0
    }

    deinit { destroy() }
}
