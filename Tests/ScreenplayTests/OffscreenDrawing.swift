import Rendering

@testable import Screenplay

/// An offscreen target with its own graphics resources, drawn frame by
/// frame through `DrawingContext` as a scene would: Mesa's surfaceless
/// platform, no compositor.
@MainActor
final class OffscreenDrawing {
    let graphics: GraphicsContext
    let resources: GraphicsResources
    let target: OffscreenTarget

    init(width: Int = 320, height: Int = 240) throws {
        graphics = try GraphicsContext.offscreen()
        resources = GraphicsResources(context: graphics)
        target = try OffscreenTarget(context: graphics, width: width, height: height)
    }

    func close() {
        resources.destroy()
        target.destroy()
        graphics.destroy()
    }

    /// One frame: `draw` on a fresh context, with `clip` as the part repainted.
    func frame(clip: PixelRect? = nil, _ draw: (DrawingContext) throws -> Void) throws -> DrawingContext {
        target.clip = clip
        defer { target.clip = nil }
        let context = DrawingContext(target: target, resources: resources)
        try draw(context)
        return context
    }

    /// Every pixel of the target (RGBA rows, top first).
    func pixels(_ context: DrawingContext) throws -> [UInt8] {
        try context.readPixels(x: 0, y: 0, width: target.pixelWidth, height: target.pixelHeight)
    }
}
