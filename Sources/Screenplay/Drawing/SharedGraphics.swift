import Rendering

/// The EGL context and the GL objects (textures, programs, text blocks)
/// that every scene of one connection shares: made on first use, so an app
/// that only lists screens never brings up EGL, and destroyed with the
/// connection they were made on.
@MainActor
final class SharedGraphics {
    /// The `wl_display *` the context is made on (libmpv's render context
    /// needs it too).
    let waylandDisplay: OpaquePointer
    private var madeContext: GraphicsContext?
    private var madeResources: GraphicsResources?
    /// Whole frames scenes presented as one shared picture, for the
    /// scenes of their size that show it next.
    let frames = SharedFrames()

    init(waylandDisplay: OpaquePointer) {
        self.waylandDisplay = waylandDisplay
    }

    /// The EGL context, made now if needed.
    func context() throws -> GraphicsContext {
        if let madeContext { return madeContext }
        let context = try GraphicsContext(waylandDisplay: waylandDisplay)
        madeContext = context
        return context
    }

    /// The shared GL objects, made now if needed.
    func resources() throws -> GraphicsResources {
        if let madeResources { return madeResources }
        let made = GraphicsResources(context: try context())
        madeResources = made
        return made
    }

    /// The GL objects if any scene has drawn, without bringing up EGL.
    var resourcesIfMade: GraphicsResources? { madeResources }

    /// Frees the GL objects, then the EGL display (the connection goes).
    func destroy() {
        frames.removeAll()
        madeResources?.destroy()
        madeResources = nil
        madeContext?.destroy()
        madeContext = nil
    }
}
