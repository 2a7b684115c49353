import Rendering

/// GL objects shared by every scene of one graphics context.
@MainActor
final class GraphicsResources {
    let context: GraphicsContext
    private var quadRenderer: QuadRenderer?
    private var programs: [ObjectIdentifier: ShadertoyProgram] = [:]
    private var textures: [ObjectIdentifier: Texture] = [:]

    init(context: GraphicsContext) { self.context = context }

    func quads() throws -> QuadRenderer {
        if let quadRenderer { return quadRenderer }
        let made = try QuadRenderer(context: context)
        quadRenderer = made
        return made
    }

    func program(for shader: FragmentShader) throws -> ShadertoyProgram {
        if let program = programs[ObjectIdentifier(shader)] { return program }
        do {
            let program = try ShadertoyProgram(context: context, source: shader.source, sourceName: shader.name)
            programs[ObjectIdentifier(shader)] = program
            return program
        } catch let error as ShaderError {
            throw ShaderCompileError(error)
        }
    }

    func texture(for picture: Picture) throws -> Texture {
        let key = ObjectIdentifier(picture)
        if let cached = textures[key] { return cached }
        let texture = try Texture(context: context, width: picture.width, height: picture.height, rgba: picture.rgba, premultiplied: false)
        textures[key] = texture
        return texture
    }

    /// Forgets GL objects of content that is gone.
    func release(_ object: AnyObject) {
        let key = ObjectIdentifier(object)
        programs.removeValue(forKey: key)?.destroy()
        textures.removeValue(forKey: key)?.destroy()
    }

    func destroy() {
        for program in programs.values { program.destroy() }
        for texture in textures.values { texture.destroy() }
        programs.removeAll()
        textures.removeAll()
        quadRenderer?.destroy()
        quadRenderer = nil
    }
}
