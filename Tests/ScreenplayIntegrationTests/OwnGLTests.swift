import Foundation
import Screenplay
import ScreenplayGLES
import TestHarness
import TestSupport
import XCTest

/// RGB of a pixel read back in a draw.
@MainActor
func pixel(_ context: DrawingContext, _ x: Int, _ y: Int) -> RGB? {
    guard let p = try? context.readPixels(x: x, y: y, width: 1, height: 1) else { return nil }
    return RGB(r: p[0], g: p[1], b: p[2])
}

/// The places whose pixel is not within 4 per channel of the colour expected
/// there (bilinear sampling and blending round by a step or two).
func mismatches(_ seen: [String: RGB?], _ expected: [String: RGB]) -> [String] {
    expected.keys.sorted().compactMap { place in
        let want = expected[place]!
        guard let got = seen[place] ?? nil else { return "\(place): nothing read" }
        return got.distance(to: want) <= 4 ? nil : "\(place): \(got), expected \(want)"
    }
}

/// A `withGL` block that draws green into the bottom-left quarter and then
/// changes every piece of GL state it can reach, followed by Screenplay
/// drawing a picture and a fill: their pixels must be as without the block.
@MainActor
final class WreckingDelegate: SceneDelegate {
    static let red = RGB(hex: 0xff0000), blue = RGB(hex: 0x0000ff), yellow = RGB(hex: 0xffff00)
    static let green = RGB(hex: 0x00ff00), white = RGB(hex: 0xffffff)
    let picture = Picture(width: 2, height: 1, rgba: [255, 0, 0, 255, 0, 0, 255, 255])
    /// The delegate made last (the test's scene).
    static var last: WreckingDelegate?
    init() { Self.last = self }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) {}
    /// Per frame: the pixels seen, by place.
    var seen: [[String: RGB?]] = []
    /// Per frame: what the block found at its start that was not as promised.
    var startState: [[String]] = []
    var drawables: [GLDrawable] = []
    var errorBlock: String?
    private var program: GLuint = 0
    private var texture: GLuint = 0
    private var buffer: GLuint = 0
    private var vertexArray: GLuint = 0
    private var sampler: GLuint = 0

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        let (w, h) = (context.pixelWidth, context.pixelHeight)
        try context.clear(.white)
        try context.withGL { drawable in
            drawables.append(drawable)
            startState.append(promisedStartBroken(drawable))
            glScissor(0, 0, GLsizei(w / 2), GLsizei(h / 2))
            glEnable(GLenum(GL_SCISSOR_TEST))
            glClearColor(0, 1, 0, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            wreck(drawable)
        }
        try context.draw(picture, x: 0, y: 0, width: w / 2, height: h / 2)
        try context.fill(x: w / 2, y: 0, width: w / 2, height: h / 2, color: RGBColor(hex: 0xffff00))
        seen.append([
            "picture's left (red)": pixel(context, w / 8, h / 4),
            "picture's right (blue)": pixel(context, 3 * w / 8, h / 4),
            "fill (yellow)": pixel(context, 3 * w / 4, h / 4), "block's green": pixel(context, w / 4, 3 * h / 4),
            "untouched white": pixel(context, 3 * w / 4, 3 * h / 4),
        ])
        if errorBlock == nil {
            do {
                try context.withGL { _ in glEnable(0xDEAD) }
                errorBlock = "no error"
            } catch {
                errorBlock = "\(error)"
            }
        }
    }

    /// What the block found at its start, against the documented promise.
    private func promisedStartBroken(_ drawable: GLDrawable) -> [String] {
        var broken: [String] = []
        var viewport: [GLint] = [0, 0, 0, 0]
        glGetIntegerv(GLenum(GL_VIEWPORT), &viewport)
        if viewport != [0, 0, GLint(drawable.pixelWidth), GLint(drawable.pixelHeight)] {
            broken.append("viewport \(viewport)")
        }
        for (cap, name) in [
            (GL_BLEND, "blend"), (GL_SCISSOR_TEST, "scissor"), (GL_DEPTH_TEST, "depth"), (GL_STENCIL_TEST, "stencil"),
            (GL_CULL_FACE, "cull"),
        ] where glIsEnabled(GLenum(cap)) == GLboolean(GL_TRUE) {
            broken.append("\(name) on")
        }
        var value: GLint = 0
        glGetIntegerv(GLenum(GL_CURRENT_PROGRAM), &value)
        if value != 0 { broken.append("program \(value)") }
        glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &value)
        if value != GLint(drawable.framebuffer) { broken.append("framebuffer \(value)") }
        if drawable.glesMajorVersion >= 3 {
            glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &value)
            if value != 0 { broken.append("the app's vertex array \(value) still bound") }
            glGetIntegerv(GLenum(GL_SAMPLER_BINDING), &value)
            if value != 0 { broken.append("the app's sampler \(value) still bound") }
        }
        return broken
    }

    /// Everything a careless app might leave behind.
    private func wreck(_ drawable: GLDrawable) {
        if program == 0 {
            let vertex = glCreateShader(GLenum(GL_VERTEX_SHADER))
            let fragment = glCreateShader(GLenum(GL_FRAGMENT_SHADER))
            for (shader, text) in [
                (vertex, "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"),
                (fragment, "precision mediump float; void main() { gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0); }"),
            ] {
                text.withCString { source in
                    var pointer: UnsafePointer<GLchar>? = source
                    glShaderSource(shader, 1, &pointer, nil)
                }
                glCompileShader(shader)
            }
            program = glCreateProgram()
            glAttachShader(program, vertex)
            glAttachShader(program, fragment)
            glLinkProgram(program)
            glGenTextures(1, &texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            let magenta: [UInt8] = [255, 0, 255, 255]
            glTexImage2D(
                GLenum(GL_TEXTURE_2D), 0, GL_RGBA, 1, 1, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), magenta)
            glGenBuffers(1, &buffer)
            glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
            glBufferData(GLenum(GL_ARRAY_BUFFER), 64, nil, GLenum(GL_STATIC_DRAW))
            if drawable.glesMajorVersion >= 3 {
                glGenVertexArrays(1, &vertexArray)
                glGenSamplers(1, &sampler)
                // Mipmapped sampling of a texture without mipmaps: incomplete,
                // so any texture drawn through this sampler reads black.
                glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST_MIPMAP_NEAREST)
            }
        }
        if drawable.glesMajorVersion >= 3 {
            glBindVertexArray(vertexArray)
            for unit in GLuint(0)..<4 { glBindSampler(unit, sampler) }
        }
        glUseProgram(program)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        for index in GLuint(0)..<4 {
            glEnableVertexAttribArray(index)
            glVertexAttribPointer(index, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        }
        for unit in Int32(0)..<4 {
            glActiveTexture(GLenum(GL_TEXTURE0 + unit))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        }
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ZERO), GLenum(GL_ONE))
        glBlendEquation(GLenum(GL_FUNC_REVERSE_SUBTRACT))
        glBlendColor(1, 0, 1, 0)
        glViewport(0, 0, 1, 1)
        glScissor(0, 0, 1, 1)
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_TRUE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        glEnable(GLenum(GL_CULL_FACE))
        glCullFace(GLenum(GL_FRONT_AND_BACK))
        glFrontFace(GLenum(GL_CW))
        glEnable(GLenum(GL_DEPTH_TEST))
        glDepthFunc(GLenum(GL_NEVER))
        glDepthMask(GLboolean(GL_FALSE))
        glEnable(GLenum(GL_STENCIL_TEST))
        glStencilFunc(GLenum(GL_NEVER), 1, 0)
        glStencilMask(0)
        glClearColor(1, 0, 1, 1)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 8)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 8)
    }
}

