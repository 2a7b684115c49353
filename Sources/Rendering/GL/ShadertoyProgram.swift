import CEGL
import Foundation

/// A value the app gives one of its shader's uniforms: 1 to 4 floats
/// (`float`, `vec2`, `vec3`, `vec4`) or an `int`.
package enum UniformValue: Sendable, Equatable, CustomStringConvertible {
    case float([Float])
    case int(Int32)

    package var description: String {
        switch self {
        case .float(let v): return v.count == 1 ? "float \(v[0])" : "vec\(v.count)\(v)"
        case .int(let v): return "int \(v)"
        }
    }
}

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
///   forced to 1. Shadertoy's `iChannel0-3` are not declared; the app's own
///   uniforms and `sampler2D` textures (`draw`'s `uniforms` and `textures`)
///   are, by the file itself. A `#version` line in the file is blanked out.
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
    /// The app's source and name, to tell a misspelt uniform from an unused one.
    private let source: String
    private let sourceName: String?
    private var quad: GLuint = 0

    /// Compiles the file. Throws `ShaderError` (lines are the user's) or `RenderingError`.
    package init(
        context: GraphicsContext, source: String, sourceName: String? = nil, dialect: Dialect = .automatic
    ) throws {
        self.context = context
        self.source = source
        self.sourceName = sourceName
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
    /// target when nil). `iResolution` is the rectangle's size. `uniforms`
    /// and `textures` (sampler uniforms, bound to units 0, 1, ... in name
    /// order) are the app's own.
    package func draw(
        on target: any RenderTarget, in rect: PixelRect? = nil, time: Double, timeDelta: Double = 0, frame: Int,
        uniforms: [String: UniformValue] = [:], textures: [String: Texture] = [:]
    ) throws {
        let area = rect ?? PixelRect(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
        guard area.width > 0, area.height > 0 else { return }
        try target.makeCurrent()
        try program.use()
        setViewport(area, targetHeight: target.pixelHeight)
        glDisable(GLenum(GL_BLEND))
        applyClip(target)

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
        try setAppUniforms(uniforms, textures: textures)

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

    /// A uniform the shader does not use has no location (the compiler drops
    /// unused ones) and is skipped; one its source never names is a typo
    /// and fails loudly, as does a value of the wrong type.
    private func setAppUniforms(_ uniforms: [String: UniformValue], textures: [String: Texture]) throws {
        for (name, value) in uniforms.sorted(by: { $0.key < $1.key }) {
            let location = try appUniformLocation(name)
            guard location >= 0 else { continue }
            switch value {
            case .float(let v):
                switch v.count {
                case 1: glUniform1f(location, v[0])
                case 2: glUniform2f(location, v[0], v[1])
                case 3: glUniform3f(location, v[0], v[1], v[2])
                default: glUniform4f(location, v[0], v[1], v[2], v[3])
                }
            case .int(let v): glUniform1i(location, v)
            }
            try checkUniform(name, "\(value)")
        }
        for (unit, (name, texture)) in textures.sorted(by: { $0.key < $1.key }).enumerated() {
            let location = try appUniformLocation(name)
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture.name)
            // Shaders sample between texels (scaled, turned): bilinear.
            texture.setNearestFiltering(false)
            if location >= 0 { glUniform1i(location, GLint(unit)) }
            try checkUniform(name, "a picture (sampler2D)")
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    private func appUniformLocation(_ name: String) throws -> GLint {
        let location = program.uniformLocation(name)
        guard location < 0, !source.contains(name) else { return location }
        throw RenderingError.gl(
            call:
                "setting uniform `\(name)` of \(sourceName ?? "the shader"), whose source declares no such uniform (declare `uniform float \(name);` or fix the name)",
            error: "no uniform \(name)")
    }

    private func checkUniform(_ name: String, _ value: String) throws {
        let e = drainGLErrors()
        guard e != GLenum(GL_NO_ERROR) else { return }
        throw RenderingError.gl(
            call:
                "setting uniform `\(name)` of \(sourceName ?? "the shader") to \(value) (its declared type in the shader differs; use the matching ShaderValue)",
            error: glErrorName(e))
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
