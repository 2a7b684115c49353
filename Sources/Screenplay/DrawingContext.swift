import Rendering

/// An sRGB colour with components from 0 to 1.
public struct RGBColor: Hashable, Sendable {
    public var red, green, blue: Double
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }
    /// `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(
            red: Double(hex >> 16 & 0xff) / 255, green: Double(hex >> 8 & 0xff) / 255, blue: Double(hex & 0xff) / 255)
    }
    /// Parses `RRGGBB` or `#RRGGBB`; nil for anything else.
    public init?(parsing text: String) {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(hex: value)
    }
    public static let black = RGBColor(hex: 0x000000)
    public static let white = RGBColor(hex: 0xffffff)
    var rendering: Color { Color(red: red, green: green, blue: blue) }
}

/// Drawing into a scene's buffer for one frame. Coordinates are device
/// pixels with the origin at the top left, as the viewer sees the screen.
@MainActor
public final class DrawingContext {
    public let pixelWidth: Int
    public let pixelHeight: Int
    let target: any RenderTarget
    let resources: GraphicsResources

    init(target: any RenderTarget, resources: GraphicsResources) {
        self.target = target
        self.resources = resources
        pixelWidth = target.pixelWidth
        pixelHeight = target.pixelHeight
    }

    /// Fills the whole buffer with `color`.
    public func clear(_ color: RGBColor) throws {
        try resources.quads().clear(red: color.red, green: color.green, blue: color.blue, on: target)
        // Mesa's software rasterizer keeps tiles that were only cleared (or
        // covered by one constant colour) as "clear" tiles, and its Wayland
        // path can hand the compositor a buffer where they were never
        // written: white or stale 64-px blocks (weston, the presenter
        // console). A quad whose colour llvmpipe cannot prove constant (see
        // QuadRenderer's colour shader) shades every tile for real.
        try resources.quads().fill(
            PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight), color: color.rendering, on: target)
    }

    /// Fills a rectangle with `color`.
    public func fill(x: Int, y: Int, width: Int, height: Int, color: RGBColor) throws {
        try resources.quads().fill(PixelRect(x: x, y: y, width: width, height: height), color: color.rendering, on: target)
    }

    /// Draws a picture fitted to the buffer, aspect kept, letterboxed in
    /// `background`.
    public func drawFitted(_ picture: Picture, background: RGBColor = .black) throws {
        try clear(background)
        let rect = aspectFit(
            contentWidth: picture.width, contentHeight: picture.height, intoWidth: pixelWidth, intoHeight: pixelHeight)
        try draw(picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// Draws a picture into a rectangle (stretched to it).
    public func draw(_ picture: Picture, x: Int, y: Int, width: Int, height: Int, opacity: Double = 1) throws {
        let texture = try resources.texture(for: picture)
        try resources.quads().draw(
            texture, in: PixelRect(x: x, y: y, width: width, height: height), on: target, opacity: opacity)
    }

    /// Runs a fragment shader over the whole buffer.
    public func draw(_ shader: FragmentShader, time: Double, frame: Int) throws {
        let program = try resources.program(for: shader)
        try program.draw(on: target, time: time, frame: frame)
    }

    /// Reads back pixels drawn so far in this frame (RGBA rows, top first).
    /// For checks, not per-frame use.
    public func readPixels(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        try target.readPixels(x: x, y: y, width: width, height: height)
    }
}

/// GL objects shared by every scene of one graphics context.
@MainActor
final class GraphicsResources {
    let context: GraphicsContext
    private var quadRenderer: QuadRenderer?
    private var programs: [ObjectIdentifier: ShadertoyProgram] = [:]
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
        let texture = try Texture(context: context, width: picture.width, height: picture.height, rgba: picture.rgba, premultiplied: picture.premultiplied)
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

/// A Shadertoy-style fragment shader: `mainImage(out vec4, in vec2)` with
/// `iTime`, `iResolution` and `iFrame`.
@MainActor
public final class FragmentShader {
    public let source: String
    /// Shown in error messages (usually the file path).
    public let name: String

    public init(source: String, name: String) {
        self.source = source
        self.name = name
    }

    /// Compiles the shader on an offscreen context so errors surface before
    /// any window opens. Throws `ShaderCompileError`.
    public func validate() throws {
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

/// A shader that did not compile or link: the driver's log with the lines
/// of the user's file.
public struct ShaderCompileError: Error, CustomStringConvertible, Sendable {
    /// (line in the user's file, message) for every diagnostic the driver gave.
    public let diagnostics: [(line: Int, message: String)]
    public let description: String

    init(_ error: ShaderError) {
        diagnostics = error.diagnostics.map { ($0.line, $0.message) }
        description = error.description
    }
}

/// Decoded RGBA pixels: an image file or pixels the app made.
@MainActor
public final class Picture {
    public private(set) var width: Int
    public private(set) var height: Int
    private(set) var rgba: [UInt8]
    private(set) var premultiplied: Bool
    private(set) var generation = 0

    /// Straight (not premultiplied) RGBA rows, top first.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "RGBA data must be width*height*4 bytes")
        self.width = width
        self.height = height
        self.rgba = rgba
        premultiplied = false
    }

    init(width: Int, height: Int, rgba: [UInt8], premultiplied: Bool) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.premultiplied = premultiplied
    }

    /// Replaces the pixels; the texture is re-uploaded on the next draw.
    func replace(width: Int, height: Int, rgba: [UInt8], premultiplied: Bool) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.premultiplied = premultiplied
        generation += 1
    }
}

extension DrawingContext {
    /// Draws lines of text (pango), centred as a block, each line at its
    /// own pixel height. For labels and test cards; each call lays out and
    /// uploads the text once.
    public func drawText(lines: [(text: String, pixelHeight: Int)], color: RGBColor, font: String = "Sans") throws {
        let fonts = lines.map { "\(font) \(max(1, $0.pixelHeight))px" }
        let probe = try Canvas(width: 1, height: 1)
        let sizes = zip(lines, fonts).map { probe.textSize($0.0.text, font: $0.1, maxWidth: Double(pixelWidth)) }
        let width = min(pixelWidth, max(1, sizes.map(\.width).max() ?? 1))
        let height = min(pixelHeight, max(1, sizes.map(\.height).reduce(0, +)))
        let canvas = try Canvas(width: width, height: height)
        canvas.clear()
        var y = 0.0
        for ((line, font), size) in zip(zip(lines, fonts), sizes) {
            canvas.drawText(
                line.text, x: Double(width) / 2, y: y, font: font, color: color.rendering, alignment: .center,
                maxWidth: Double(width))
            y += Double(size.height)
        }
        let texture = try canvas.makeTexture(context: resources.context)
        defer { texture.destroy() }
        try resources.quads().draw(
            texture,
            in: PixelRect(x: (pixelWidth - width) / 2, y: (pixelHeight - height) / 2, width: width, height: height),
            on: target)
    }
}

/// Why an image could not be used: `isUnreadable` (missing, no permission)
/// or not an image Screenplay can show (corrupt, unsupported, too large).
public struct PictureError: Error, CustomStringConvertible, Sendable {
    public let isUnreadable: Bool
    public let description: String
}

extension Picture {
    /// Decodes a PNG or JPEG file (gdk-pixbuf). Refuses images over
    /// `maxPixels` from the header, before decoding.
    public static func load(path: String, maxPixels: Int = 8192 * 8192) throws(PictureError) -> Picture {
        do {
            let image = try ImageLoader.load(path: path, maxPixels: maxPixels)
            return Picture(width: image.width, height: image.height, rgba: image.rgba)
        } catch let error as ImageError {
            throw PictureError(isUnreadable: error.isUnreadable, description: error.description)
        } catch {
            throw PictureError(isUnreadable: false, description: "\(path): \(error)")
        }
    }
}