/// App-set uniforms and a picture bound to a sampler in a FragmentShader,
/// and the errors for a misspelt uniform and a value of the wrong type.
@MainActor
final class UniformShaderDelegate: SceneDelegate {
    static let source = """
        #if __VERSION__ < 300
        #define texture texture2D
        #endif
        uniform vec3 tint;
        uniform sampler2D photo;
        void mainImage(out vec4 fragColor, in vec2 fragCoord) {
            vec2 uv = fragCoord / iResolution.xy;
            fragColor = uv.x < 0.5 ? vec4(texture(photo, vec2(uv.x * 2.0, 1.0 - uv.y)).rgb, 1.0) : vec4(tint, 1.0);
        }
        """
    let shader = FragmentShader(source: source, name: "tint.glsl")
    var seen: [String: RGB?] = [:]
    var errors: [String: String] = [:]

    /// The delegate made last (the test's scene).
    static var last: UniformShaderDelegate?

    init() {
        Self.last = self
        shader.uniforms["tint"] = .vec3(0, 1, 0)
        // Top row red, bottom row blue.
        shader.textures["photo"] = Picture(width: 1, height: 2, rgba: [255, 0, 0, 255, 0, 0, 255, 255])
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {}

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        let (w, h) = (context.pixelWidth, context.pixelHeight)
        try context.draw(shader, time: 0, frame: 0)
        seen = [
            "picture's top (red)": pixel(context, w / 4, h / 8),
            "picture's bottom (blue)": pixel(context, w / 4, 7 * h / 8),
            "tint (green)": pixel(context, 3 * w / 4, h / 2),
        ]
        for (label, uniforms) in [
            ("misspelt", ["tnit": ShaderValue.vec3(1, 1, 1)]), ("wrong type", ["tint": ShaderValue.float(1)]),
        ] {
            let wrong = FragmentShader(source: Self.source, name: "wrong.glsl")
            wrong.uniforms = uniforms
            do {
                try context.draw(wrong, time: 0, frame: 0)
                errors[label] = "no error"
            } catch {
                errors[label] = "\(error)"
            }
        }
    }
}

