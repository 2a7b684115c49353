import EventLoop
import Rendering

/// GL objects shared by every scene of one graphics context.
@MainActor
final class GraphicsResources {
    let context: GraphicsContext
    private var quadRenderer: QuadRenderer?
    /// Keyed by shader, holding the shader weakly: an entry whose shader is
    /// gone (or whose key a new shader reuses) is never used again.
    private var programs: [ObjectIdentifier: CachedProgram] = [:]
    /// Keyed by picture, holding the picture weakly, with the picture's
    /// generation at upload: a picture whose pixels were replaced (an
    /// animation frame, a resized SVG) is uploaded again, and a new picture
    /// at a freed picture's address never gets the old texture.
    private var textures: [ObjectIdentifier: CachedTexture] = [:]
    /// Offscreen layers for blending and turning (Layers.swift).
    var layers = LayerPool()
    /// Rendered text blocks, least recently drawn evicted first.
    private var texts: [TextKey: CachedText] = [:]
    private var textClock: UInt64 = 0
    /// Text blocks kept; a console with a clock and a dozen labels fits.
    // 16, not 64: the presenter's console changes a clock and a timer every
    // second, so a large cache fills for a minute or more and that fill
    // read as a leak of 8 KiB/s in MemoryFlatTests; 16 still holds every
    // block a frame draws, so unchanged text is never laid out again.
    let textCapacity = 16
    /// How many text blocks were laid out and rasterised (cache misses):
    /// a scene whose text does not change lays it out once.
    private(set) var textLayouts = 0
    /// Textures of evicted blocks, newest first, kept for the next block
    /// of their size (`textTexture(for:)`).
    private var spareTextTextures: [Texture] = []
    /// A clock and a timer each leave one; a few more cover other labels that change.
    private let spareTextCapacity = 4
    /// How many text blocks were copied whole onto the plain colour they
    /// were drawn over before (`PlainFill`), not blended.
    var textCopiesOverPlain = 0
    /// How many laid-out blocks went into a spare texture rather than a new one.
    private(set) var textTexturesReused = 0

    init(context: GraphicsContext) {
        self.context = context
        Self.live.append(WeakResources(self))
    }

    /// Every set of resources not yet destroyed, so a picture or shader
    /// released anywhere has its GL objects freed in all of them.
    private static var live: [WeakResources] = []

    /// Called (on the main queue) after a picture or shader was released:
    /// its GL objects go now, not at the next upload, so a playlist that
    /// stops on a static item holds only the textures it shows.
    static func sweepAfterRelease() {
        live.removeAll { $0.resources == nil }
        for entry in live { entry.resources?.sweepReleased() }
    }

