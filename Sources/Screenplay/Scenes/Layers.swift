import Rendering

extension DrawingContext {
    /// Draws `body` into an offscreen layer and composites the layer over
    /// what is drawn so far with `opacity`: a crossfade of any content
    /// (pictures, shaders, colours) is the old content drawn, then the new
    /// one as a layer at the fade's progress. With `quarterTurnsClockwise`
    /// the layer is drawn at the turned size (width and height swapped for
    /// odd turns) and shown turned, for a panel mounted rotated on a
    /// compositor that was not told so. The layer's alpha is made opaque.
    public func drawLayer(
        opacity: Double = 1, quarterTurnsClockwise turns: Int = 0, _ body: (DrawingContext) throws -> Void
    ) throws {
        try LayerComposite(over: self, opacity: opacity, turns: turns).draw(on: self, body)
    }

    /// Draws `body` into the rectangle at (`x`, `y`) of `width` x `height`
    /// pixels as if it were a whole target of that size: whatever `body`
    /// clears or fits to the buffer stays inside the rectangle (a region of
    /// a signage layout). It is drawn through a layer, so content that
    /// fills its whole target (a colour, a fitted picture, a shader) needs
    /// no clipping of its own; the layer is opaque.
    public func drawRegion(
        x: Int, y: Int, width: Int, height: Int, _ body: (DrawingContext) throws -> Void
    ) throws {
        guard width > 0, height > 0 else { return }
        let rect = PixelRect(x: x, y: y, width: width, height: height)
        try LayerComposite(rect: rect, width: width, height: height).draw(on: self, body)
    }

    /// Uploads a picture's texture now, so the frame that first shows it
    /// does not pay for the upload (a playlist's next item, before its turn).
    public func prepare(_ picture: Picture) throws {
        _ = try resources.texture(for: picture)
    }

    /// Compiles a shader now, before its turn; throws `ShaderCompileError`.
    public func prepare(_ shader: FragmentShader) throws {
        _ = try resources.program(for: shader)
    }
}

/// One layer from the pool, drawn by a body as a whole target of its own
/// size and composited into a rectangle of the frame: faded to `opacity`,
/// turned `turns` quarter turns clockwise, made opaque first.
@MainActor
struct LayerComposite {
    let rect: PixelRect
    /// The layer's size: the rectangle's, or swapped for odd turns.
    let width: Int, height: Int
    var opacity = 1.0
    var turns = 0
    /// A wall canvas's part shown one to one over the whole of a frame
    /// that may be one shared picture (`CanvasPart.draw`): where the
    /// canvas is one shared picture, the frame holds the part as its own
    /// shared frame and the layer is not drawn at all.
    var part: CanvasPart?

    func draw(on frame: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        var inner: PixelRect?
        if let part {
            // Not `shownPart`: reaching for the frame's target starts it,
            // and a started frame no longer holds a shared picture.
            let shown = PixelRect(x: part.x, y: part.y, width: part.width, height: part.height)
            inner = shown == PixelRect(x: 0, y: 0, width: width, height: height) ? nil : shown
        } else if turns == 0 {
            guard let shown = shownPart(of: frame) else { return }  // none of it is repainted
            inner = shown == PixelRect(x: 0, y: 0, width: width, height: height) ? nil : shown
        }
        let resources = try frame.resources
        let layer = try resources.layers.acquire(width: width, height: height, context: resources.context)
        defer {
            layer.clip = nil
            resources.layers.putBack(layer)
        }
        layer.clip = inner
        let layerContext = DrawingContext(
            target: layer, resources: resources,
            redrawRect: inner.map { SceneRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) })
        let deferred = layerContext.frameInProgress.deferred
        deferred.holdsForPart = part != nil
        try body(layerContext)
        // Video in the layer reports its swap after the frame, as on screen.
        frame.frameInProgress.afterPresent += layerContext.frameInProgress.afterPresent
        frame.frameInProgress.afterShown += layerContext.frameInProgress.afterShown
        if let part, let tile = deferred.heldSharedFrame?.part(part, drawnOn: frame),
            frame.frameInProgress.deferred.holdShared(tile)
        {
            _ = deferred.takeShared()
            return
        }
        if deferred.heldSharedFrame != nil {
            // Drawn into the layer after all, as any content.
            layerContext.frameInProgress.settle()
            if let error = layerContext.frameInProgress.settleError { throw error }
        }
        try layer.makeOpaque()
        try resources.quads().draw(
            layer, mapping: .layer(turnedClockwise: turns), in: rect, on: frame.target, opacity: opacity)
    }
}