/// Your own GL: `DrawingContext.withGL` gives the app the scene's context,
/// framebuffer and viewport, and Screenplay's drawing after it is unaffected
/// by whatever state the block changed; shaders take the app's uniforms and
/// textures.
final class OwnGLTests: ScreenplayTestCase {
    /// Headless sway with a laptop panel and a TV, an application showing
    /// `delegate`'s scene on the TV, and `body`; everything stopped after.
    @MainActor
    static func withTV(
        _ delegate: @escaping @MainActor @Sendable () -> any SceneDelegate,
        _ body: (SwayRig, Application) throws -> Void
    ) throws {
        let rig = try SwayRig.start(outputs: [.init(width: 640, height: 480), .init(width: 640, height: 480)])
        defer { rig.stop() }
        let app = try OwnLoopRig.app(rig, delegate)
        defer { app.shutdown() }
        try body(rig, app)
    }

    func testAppGLBlockChangesNoStateScreenplayDrawsWith() throws {
        try MainActor.assumeIsolated { try Self.appGLBlock() }
    }

    @MainActor
    private static func appGLBlock() throws {
        WreckingDelegate.last = nil
        try withTV({ WreckingDelegate() }) { rig, app in
            OwnLoopRig.drive(app, seconds: 10) { WreckingDelegate.last?.seen.count == 1 }
            // Three frames: state left by one frame's block must not reach the next.
            for frames in 2...3 {
                app.scenes.first?.setNeedsDisplay()
                OwnLoopRig.drive(app, seconds: 5) { WreckingDelegate.last?.seen.count == frames }
            }
            guard let delegate = WreckingDelegate.last else { return XCTFail("no scene was made") }
            XCTAssertEqual(delegate.seen.count, 3, "three frames drawn")
            let expected: [String: RGB] = [
                "picture's left (red)": WreckingDelegate.red, "picture's right (blue)": WreckingDelegate.blue,
                "fill (yellow)": WreckingDelegate.yellow, "block's green": WreckingDelegate.green,
                "untouched white": WreckingDelegate.white,
            ]
            for (frame, seen) in delegate.seen.enumerated() {
                XCTAssertEqual(mismatches(seen, expected), [], "frame \(frame + 1)'s pixels after the app's block")
            }
            XCTAssertEqual(delegate.startState, [[], [], []], "each block starts in the documented state")
            let drawable = delegate.drawables.first
            // The window's own framebuffer: 0 for an EGL window; where GL
            // renders in software the window's frame is a framebuffer object
            // that Screenplay copies into its wl_shm buffers.
            if try app.graphicsDriver().presentsThroughSharedMemory {
                XCTAssertNotEqual(drawable?.framebuffer, 0, "the window's framebuffer object")
            } else {
                XCTAssertEqual(drawable?.framebuffer, 0, "the window's own framebuffer")
            }
            XCTAssertEqual(drawable.map { [$0.pixelWidth, $0.pixelHeight] }, [640, 480])
            XCTAssertEqual(drawable.map { [2, 3].contains($0.glesMajorVersion) }, true, "GLES 2 or 3")
            let message = delegate.errorBlock ?? ""
            XCTAssertTrue(
                message.contains("GL_INVALID_ENUM") && message.contains("withGL") && message.contains("glGetError"),
                "a block that leaves a GL error fails with the error, where and the fix: \(message)")
            XCTAssertTrue(
                waitUntil(timeout: 5) {
                    ((try? rig.capture(output: "HEADLESS-2"))?.fraction(of: WreckingDelegate.yellow, tolerance: 1) ?? 0)
                        > 0.2
                }, "the frame reached the screen")
        }
    }

    func testShaderTakesTheAppsUniformsAndPictures() throws {
        try MainActor.assumeIsolated { try Self.shaderUniforms() }
    }

    @MainActor
    private static func shaderUniforms() throws {
        UniformShaderDelegate.last = nil
        try withTV({ UniformShaderDelegate() }) { _, app in
            OwnLoopRig.drive(app, seconds: 10) { UniformShaderDelegate.last?.errors.count == 2 }
            guard let delegate = UniformShaderDelegate.last else { return XCTFail("no scene was made") }
            let expected = [
                "picture's top (red)": RGB(hex: 0xff0000), "picture's bottom (blue)": RGB(hex: 0x0000ff),
                "tint (green)": RGB(hex: 0x00ff00),
            ]
            XCTAssertEqual(mismatches(delegate.seen, expected), [], "the shader's uniform and picture")
            let misspelt = delegate.errors["misspelt"] ?? ""
            XCTAssertTrue(misspelt.contains("tnit") && misspelt.contains("wrong.glsl"), misspelt)
            let wrongType = delegate.errors["wrong type"] ?? ""
            XCTAssertTrue(wrongType.contains("tint") && wrongType.contains("GL_INVALID_OPERATION"), wrongType)
        }
    }
}
