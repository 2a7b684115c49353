/// The GL objects Screenplay holds for the app's content at one moment:
/// what a long-running app (a signage box, a kiosk) watches to know that
/// content it dropped left nothing behind on the GPU.
public struct GraphicsObjectCount: Sendable, Equatable, CustomStringConvertible {
    /// Textures of pictures that are still alive (one per picture drawn or prepared).
    public var pictureTextures: Int
    /// Compiled programs of fragment shaders that are still alive.
    public var shaderPrograms: Int
    /// Laid-out text blocks kept for redrawing (at most a small fixed number).
    public var textBlocks: Int

    /// Counts as given.
    public init(pictureTextures: Int, shaderPrograms: Int, textBlocks: Int) {
        self.pictureTextures = pictureTextures
        self.shaderPrograms = shaderPrograms
        self.textBlocks = textBlocks
    }

    /// The three counts in words, for logs.
    public var description: String {
        "\(pictureTextures) picture textures, \(shaderPrograms) shader programs, \(textBlocks) text blocks"
    }
}

extension Application {
    /// The GL objects held right now for pictures, shaders and text. A
    /// picture or shader the app drops has its objects freed on the main
    /// thread right after, without `releaseResources(of:)`; the count stays
    /// flat for an app that keeps making new content. All zero before the
    /// first scene draws.
    public var graphicsObjects: GraphicsObjectCount {
        graphics.resourcesIfMade?.objectCount
            ?? GraphicsObjectCount(pictureTextures: 0, shaderPrograms: 0, textBlocks: 0)
    }
}
