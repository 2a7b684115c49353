import Rendering

/// The handlers waiting for a scene's next frame (`Scene.captureNextFrame`):
/// each is answered once, with the back buffer read after the delegate drew
/// and before the frame is presented, or with an error when the scene goes
/// before drawing again.
@MainActor
final class FrameCaptures {
    private var handlers: [@MainActor (Result<CapturedFrame, SceneError>) -> Void] = []

    /// Whether a handler waits (a frame drawn then is read back).
    var isEmpty: Bool { handlers.isEmpty }

    func add(_ handler: @escaping @MainActor (Result<CapturedFrame, SceneError>) -> Void) {
        handlers.append(handler)
    }

    /// After the delegate drew, before the frame is presented: hands the
    /// back buffer of `window`, on the screen named `screen`, to the waiting handlers.
    func deliver(from window: WindowSurface, screen: String?) {
        guard !handlers.isEmpty else { return }
        let result: Result<CapturedFrame, SceneError>
        do {
            let pixels = try window.readPixels(x: 0, y: 0, width: window.pixelWidth, height: window.pixelHeight)
            result = .success(CapturedFrame(width: window.pixelWidth, height: window.pixelHeight, rgba: pixels))
        } catch {
            result = .failure(
                SceneError(
                    screen: screen, reason: "cannot read the frame back: \(error)", fix: "see `screenplay doctor`"))
        }
        answer(result)
    }

    /// The scene went before drawing again: nobody waits for a frame that
    /// will not come.
    func abandon(screen: String?) {
        answer(
            .failure(
                SceneError(
                    screen: screen, reason: "the scene was torn down before it drew again",
                    fix: "ask again once the screen shows a scene")))
    }

    /// Each waiting handler once; one added meanwhile waits for the next frame.
    private func answer(_ result: Result<CapturedFrame, SceneError>) {
        let waiting = handlers
        handlers = []
        for handler in waiting { handler(result) }
    }
}
