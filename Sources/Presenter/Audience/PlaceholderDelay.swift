import Dispatch
import Screenplay

/// Holds an audience scene's draw while its page renders at the scene's
/// size, for up to `grace`: a page that renders in time is shown once,
/// with no placeholder before it ("rendering page 1", or another size of
/// the page scaled, each a frame of its own that the room sees flash by).
/// A page that takes longer gets the placeholder, then the page.
@MainActor
final class PlaceholderDelay {
    /// About as long as a person takes to notice that nothing changed.
    static let graceNs: UInt64 = 100_000_000

    private var waiting: (key: SlideKey, sinceNs: UInt64)?

    /// Whether the scene may draw now: the page is rendered, nothing is
    /// awaited (black, white), or `key` has been awaited for the grace
    /// (then `redraw` has been called or is due). False starts the wait.
    func mayDraw(_ key: SlideKey?, isRendered: Bool, nowNs: UInt64, redraw: @escaping @MainActor () -> Void) -> Bool {
        guard let key, !isRendered else {
            waiting = nil
            return true
        }
        if let waiting, waiting.key == key { return nowNs >= waiting.sinceNs + Self.graceNs }
        waiting = (key, nowNs)
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(Self.graceNs))) { [weak self] in
            MainActor.assumeIsolated {
                // The page came in time (or another is awaited): no placeholder.
                guard let self, self.waiting?.key == key else { return }
                redraw()
            }
        }
        return false
    }

    /// Milliseconds the page drawn now was awaited, for the stats; nil when
    /// it was not awaited.
    func waitedMs(nowNs: UInt64) -> Int? { waiting.map { Int((nowNs - $0.sinceNs) / 1_000_000) } }
}

extension AudienceDelegate {
    /// Waits up to `PlaceholderDelay.graceNs` for the shown page at this
    /// scene's size before drawing anything else.
    func sceneIsReadyToDraw(_ scene: Scene) -> Bool {
        var key: SlideKey?
        if case let .page(p) = presenter.state.audience {
            key = SlideKey(
                page: p, size: PixelSize(width: scene.pixelSize.width, height: scene.pixelSize.height),
                region: presenter.files.slideRegion)
        }
        return placeholderDelay.mayDraw(
            key, isRendered: key.map { presenter.cache.picture($0) != nil } ?? true, nowNs: monotonicNanoseconds()
        ) { [weak scene] in scene?.setNeedsDisplay() }
    }
}
