import Screenplay

/// What a layout's regions and an override need of the player they play
/// in: the bad items to pass over, the records of what they showed, the
/// configuration's clock rule, and their media made as the panel's are.
@MainActor
protocol PlayHost: AnyObject {
    var app: Application? { get }
    var config: SignageConfig { get }
    var badItems: BadItems { get }
    var records: PlayRecorder { get }
    var messages: SignageMessages { get }
    var webSandbox: WebSandboxPolicy { get }
    /// Wall-clock now, a hair ahead so a timer that fires on a boundary lands after it.
    func now() -> Double
}

extension PlayHost {
    /// Loads `item` for `width`x`height` pixels (as drawn, after any turn);
    /// a video decodes into `scene`'s context, a web page draws from it.
    func makeMedia(_ item: PlayItem, width: Int, height: Int, synchronously: Bool, scene: Scene) -> any PlayMedia {
        let (messages, sandbox) = (messages, webSandbox)
        return item.makeMedia(
            width: width, height: height, synchronously: synchronously, scene: scene, messages: messages,
            video: { path, loops in VideoMedia(path: path, loops: loops, scene: scene) },
            web: { page in
                WebMedia(page, width: width, height: height, scene: scene, messages: messages, sandbox: sandbox)
            })
    }
}
