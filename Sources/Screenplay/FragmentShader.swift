import Rendering

/// A Shadertoy-style fragment shader: `mainImage(out vec4, in vec2)` with
/// `iTime`, `iResolution` and `iFrame`.
@MainActor
public final class FragmentShader {
    /// The GLSL source with a Shadertoy-style `mainImage`.
    public let source: String
    /// Shown in error messages (usually the file path).
    public let name: String

    /// A shader from its source; it is compiled when first drawn (or by `DrawingContext.prepare(_:)`).
    public init(source: String, name: String) {
        self.source = source
        self.name = name
    }

    /// Compiles the shader on an offscreen context so errors surface before
    /// any window opens. Throws `ShaderCompileError`.
    public func validate() throws {
        try CurrentContext.preserving { try compile() }
    }

    private func compile() throws {
        let context = try GraphicsContext.offscreen()
        defer { context.destroy() }
        do {
            let program = try ShadertoyProgram(context: context, source: source, sourceName: name)
            program.destroy()
        } catch let error as ShaderError {
            throw ShaderCompileError(error)
        }
    }
}
