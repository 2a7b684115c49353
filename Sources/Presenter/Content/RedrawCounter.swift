public import Screenplay

/// A scene's draws, repainted pixels and frames presented as they are
/// since the last `--stats` frames line: the library counts them from the
/// scene's start (`drawCount`, `redrawnPixels`, `framesPresentedAsIs`), a
/// frames line says what one period cost.
@MainActor
public struct RedrawCounter {
    private weak var scene: Scene?
    private var draws = 0
    private var pixels = 0
    private var asIs = 0

    /// A counter that has seen no scene yet.
    public init() {}

    /// `draws`, `redrawn_px` and `as_is` of `scene` since the last call; a
    /// scene not seen before (a panel's new scene) counts from its start.
    public mutating func take(_ scene: Scene) -> (draws: Int, redrawnPixels: Int, presentedAsIs: Int) {
        if scene !== self.scene { (self.scene, draws, pixels, asIs) = (scene, 0, 0, 0) }
        defer { (draws, pixels, asIs) = (scene.drawCount, scene.redrawnPixels, scene.framesPresentedAsIs) }
        return (scene.drawCount - draws, scene.redrawnPixels - pixels, scene.framesPresentedAsIs - asIs)
    }
}
