import Rendering

/// The EGL/GLES driver scenes draw with on the application's connection
/// (`Application.graphicsDriver()`): what it is, and whether scenes can
/// repaint only what changed.
public struct GraphicsDriver: Sendable, CustomStringConvertible {
    /// The GL renderer, such as `llvmpipe (LLVM 15.0.6, 256 bits)`.
    public let renderer: String
    /// The GL version string.
    public let version: String
    /// The OpenGL ES major version of the context (3 where offered, else 2).
    public let glesMajorVersion: Int
    /// Whether the EGL config has no alpha channel.
    public let isOpaqueConfig: Bool
    /// EGL_EXT_buffer_age: the back buffer's content is known, so a scene
    /// that changed in part draws only the changed rectangles.
    public let offersBufferAge: Bool
    /// EGL_KHR_swap_buffers_with_damage: the compositor hears which
    /// rectangles changed.
    public let offersSwapWithDamage: Bool
    /// Where GL renders in software (Mesa's llvmpipe, which offers neither
    /// extension), each scene draws into a framebuffer that keeps the last
    /// frame and presents through its own wl_shm buffers, copying into each
    /// only the rows that changed since it was last shown and telling the
    /// compositor exactly those. Without any of the three a scene that
    /// changes in part repaints its own copy of its picture and copies all
    /// of it into each new buffer.
    public let presentsThroughSharedMemory: Bool

    init(_ context: GraphicsContext) {
        renderer = context.renderer
        version = context.version
        glesMajorVersion = context.glesMajorVersion
        isOpaqueConfig = context.isOpaqueConfig
        offersBufferAge = context.offersBufferAge
        offersSwapWithDamage = context.offersSwapWithDamage
        presentsThroughSharedMemory = WindowSurface.presentsThroughShm(with: context)
    }

    /// `renderer, version, GLES n, opaque|alpha config`, as `doctor` prints it.
    public var description: String {
        "\(renderer), \(version), GLES \(glesMajorVersion), \(isOpaqueConfig ? "opaque" : "alpha") config"
    }
}
