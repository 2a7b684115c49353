import CEGL
import Foundation

/// One positioned message from a shader compiler's info log.
package struct ShaderDiagnostic: Equatable, Sendable {
    /// Line in the source the user wrote (1-based), or 0 when the message
    /// points outside it (at code Screenplay added around it) or has no line.
    package var line: Int
    /// The message as the driver wrote it, e.g. "error: syntax error, unexpected ','".
    package var message: String

    package init(line: Int, message: String) {
        self.line = line
        self.message = message
    }
}

/// A shader that failed to compile or link, with the driver's log.
package struct ShaderError: Error, CustomStringConvertible {
    package enum Stage: String, Sendable {
        case vertex, fragment, link
    }

    package var stage: Stage
    /// The driver's info log, unmodified (line numbers are the driver's own).
    package var infoLog: String
    /// Messages from `infoLog` that carry a line number, mapped to user lines.
    package var diagnostics: [ShaderDiagnostic]
    /// Shown in `description`, typically the shader's file name.
    package var sourceName: String?

    package init(stage: Stage, infoLog: String, diagnostics: [ShaderDiagnostic], sourceName: String? = nil) {
        self.stage = stage
        self.infoLog = infoLog
        self.diagnostics = diagnostics
        self.sourceName = sourceName
    }

    package var description: String {
        let prefix = sourceName.map { "\($0): " } ?? ""
        let what = stage == .link ? "shader program failed to link" : "\(stage.rawValue) shader failed to compile"
        var lines = ["\(prefix)\(what)"]
        if diagnostics.isEmpty {
            let log = infoLog.trimmingCharacters(in: .whitespacesAndNewlines)
            lines.append(log.isEmpty ? "(the driver gave no log)" : log)
        } else {
            for d in diagnostics {
                lines.append(d.line > 0 ? "line \(d.line): \(d.message)" : d.message)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Extracts (driver line, message) pairs from an info log. Understands
    /// Mesa (`0:3(12): error: ...`), ANGLE/Imagination/Qualcomm style
    /// (`ERROR: 0:3: ...`) and NVIDIA (`0(3) : error C0000: ...`).
    package static func parse(infoLog: String) -> [ShaderDiagnostic] {
        var result: [ShaderDiagnostic] = []
        for rawLine in infoLog.split(whereSeparator: \.isNewline) {
            let text = rawLine.trimmingCharacters(in: .whitespaces)
            if let match = text.wholeMatch(of: /(\d+):(\d+)\(\d+\):\s*(.*)/) {
                result.append(ShaderDiagnostic(line: Int(match.2) ?? 0, message: String(match.3)))
            } else if let match = text.wholeMatch(of: /(ERROR|WARNING):\s*\d+:(\d+):\s*(.*)/) {
                let severity = match.1 == "ERROR" ? "error" : "warning"
                result.append(ShaderDiagnostic(line: Int(match.2) ?? 0, message: "\(severity): \(match.3)"))
            } else if let match = text.wholeMatch(of: /\d+\((\d+)\)\s*:\s*(.*)/) {
                result.append(ShaderDiagnostic(line: Int(match.1) ?? 0, message: String(match.2)))
            }
        }
        return result
    }
}

/// A linked GLSL ES program.
package final class ShaderProgram {
    package let context: GraphicsContext
    private(set) var program: GLuint = 0
    private var uniformCache: [String: GLint] = [:]

    /// Compiles and links. Throws `ShaderError` for compile and link failures.
    /// - Parameters:
    ///   - attributeBindings: attribute locations fixed before linking.
    ///   - sourceName: names the source in errors.
    package convenience init(
        context: GraphicsContext, vertexSource: String, fragmentSource: String,
        attributeBindings: [String: Int] = [:], sourceName: String? = nil
    ) throws {
        try self.init(
            context: context, vertexSource: vertexSource, fragmentSource: fragmentSource,
            attributeBindings: attributeBindings, sourceName: sourceName, fragmentLineMap: { $0 })
    }

    /// `fragmentLineMap` turns a line of the compiled fragment source into a
    /// line of the user's file (0 when it lies outside), for wrapped shaders.
    init(
        context: GraphicsContext, vertexSource: String, fragmentSource: String,
        attributeBindings: [String: Int], sourceName: String?, fragmentLineMap: (Int) -> Int
    ) throws {
        self.context = context
        try context.ensureCurrent()
        let vertex = try Self.compile(
            GLenum(GL_VERTEX_SHADER), vertexSource, stage: .vertex, sourceName: sourceName, lineMap: { $0 })
        defer { glDeleteShader(vertex) }
        let fragment = try Self.compile(
            GLenum(GL_FRAGMENT_SHADER), fragmentSource, stage: .fragment, sourceName: sourceName,
            lineMap: fragmentLineMap)
        defer { glDeleteShader(fragment) }

        let program = glCreateProgram()
        guard program != 0 else { throw RenderingError.gl(call: "glCreateProgram", error: glErrorName(glGetError())) }
        glAttachShader(program, vertex)
        glAttachShader(program, fragment)
        for (name, location) in attributeBindings {
            glBindAttribLocation(program, GLuint(location), name)
        }
        glLinkProgram(program)
        var linked: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
        let log = Self.infoLog(program, isProgram: true)
        guard linked == GL_TRUE else {
            glDeleteProgram(program)
            // Link logs rarely carry lines, and those they do refer to either stage.
            throw ShaderError(stage: .link, infoLog: log, diagnostics: [], sourceName: sourceName)
        }
        self.program = program
    }

    private static func compile(
        _ type: GLenum, _ source: String, stage: ShaderError.Stage, sourceName: String?,
        lineMap: (Int) -> Int
    ) throws -> GLuint {
        let shader = glCreateShader(type)
        guard shader != 0 else { throw RenderingError.gl(call: "glCreateShader", error: glErrorName(glGetError())) }
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled == GL_TRUE else {
            let log = infoLog(shader, isProgram: false)
            glDeleteShader(shader)
            let diagnostics = ShaderError.parse(infoLog: log).map {
                ShaderDiagnostic(line: $0.line > 0 ? lineMap($0.line) : 0, message: $0.message)
            }
            throw ShaderError(stage: stage, infoLog: log, diagnostics: diagnostics, sourceName: sourceName)
        }
        return shader
    }

    private static func infoLog(_ object: GLuint, isProgram: Bool) -> String {
        var length: GLint = 0
        if isProgram {
            glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        } else {
            glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        }
        guard length > 1 else { return "" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        var written: GLsizei = 0
        if isProgram {
            glGetProgramInfoLog(object, length, &written, &buffer)
        } else {
            glGetShaderInfoLog(object, length, &written, &buffer)
        }
        let bytes = buffer.prefix(Int(max(0, written))).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Makes the program current (and its context).
    package func use() throws {
        guard program != 0 else { throw RenderingError.destroyed(what: "ShaderProgram") }
        try context.ensureCurrent()
        glUseProgram(program)
    }

    /// The uniform's location, or -1 when the program has none by that name
    /// (the compiler drops unused uniforms, so -1 is normal). Cached.
    package func uniformLocation(_ name: String) -> Int32 {
        if let cached = uniformCache[name] { return cached }
        let location = program == 0 ? -1 : glGetUniformLocation(program, name)
        uniformCache[name] = location
        return location
    }

    /// Frees the program. Idempotent; also run by deinit.
    package func destroy() {
        guard program != 0 else { return }
        if (try? context.ensureCurrent()) != nil { glDeleteProgram(program) }
        program = 0
    }

    deinit { destroy() }
}
