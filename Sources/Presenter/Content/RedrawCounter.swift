public import Screenplay

/// A scene's draws, repainted pixels, frames presented as they are,
/// frames copied from another scene and frames read back from a shared
/// picture since the last `--stats` frames line: the library counts them
/// from the scene's start (`drawCount`, `redrawnPixels`,
/// `framesPresentedAsIs`, `framesCopied`, `framesReadBack`), a frames
/// line says what one period cost.
@MainActor
public struct RedrawCounter {
    private weak var scene: Scene?
    private var draws = 0
    private var pixels = 0
    private var asIs = 0
    private var copied = 0
    private var readBack = 0

    /// A counter that has seen no scene yet.
    public init() {}

    /// `draws`, `redrawn_px`, `as_is`, `copied` and `read_back` of `scene`
    /// since the last call; a scene not seen before (a panel's new scene)
    /// counts from its start.
    public mutating func take(_ scene: Scene) -> (
        draws: Int, redrawnPixels: Int, presentedAsIs: Int, copied: Int, readBack: Int
    ) {
        if scene !== self.scene { (self.scene, draws, pixels, asIs, copied, readBack) = (scene, 0, 0, 0, 0, 0) }
        defer {
            (draws, pixels, asIs, copied, readBack) = (
                scene.drawCount, scene.redrawnPixels, scene.framesPresentedAsIs, scene.framesCopied,
                scene.framesReadBack
            )
        }
        return (
            scene.drawCount - draws, scene.redrawnPixels - pixels, scene.framesPresentedAsIs - asIs,
            scene.framesCopied - copied, scene.framesReadBack - readBack
        )
    }
}
