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
        captureHandlers.append(handler)
        if displayLink.isPaused { setNeedsDisplay() }
    }

    /// After the delegate drew, before the frame is presented: hands the
    /// back buffer to the waiting handlers.
    func deliverCaptures(from window: WindowSurface) {
        guard !captureHandlers.isEmpty else { return }
        let handlers = captureHandlers
        captureHandlers = []
        let result: Result<CapturedFrame, SceneError>
        do {
            let pixels = try window.readPixels(x: 0, y: 0, width: window.pixelWidth, height: window.pixelHeight)
            result = .success(CapturedFrame(width: window.pixelWidth, height: window.pixelHeight, rgba: pixels))
        } catch {
            result = .failure(
                SceneError(
                    screen: screen?.name, reason: "cannot read the frame back: \(error)",
                    fix: "see `screenplay doctor`"))
        }
        for handler in handlers { handler(result) }
    }

    /// The scene went before drawing again: nobody waits for a frame that
    /// will not come.
    func abandonCaptures() {
        let handlers = captureHandlers
        captureHandlers = []
        let error = SceneError(
            screen: screen?.name, reason: "the scene was torn down before it drew again",
            fix: "ask again once the screen shows a scene")
        for handler in handlers { handler(.failure(error)) }
    }
}
