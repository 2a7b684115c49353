import Screenplay
import Signage

extension PlayItem {
    /// Loads the item for a panel of `width`x`height` pixels (as drawn,
    /// after any turn), with the tool's video and web players; a video
    /// decodes into `scene`'s context.
    @MainActor
    func makeMedia(width: Int, height: Int, synchronously: Bool, scene: Scene) -> any PlayMedia {
        makeMedia(
            width: width, height: height, synchronously: synchronously, scene: scene, messages: .log,
            video: { path, loops in VideoMedia(path: path, loops: loops, scene: scene) },
            web: { page in WebMedia(page, width: width, height: height, scene: scene) })
    }
}

extension SignageMessages {
    /// The tool's log: events as `log` lines, problems as `warn` lines.
    static let log = SignageMessages(
        info: { Log.write($0, level: .info) }, warning: { Log.write($0, level: .warning) })
}
