import Rendering
import TestHarness
import XCTest

final class ShaderTests: OffscreenTestCase {
    private let solid = """
        void mainImage(out vec4 fragColor, in vec2 fragCoord)
        {
            fragColor = vec4(0.2, 0.4, 0.6, 0.0);
        }
        """

    func testShadertoyShaderOutputsItsColourInBothDialects() throws {
        let target = try OffscreenTarget(context: context, width: 16, height: 16)
        let dialects: [(ShadertoyProgram.Dialect, Int)] =
            context.glesMajorVersion >= 3 ? [(.glsl100, 100), (.glsl300, 300)] : [(.glsl100, 100)]
        for (dialect, version) in dialects {
            let quads = try QuadRenderer(context: context)
            try quads.clear(red: 0, green: 0, blue: 0, on: target)
            let shader = try ShadertoyProgram(context: context, source: solid, dialect: dialect)
            XCTAssertEqual(shader.glslVersion, version)
            XCTAssertTrue(shader.isShadertoyStyle)
            try shader.draw(on: target, time: 0, frame: 0)
            // Alpha is forced to 1 whatever the shader writes.
            XCTAssertEqual(try target.readPixels(x: 5, y: 5, width: 1, height: 1), [51, 102, 153, 255])
        }
    }

    func testUniformsReachTheShader() throws {
        let target = try OffscreenTarget(context: context, width: 8, height: 8)
        let shader = try ShadertoyProgram(
            context: context,
            source: """
                void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                    fragColor = vec4(iTime / 10.0, float(iFrame) / 255.0, iResolution.x / 255.0, 1.0);
                }
                """)
        try shader.draw(on: target, in: PixelRect(x: 0, y: 0, width: 51, height: 8), time: 2, frame: 102)
        XCTAssertEqual(try target.readPixels(x: 3, y: 3, width: 1, height: 1), [51, 102, 51, 255])
    }

    func testFragCoordIsRelativeToTheRectangleWithBottomLeftOrigin() throws {
        let target = try OffscreenTarget(context: context, width: 40, height: 30)
        let quads = try QuadRenderer(context: context)
        try quads.clear(red: 0, green: 0, blue: 1, on: target)
        let shader = try ShadertoyProgram(
            context: context,
            source: """
                void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                    // fragCoord is a pixel centre: 0.5, 1.5, ...
                    fragColor = vec4(floor(fragCoord) / 255.0, 0.0, 1.0);
                }
                """)
        let rect = PixelRect(x: 10, y: 5, width: 20, height: 10)
        try shader.draw(on: target, in: rect, time: 0, frame: 0)
        let pixels = try target.readPixels(x: 0, y: 0, width: 40, height: 30)
        // Top-left of the rectangle is fragCoord (0, 9); bottom-right is (19, 0).
        XCTAssertEqual(pixel(pixels, width: 40, x: 10, y: 5), [0, 9, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 40, x: 29, y: 14), [19, 0, 0, 255])
        XCTAssertEqual(pixel(pixels, width: 40, x: 9, y: 5), [0, 0, 255, 255], "outside stays untouched")
        XCTAssertEqual(pixel(pixels, width: 40, x: 10, y: 15), [0, 0, 255, 255], "outside stays untouched")
    }

    func testSyntaxErrorIsReportedOnTheUsersLine() throws {
        let source = """
            void mainImage(out vec4 fragColor, in vec2 fragCoord)
            {
                vec3 c = vec3(1.0,, 0.0);
                fragColor = vec4(c, 1.0);
            }
            """
        for dialect in [ShadertoyProgram.Dialect.glsl100, .automatic] {
            XCTAssertThrowsError(
                try ShadertoyProgram(context: context, source: source, sourceName: "bad.frag", dialect: dialect)
            ) { error in
                guard let error = error as? ShaderError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.stage, .fragment)
                XCTAssertEqual(error.diagnostics.first?.line, 3, error.infoLog)
                XCTAssertTrue(error.description.hasPrefix("bad.frag: fragment shader failed to compile"))
                XCTAssertTrue(error.description.contains("line 3: "), error.description)
                XCTAssertFalse(error.infoLog.isEmpty)
            }
        }
    }

    func testUndeclaredIdentifierInAPlainShaderIsOnTheUsersLine() throws {
        let source = """
            void main() {
                gl_FragColor = vec4(undeclaredThing, 1.0);
            }
            """
        XCTAssertThrowsError(try ShadertoyProgram(context: context, source: source)) { error in
            guard let error = error as? ShaderError else { return XCTFail("\(error)") }
            // Mesa adds a follow-on error on the same line.
            XCTAssertEqual(Set(error.diagnostics.map(\.line)), [2], error.infoLog)
            XCTAssertTrue(error.diagnostics[0].message.contains("undeclaredThing"))
        }
    }

    func testPlainMainShaderRuns() throws {
        let target = try OffscreenTarget(context: context, width: 4, height: 4)
        let shader = try ShadertoyProgram(
            context: context,
            source: """
                uniform float iTime;
                void main() { gl_FragColor = vec4(iTime, 0.4, 0.6, 1.0); }
                """)
        XCTAssertFalse(shader.isShadertoyStyle)
        XCTAssertEqual(shader.glslVersion, 100)
        try shader.draw(on: target, time: 0.2, frame: 0)
        XCTAssertEqual(try target.readPixels(x: 0, y: 0, width: 1, height: 1), [51, 102, 153, 255])
    }

    func testErrorInsideTheWrapperIsNotBlamedOnAUserLine() throws {
        // mainImage with the wrong signature: the call in Screenplay's main() fails.
        let source = "void mainImage(out vec4 fragColor) { fragColor = vec4(1.0); }\n"
        XCTAssertThrowsError(try ShadertoyProgram(context: context, source: source)) { error in
            guard let error = error as? ShaderError else { return XCTFail("\(error)") }
            XCTAssertFalse(error.diagnostics.isEmpty, error.infoLog)
            XCTAssertTrue(error.diagnostics.allSatisfy { $0.line == 0 }, "\(error.diagnostics)")
        }
    }

    func testShaderWithoutAnEntryPointIsExplained() {
        XCTAssertThrowsError(try ShadertoyProgram(context: context, source: "float f(float x) { return x; }")) {
            XCTAssertTrue("\($0)".contains("mainImage"), "\($0)")
        }
    }

    func testLinkErrorCarriesTheDriverLog() throws {
        let vertex = """
            #version 100
            attribute vec2 position;
            varying vec2 shared_value;
            void main() { shared_value = position; gl_Position = vec4(position, 0.0, 1.0); }
            """
        let fragment = """
            #version 100
            precision mediump float;
            varying vec3 shared_value;
            void main() { gl_FragColor = vec4(shared_value, 1.0); }
            """
        XCTAssertThrowsError(
            try ShaderProgram(context: context, vertexSource: vertex, fragmentSource: fragment)
        ) { error in
            guard let error = error as? ShaderError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.stage, .link)
            XCTAssertTrue(error.infoLog.contains("shared_value"), error.infoLog)
            XCTAssertTrue(error.description.contains("failed to link"))
        }
    }

    func testProgramLooksUpUniforms() throws {
        let program = try ShaderProgram(
            context: context,
            vertexSource: "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
            fragmentSource: "precision mediump float; uniform vec4 tint; void main() { gl_FragColor = tint; }",
            attributeBindings: ["p": 3])
        try program.use()
        XCTAssertGreaterThanOrEqual(program.uniformLocation("tint"), 0)
        XCTAssertEqual(program.uniformLocation("missing"), -1)
    }
}
