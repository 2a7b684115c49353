import Screenplay

/// A scene's draws and repainted pixels since the last `--stats` frames
/// line: the library counts both from the scene's start (`drawCount`,
/// `redrawnPixels`), a frames line says what one period cost.
@MainActor
struct RedrawCounter {
    private weak var scene: Scene?
    private var draws = 0
    private var pixels = 0

    /// `draws` and `redrawn_px` of `scene` since the last call; a scene not
    /// seen before (a panel's new scene) counts from its start.
    mutating func take(_ scene: Scene) -> (draws: Int, redrawnPixels: Int) {
        if scene !== self.scene { (self.scene, draws, pixels) = (scene, 0, 0) }
        defer { (draws, pixels) = (scene.drawCount, scene.redrawnPixels) }
        return (scene.drawCount - draws, scene.redrawnPixels - pixels)
    }
}
