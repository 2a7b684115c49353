import Screenplay

/// The item after the one on screen, made before its turn so it is decoded
/// and uploaded by then: the playlist's following item, or the first item
/// of the playlist a schedule's change brings. It makes every item's media
/// at the panel's size, and holds the one waiting until the panel takes it
/// or drops it.
@MainActor
final class NextItem {
    /// The next item, loading or ready; `due` once its turn has come.
    typealias Slot = (index: Int, playlist: String, media: any PlayMedia, due: Bool)

    var slot: Slot?
    private unowned let runner: PlayRunner
    private let probe: Bool

    init(runner: PlayRunner, probe: Bool) {
        self.runner = runner
        self.probe = probe
    }

    /// An item's media at the panel's content size; a layout's regions
    /// play on the panel's runner and report to its proof of play (and
    /// repaint only the regions that move on an upright panel).
    func media(for item: PlayItem, size: (Int, Int), upright: Bool, synchronously: Bool, scene: Scene)
        -> any PlayMedia
    {
        if case let .layout(layout) = item.source {
            return LayoutMedia(
                layout, width: size.0, height: size.1, runner: runner, scene: scene, probe: probe,
                damagesRegions: upright)
        }
        return runner.makeMedia(item, width: size.0, height: size.1, synchronously: synchronously, scene: scene)
    }

    /// Releases the item waiting, if any.
    func drop() {
        slot?.media.release(from: runner.app)
        slot = nil
    }

    /// Starts loading item `index` of `playlist` unless one is waiting
    /// already or it is known bad; `redraw` runs when it changes (its
    /// upload comes in the next draw).
    func preload(
        _ index: Int, of playlist: Playlist, size: (Int, Int), upright: Bool, scene: Scene,
        redraw: @escaping @MainActor () -> Void
    ) {
        guard slot == nil else { return }
        let item = playlist.items[index]
        guard !runner.badItems.knownBad(item) else { return }
        let media = media(for: item, size: size, upright: upright, synchronously: false, scene: scene)
        if runner.badItems.releaseIfFailed(media, of: item) { return }
        slot = (index, playlist.name, media, false)
        media.onChange = redraw
        if !media.isReady { scene.setNeedsDisplay() }
    }
}
