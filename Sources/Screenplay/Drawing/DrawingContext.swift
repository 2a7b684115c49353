import Rendering

/// Drawing into a scene's buffer for one frame. Coordinates are device
/// pixels with the origin at the top left, as the viewer sees the screen.
@MainActor
public final class DrawingContext {
    /// Width of the drawing target in device pixels.
    public let pixelWidth: Int
    /// Height of the drawing target in device pixels.
    public let pixelHeight: Int
    /// The part of the buffer this frame repaints: the whole buffer, or on a
    /// frame asked for with ``Scene/setNeedsDisplay(in:)`` the box around
    /// what changed (and what the reused buffer missed). Drawing outside it
    /// is clipped and the pixels there keep the last frame's content, so
    /// drawing everything is correct; a delegate may skip what lies
    /// outside to save the work.
    public let redrawRect: SceneRect
    /// What every drawing call draws on. Reaching for it first settles
    /// what the frame put off: the frame's start, and a web page's frame
    /// held to be presented as it is, which is drawn now that something
    /// else shares the frame. So an order of calls draws as it always did.
    var target: any RenderTarget {
        settle()
        return drawTarget
    }
    /// The frame's start and a held page frame, put off until needed.
    let deferred: DeferredFrame
    private let drawTarget: any RenderTarget
    /// The shared GL objects, brought up at the first call that needs them:
    /// a frame presented as it is (a web page's, through wl_shm) needs none.
    var resources: GraphicsResources {
        get throws {
            if let madeResources { return madeResources }
            let made = try makeResources()
            madeResources = made
            return made
        }
    }
    private let makeResources: () throws -> GraphicsResources
    private var madeResources: GraphicsResources?
    /// Run by the scene right after the buffer is swapped (video reports
    /// its swaps to mpv).
    var afterPresent: [() -> Void] = []
    /// Run once the compositor shows the frame (its presentation feedback,
    /// else its frame callback): a web page renders its next frame only
    /// then, at the panel's refresh.
    var afterShown: [() -> Void] = []
    /// A held frame's draw that failed once something else needed it.
    var settleError: (any Error)? { deferred.error }

    convenience init(target: any RenderTarget, resources: GraphicsResources, redrawRect: SceneRect? = nil) {
        self.init(target: target, resources: { resources }, redrawRect: redrawRect)
    }

    init(target: any RenderTarget, resources: @escaping () throws -> GraphicsResources, redrawRect: SceneRect? = nil) {
        drawTarget = target
        deferred = DeferredFrame(target: target)
        makeResources = resources
        pixelWidth = target.pixelWidth
        pixelHeight = target.pixelHeight
        self.redrawRect = redrawRect ?? SceneRect(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
    }

    /// Starts the frame's drawing if it has not started, and draws a held
    /// page frame.
    func settle() { deferred.settle { try resources.quads() } }

    /// The held page frame, if the frame is nothing else: the scene
    /// presents it as it is instead of the drawn buffer.
    func takeHeldFrame() -> StagedFrame? { deferred.take { try resources.quads() } }

    /// Fills the whole buffer with `color` (of a partial frame, the part
    /// repainted: ``redrawRect``).
    public func clear(_ color: RGBColor) throws {
        try resources.quads().clear(red: color.red, green: color.green, blue: color.blue, on: target)
    }

    /// Fills a rectangle with `color`.
    public func fill(x: Int, y: Int, width: Int, height: Int, color: RGBColor) throws {
        try resources.quads().fill(
            PixelRect(x: x, y: y, width: width, height: height), color: color.rendering, on: target)
    }

    /// Fills a disc around (`centerX`, `centerY`) with `color` at
    /// `opacity` (0...1), blended over what is there, its edge anti-aliased
    /// (a laser-pointer dot).
    public func fillCircle(centerX: Double, centerY: Double, radius: Double, color: RGBColor, opacity: Double = 1)
        throws
    {
        guard radius > 0 else { return }
        let left = Int((centerX - radius - 1).rounded(.down)), top = Int((centerY - radius - 1).rounded(.down))
        let side = Int((2 * radius + 2).rounded(.up)) + 1
        try fillDisc(
            PixelRect(x: left, y: top, width: side, height: side), color: color, opacity: opacity, centerX: centerX,
            centerY: centerY, radius: radius, outside: false)
    }

    /// Fills a rectangle with `color` at `opacity` (0...1) everywhere except
    /// the disc around (`centerX`, `centerY`): a spotlight that darkens all
    /// but a circle. The disc's edge is anti-aliased.
    public func fillOutsideCircle(
        x: Int, y: Int, width: Int, height: Int, centerX: Double, centerY: Double, radius: Double, color: RGBColor,
        opacity: Double = 1
    ) throws {
        try fillDisc(
            PixelRect(x: x, y: y, width: width, height: height), color: color, opacity: opacity, centerX: centerX,
            centerY: centerY, radius: radius, outside: true)
    }

    private func fillDisc(
        _ rect: PixelRect, color: RGBColor, opacity: Double, centerX: Double, centerY: Double, radius: Double,
        outside: Bool
    ) throws {
        var tinted = color.rendering
        tinted.alpha = min(max(opacity, 0), 1)
        try resources.quads().fill(
            rect, color: tinted, circleX: centerX, circleY: centerY, radius: radius, outside: outside, on: target)
    }

    /// Draws a picture fitted to the buffer, aspect kept, letterboxed in
    /// `background`.
    public func drawFitted(_ picture: Picture, background: RGBColor = .black) throws {
        try clear(background)
        let rect = aspectFit(
            contentWidth: picture.width, contentHeight: picture.height, intoWidth: pixelWidth, intoHeight: pixelHeight)
        try draw(picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// Draws `picture` fitted into `rect` when it covers all of it and has
    /// no transparent pixel, so nothing under it shows through, and returns
    /// true; otherwise draws nothing and returns false. A layout's photo
    /// region is then one scissored quad, not a layer cleared, drawn, made
    /// opaque and copied.
    public func drawCovering(_ picture: Picture, in rect: SceneRect) throws -> Bool {
        let fit = aspectFit(
            contentWidth: picture.width, contentHeight: picture.height, intoWidth: rect.width,
            intoHeight: rect.height)
        guard fit.x == 0, fit.y == 0, fit.width == rect.width, fit.height == rect.height, picture.isOpaque else {
            return false
        }
        try draw(picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return true
    }

    /// Draws a picture into a rectangle (stretched to it).
    public func draw(_ picture: Picture, x: Int, y: Int, width: Int, height: Int, opacity: Double = 1) throws {
        let texture = try resources.texture(for: picture)
        try resources.quads().draw(
            texture, in: PixelRect(x: x, y: y, width: width, height: height), on: target, opacity: opacity)
    }

    /// Runs a fragment shader over the whole buffer, with its `uniforms`
    /// and `textures`.
    public func draw(_ shader: FragmentShader, time: Double, frame: Int) throws {
        let program = try resources.program(for: shader)
        var textures: [String: Texture] = [:]
        for (name, picture) in shader.textures { textures[name] = try resources.texture(for: picture) }
        try program.draw(
            on: target, time: time, frame: frame, uniforms: shader.uniforms.mapValues(\.uniform), textures: textures)
    }

    /// Reads back pixels drawn so far in this frame (RGBA rows, top first).
    /// For checks, not per-frame use.
    public func readPixels(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        try target.readPixels(x: x, y: y, width: width, height: height)
    }
}
