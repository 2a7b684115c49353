import Rendering

/// What a `DrawingContext.withGL(_:)` block draws into: bound, with the
/// viewport covering it, when the block starts.
public struct GLDrawable: Sendable, Equatable {
    /// The framebuffer object bound for drawing (0: the window's own buffer;
    /// another name while drawing into an offscreen layer, where GL renders
    /// in software (the window's frame, which Screenplay copies into its own
    /// wl_shm buffers), or, on a partial frame where the driver offers no
    /// buffer age, into the scene's own copy of its picture). Bind this
    /// name, never 0, if your block binds framebuffers of its own.
    public let framebuffer: UInt32
    /// Width in device pixels (the viewport's width).
    public let pixelWidth: Int
    /// Height in device pixels (the viewport's height).
    public let pixelHeight: Int
    /// The OpenGL ES version of the context: 3 where the driver offers it
    /// (GLSL ES 3.00 shaders, vertex array objects), else 2.
    public let glesMajorVersion: Int
}

extension DrawingContext {
    /// Draws with your own OpenGL ES 2/3 calls (import the package's
    /// `ScreenplayGLES` module for `glClearColor`, `glDrawArrays` and the
    /// rest) in the middle of Screenplay's frame.
    ///
    /// When `body` runs, the scene's EGL context is current, its framebuffer
    /// bound and the viewport set to the whole buffer; blending, depth,
    /// stencil and face culling are off, the colour mask is full and no
    /// program is in use. The scissor test is off on a full frame; on a
    /// partial one (``Scene/setNeedsDisplay(in:)``) it is on and set to
    /// ``redrawRect`` (in GL's bottom-left coordinates), so drawing the
    /// whole buffer repaints only what changed: leave it on. Everything else is as Screenplay left it: set
    /// what you rely on. GL's origin is the bottom left, unlike the
    /// context's other calls. Make your GL objects (programs, buffers,
    /// textures) inside a block too, on first use: only Screenplay's context
    /// is current there, and they stay valid across frames and scenes (every
    /// scene shares the one context) until the application shuts down.
    ///
    /// Afterwards Screenplay puts back every piece of GL state the block may
    /// have changed (program, bindings of buffers, textures, samplers,
    /// vertex arrays and framebuffers, enabled arrays and capabilities,
    /// blend, depth and stencil settings, masks, clear values, viewport,
    /// scissor, pixel store), so its own drawing after the block is as
    /// without it. On a window with an alpha channel, alpha returns to 1
    /// everywhere, so the screen stays opaque.
    ///
    /// Throws what `body` threw, or a `SceneError` naming the GL error
    /// (`GL_INVALID_OPERATION`, ...) the block left set.
    ///
    /// ```swift
    /// try context.withGL { drawable in
    ///     glClearColor(0.1, 0.2, 0.3, 1)
    ///     glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    /// }
    /// ```
    public func withGL<T>(_ body: (GLDrawable) throws -> T) throws -> T { try OwnGLBlock.run(on: self, body) }
}

/// An app's own GL block run in a frame (`AppGLBlock` keeps and puts back
/// the GL state around it), and a GL error it left set turned into a
/// `SceneError` that names it; the promise is `DrawingContext.withGL`'s.
@MainActor
enum OwnGLBlock {
    static func run<T>(on context: DrawingContext, _ body: (GLDrawable) throws -> T) throws -> T {
        let (result, leftError) = try AppGLBlock.run(on: context.target, context: context.resources.context) {
            target in
            try body(
                GLDrawable(
                    framebuffer: target.framebuffer, pixelWidth: target.pixelWidth, pixelHeight: target.pixelHeight,
                    glesMajorVersion: target.glesMajorVersion))
        }
        if let leftError {
            throw SceneError(
                screen: nil, reason: "the withGL block left \(leftError) set (a GL call in it failed)",
                fix: "call glGetError() after the block's GL calls to find the one that fails, and fix its arguments")
        }
        return result
    }
}
