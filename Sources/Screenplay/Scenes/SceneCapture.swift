import Rendering

/// One frame a scene drew, read back from its own buffer before it was
/// presented: at the scene's pixel size, in the orientation a viewer sees
/// (the compositor's output transform applies to the whole buffer, and
/// content a delegate turns itself is read turned).
public struct CapturedFrame: Sendable, Equatable {
    /// Width in device pixels.
    public let width: Int
    /// Height in device pixels.
    public let height: Int
    /// Straight RGBA bytes, rows top to bottom.
    public let rgba: [UInt8]

    /// The frame as the bytes of a PNG file.
    public func pngData() throws -> [UInt8] {
        try PNGEncoder.encode(rgba: rgba, width: width, height: height)
    }
}

extension Scene {
    /// Calls `handler` with the next frame this scene draws, read back from
    /// its buffer before it is presented; playback is not disturbed. While
    /// the display link runs that is the next frame it draws anyway; static
    /// content draws once more (the same picture) for it. A panel that is
    /// switched off draws nothing, so `handler` waits for it: callers give
    /// up after a time of their choosing. A scene torn down first answers
    /// with an error.
    public func captureNextFrame(_ handler: @escaping @MainActor (Result<CapturedFrame, SceneError>) -> Void) {
        guard isConnected else {
            return handler(
                .failure(
                    SceneError(
                        screen: screen?.name, reason: "the scene is not shown (not configured yet, or gone)",
                        fix: "ask again once the scene is connected")))
        }
        captures.add(handler)
        if displayLink.isPaused { setNeedsDisplay() }
    }
}
