import Rendering

/// A Shadertoy-style fragment shader: `mainImage(out vec4, in vec2)` with
/// `iTime`, `iResolution` and `iFrame`, plus uniforms and textures the app
/// sets (`uniforms`, `textures`).
@MainActor
public final class FragmentShader {
    /// The GLSL source with a Shadertoy-style `mainImage`.
    public let source: String
    /// Shown in error messages (usually the file path).
    public let name: String
    /// Values for the shader's own uniforms, by name, set on every draw:
    /// declare each in the source (`uniform vec3 tint;`). A uniform the
    /// shader declares but never reads is dropped by the compiler and its
    /// value ignored; a name the source never mentions, or a value of
    /// another type than declared, fails the draw with an error naming it.
    public var uniforms: [String: ShaderValue] = [:]
    /// Pictures for the shader's `uniform sampler2D` declarations, by
    /// uniform name, bound to texture units 0, 1, ... in name order. Row 0
    /// of a picture (its top) is at texture coordinate t = 0, so sample
    /// with `vec2(u, 1.0 - v)` to see it upright in `fragCoord`'s
    /// bottom-up space. Sampling is bilinear; coordinates outside 0...1
    /// repeat the edge.
    public var textures: [String: Picture] = [:]

    /// A shader from its source; it is compiled when first drawn (or by `DrawingContext.prepare(_:)`).
    public init(source: String, name: String) {
        self.source = source
        self.name = name
    }

    // Its program is freed on the main thread soon after.
    deinit { noteGraphicsOwnerReleased() }

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

extension FragmentShader {
    /// Runs over the whole of `context`'s target with its uniforms and
    /// textures, the program and the pictures' textures taken from
    /// `GraphicsResources`' caches; the promise is
    /// `DrawingContext.draw(_:time:frame:)`'s.
    func draw(on context: DrawingContext, time: Double, frame: Int) throws {
        let program = try context.resources.program(for: self)
        var bound: [String: Texture] = [:]
        for (name, picture) in textures { bound[name] = try context.resources.texture(for: picture) }
        try program.draw(
            on: context.target, time: time, frame: frame, uniforms: uniforms.mapValues(\.uniform), textures: bound)
    }
}

/// A value for one of a `FragmentShader`'s own uniforms.
public enum ShaderValue: Sendable, Equatable {
    /// A `float`.
    case float(Float)
    /// A `vec2`.
    case vec2(Float, Float)
    /// A `vec3` (a colour without alpha, a position).
    case vec3(Float, Float, Float)
    /// A `vec4`.
    case vec4(Float, Float, Float, Float)
    /// An `int` (or a `bool`: 0 or 1).
    case int(Int32)

    var uniform: UniformValue {
        switch self {
        case .float(let x): return .float([x])
        case .vec2(let x, let y): return .float([x, y])
        case .vec3(let x, let y, let z): return .float([x, y, z])
        case .vec4(let x, let y, let z, let w): return .float([x, y, z, w])
        case .int(let i): return .int(i)
        }
    }
}