    /// A text block: cached by everything that decides its pixels; `render`
    /// (layout and rasterising) runs only on a miss, then the canvas is
    /// uploaded and its ink found, so drawing skips the empty parts.
    func text(_ key: TextKey, render: () throws -> Canvas) throws -> CachedText {
        textClock &+= 1
        if let cached = texts[key] {
            cached.lastUse = textClock
            return cached
        }
        textLayouts += 1
        let canvas = try render()
        if texts.count >= textCapacity, let oldest = texts.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            texts[oldest.key] = nil
            oldest.value.releasePlainCopies()
            spareTextTextures.insert(oldest.value.texture, at: 0)
            while spareTextTextures.count > spareTextCapacity { spareTextTextures.removeLast().destroy() }
        }
        let made = CachedText(texture: try textTexture(for: canvas), mask: canvas.inkMask(), lastUse: textClock)
        texts[key] = made
        return made
    }

    /// A texture holding `canvas`: a spare one of its size written again,
    /// or a new one. A console's clock and timer change every second and
    /// each change evicts an old value of the same size: writing the old
    /// texture keeps its memory where it is, where a new texture for every
    /// change made and freed a heap block every second (the clock's, about
    /// 75 KiB at 1280x720), and now and then the freed space did not fit
    /// the next one and the heap grew by a block (the soak's 80 KiB steps).
    private func textTexture(for canvas: Canvas) throws -> Texture {
        if let index = spareTextTextures.firstIndex(where: { $0.width == canvas.width && $0.height == canvas.height }) {
            let texture = spareTextTextures.remove(at: index)
            do {
                try canvas.update(texture)
                textTexturesReused += 1
                return texture
            } catch {
                texture.destroy()
            }
        }
        return try canvas.makeTexture(context: context)
    }

    func quads() throws -> QuadRenderer {
        if let quadRenderer { return quadRenderer }
        let made = try QuadRenderer(context: context)
        quadRenderer = made
        return made
    }

    func program(for shader: FragmentShader) throws -> ShadertoyProgram {
        let key = ObjectIdentifier(shader)
        if let cached = programs[key], cached.owner === shader { return cached.program }
        programs.removeValue(forKey: key)?.program.destroy()
        sweepReleased()
        do {
            let program = try ShadertoyProgram(context: context, source: shader.source, sourceName: shader.name)
            programs[key] = CachedProgram(owner: shader, program: program)
            return program
        } catch let error as ShaderError {
            throw ShaderCompileError(error)
        }
    }

    func texture(for picture: Picture) throws -> Texture {
        let key = ObjectIdentifier(picture)
        if let cached = textures[key], cached.owner === picture, cached.generation == picture.generation {
            return cached.texture
        }
        textures.removeValue(forKey: key)?.texture.destroy()
        sweepReleased()
        // A picture beyond the GPU's texture limit (a panorama the app made)
        // is scaled down to fit rather than failing to upload.
        let texture = try Texture.fitted(
            context: context, width: picture.width, height: picture.height, rgba: picture.rgba)
        textures[key] = CachedTexture(owner: picture, generation: picture.generation, texture: texture)
        return texture
    }

    /// Live textures of pictures (for tests and statistics).
    var pictureTextureCount: Int { textures.count }
    /// Live GL objects of every kind, for `Application.graphicsObjects`.
    var objectCount: GraphicsObjectCount {
        GraphicsObjectCount(pictureTextures: textures.count, shaderPrograms: programs.count, textBlocks: texts.count)
    }

    /// Frees the GL objects of pictures and shaders the app has dropped.
    /// Runs after each release (`sweepAfterRelease`) and before each
    /// upload, so an app that keeps making new pictures (a playlist, a
    /// slideshow) holds only the live ones' textures, without calling
    /// `releaseResources(of:)`.
    private func sweepReleased() {
        for (key, entry) in textures where entry.owner == nil {
            entry.texture.destroy()
            textures[key] = nil
        }
        for (key, entry) in programs where entry.owner == nil {
            entry.program.destroy()
            programs[key] = nil
        }
    }

    /// Forgets GL objects of content that is gone.
    func release(_ object: AnyObject) {
        let key = ObjectIdentifier(object)
        programs.removeValue(forKey: key)?.program.destroy()
        textures.removeValue(forKey: key)?.texture.destroy()
    }

    func destroy() {
        Self.live.removeAll { $0.resources == nil || $0.resources === self }
        for entry in programs.values { entry.program.destroy() }
        for entry in textures.values { entry.texture.destroy() }
        programs.removeAll()
        textures.removeAll()
        for text in texts.values {
            text.texture.destroy()
            text.releasePlainCopies()
        }
        texts.removeAll()
        for texture in spareTextTextures { texture.destroy() }
        spareTextTextures.removeAll()
        layers.destroy()
        quadRenderer?.destroy()
        quadRenderer = nil
    }
}

private struct WeakResources {
    weak var resources: GraphicsResources?
    init(_ resources: GraphicsResources) { self.resources = resources }
}

/// Tells the GL caches that a picture or shader is gone. Its deinit runs
/// on whichever thread dropped the last reference, and GL objects may be
/// deleted only where their context is current, so the freeing is posted
/// to the main event loop (the main thread, which owns every context, in
/// `run()` or in an app's own loop).
func noteGraphicsOwnerReleased() {
    MainInbox.shared.post { GraphicsResources.sweepAfterRelease() }
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
    var markup = false
}

/// A picture's texture, with the picture held weakly.
private struct CachedTexture {
    weak var owner: Picture?
    var generation: Int
    var texture: Texture
}

/// A shader's program, with the shader held weakly.
private struct CachedProgram {
    weak var owner: FragmentShader?
    var program: ShadertoyProgram
}
