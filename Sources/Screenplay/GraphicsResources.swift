import Rendering

/// GL objects shared by every scene of one graphics context.
@MainActor
final class GraphicsResources {
    let context: GraphicsContext
    private var quadRenderer: QuadRenderer?
    private var programs: [ObjectIdentifier: ShadertoyProgram] = [:]
    private var textures: [ObjectIdentifier: Texture] = [:]
    /// Rendered text blocks, least recently drawn evicted first.
    private var texts: [TextKey: CachedText] = [:]
    private var textClock: UInt64 = 0
    /// Text blocks kept; a console with a clock and a dozen labels fits.
    let textCapacity = 64
    /// How many text blocks were laid out and rasterised (cache misses):
    /// a scene whose text does not change lays it out once.
    private(set) var textLayouts = 0

    init(context: GraphicsContext) { self.context = context }

    /// A text block: cached by everything that decides its pixels; `render`
    /// (layout and rasterising) runs only on a miss, then the canvas is
    /// uploaded and its ink found, so drawing skips the empty parts.
    func text(_ key: TextKey, render: () throws -> Canvas) throws -> CachedText {
        textClock &+= 1
        if var cached = texts[key] {
            cached.lastUse = textClock
            texts[key] = cached
            return cached
        }
        textLayouts += 1
        let canvas = try render()
        let made = CachedText(texture: try canvas.makeTexture(context: context), ink: canvas.inkRects(), lastUse: textClock)
        if texts.count >= textCapacity, let oldest = texts.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            oldest.value.texture.destroy()
            texts[oldest.key] = nil
        }
        texts[key] = made
        return made
    }

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
        for text in texts.values { text.texture.destroy() }
        programs.removeAll()
        textures.removeAll()
        texts.removeAll()
        quadRenderer?.destroy()
        quadRenderer = nil
    }
}

/// Everything that decides a text block's pixels.
struct TextKey: Hashable {
    var lines: [String]
    var pixelHeights: [Int]
    var font: String
    var color: RGBColor
    var maxWidth: Int
    var maxHeight: Int?
    var alignment: TextAlign
}

/// A laid-out text block: its texture and the parts of it with ink.
struct CachedText {
    var texture: Texture
    var ink: [PixelRect]
    var lastUse: UInt64
}
