import Rendering

/// GL objects shared by every scene of one graphics context.
@MainActor
final class GraphicsResources {
    let context: GraphicsContext
    private var quadRenderer: QuadRenderer?
    private var programs: [ObjectIdentifier: ShadertoyProgram] = [:]
    /// Keyed by picture, with the picture's generation at upload: a
    /// picture whose pixels were replaced (an animation frame, a resized
    /// SVG) is uploaded again.
    private var textures: [ObjectIdentifier: (generation: Int, texture: Texture)] = [:]
    /// Offscreen layers for blending and turning (Layers.swift).
    var layers = LayerPool()

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
        if let cached = textures[key], cached.generation == picture.generation { return cached.texture }
        textures[key]?.texture.destroy()
        // A picture beyond the GPU's texture limit (a panorama the app made)
        // is scaled down to fit rather than failing to upload.
        let texture = try Texture.fitted(context: context, width: picture.width, height: picture.height, rgba: picture.rgba)
        textures[key] = (picture.generation, texture)
        return texture
    }

    /// Forgets GL objects of content that is gone.
    func release(_ object: AnyObject) {
        let key = ObjectIdentifier(object)
        programs.removeValue(forKey: key)?.destroy()
        textures.removeValue(forKey: key)?.texture.destroy()
    }

    func destroy() {
        for program in programs.values { program.destroy() }
        for entry in textures.values { entry.texture.destroy() }
        programs.removeAll()
        textures.removeAll()
        layers.destroy()
        quadRenderer?.destroy()
        quadRenderer = nil
    }
}