extension LayerComposite {
    /// A layer over the whole of `frame`, drawn at the turned size (width
    /// and height swapped for odd turns).
    init(over frame: DrawingContext, opacity: Double, turns: Int) {
        let odd = turns % 2 != 0
        let (w, h) = odd ? (frame.pixelHeight, frame.pixelWidth) : (frame.pixelWidth, frame.pixelHeight)
        let rect = PixelRect(x: 0, y: 0, width: frame.pixelWidth, height: frame.pixelHeight)
        self.init(rect: rect, width: w, height: h, opacity: opacity, turns: turns)
    }

    /// The part of the layer that reaches the frame, in layer pixels, nil
    /// when none does; the layer draws only that part (its clip, which
    /// every renderer scissors to).
    ///
    /// A partial frame repaints only part of the target: a layer drawn one
    /// to one (a region, a crossfade) draws only its part of that, so a
    /// full-panel photo under a moving ticker costs the ticker's band. A
    /// layer that reaches past the target draws only what lands on it: a
    /// wall's tile draws the wall's canvas as a layer placed so that its
    /// part covers the target, and the rest of the canvas, the other tiles'
    /// parts, is never drawn (a 2x1 wall's tile drew twice its own pixels).
    private func shownPart(of frame: DrawingContext) -> PixelRect? {
        let target = frame.target
        let bounds = target.clip ?? PixelRect(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
        guard let shown = bounds.intersection(rect), rect.width > 0, rect.height > 0 else { return nil }
        if width == rect.width, height == rect.height {
            return PixelRect(x: shown.x - rect.x, y: shown.y - rect.y, width: shown.width, height: shown.height)
        } else {
            // Stretched: the texels under the pixels shown, and one more on
            // each side, which bilinear sampling reads at the part's edges.
            let across = Double(width) / Double(rect.width), down = Double(height) / Double(rect.height)
            let left = max(0, Int((Double(shown.x - rect.x) * across).rounded(.down)) - 1)
            let top = max(0, Int((Double(shown.y - rect.y) * down).rounded(.down)) - 1)
            let right = min(width, Int((Double(shown.x + shown.width - rect.x) * across).rounded(.up)) + 1)
            let bottom = min(height, Int((Double(shown.y + shown.height - rect.y) * down).rounded(.up)) + 1)
            return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
        }
    }
}

/// Offscreen targets reused from frame to frame: a crossfade needs one per
/// refresh, and allocating a screen-sized texture each time would churn
/// memory on a box meant to run for months. Idle layers of a size no longer
/// asked for are freed, so the pool holds what the current screens need.
@MainActor
struct LayerPool {
    private var idle: [OffscreenTarget] = []
    private var busy = 0

    mutating func acquire(width: Int, height: Int, context: GraphicsContext) throws -> OffscreenTarget {
        busy += 1
        if let index = idle.firstIndex(where: { $0.pixelWidth == width && $0.pixelHeight == height }) {
            return idle.remove(at: index)
        }
        do {
            return try OffscreenTarget(context: context, width: width, height: height)
        } catch {
            busy -= 1
            throw error
        }
    }

    mutating func putBack(_ layer: OffscreenTarget) {
        busy -= 1
        idle.append(layer)
        // Two nested layers (a fade on a turned panel) per size in use, a
        // few sizes (panels of different modes): more idle ones are stale.
        while idle.count > 4 { idle.removeFirst().destroy() }
    }

    mutating func destroy() {
        for layer in idle { layer.destroy() }
        idle.removeAll()
    }
}

extension Application {
    /// Frees the GPU program of a shader the app will not draw again
    /// (programs are cached per shader, as textures are per picture).
    public func releaseResources(of shader: FragmentShader) {
        CurrentContext.preserving { graphics.resourcesIfMade?.release(shader) }
    }
}
