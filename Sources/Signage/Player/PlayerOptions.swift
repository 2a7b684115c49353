public import Screenplay

/// How a `SignagePlayer` plays: the settings `screenplay play` takes as
/// flags. The defaults are the tool's.
public struct PlayerOptions: Sendable {
    /// A folder of media, or a `.json` playlist file.
    public var path: String
    /// Seconds per item of a folder (and of playlist items without their own).
    public var itemSeconds: Double = 10
    /// Screen patterns (`ScreenPattern`): only screens one of them matches
    /// play; empty, every screen the application targets.
    public var outputPatterns: [String] = []
    /// Screens marked built-in play too.
    public var allOutputs = false
    /// Screen patterns of screens left alone (they show nothing).
    public var skipPatterns: [String] = []
    /// The layer of the panels' layer surfaces.
    public var layer: SceneLayer = .overlay
    /// The compositor may blank the panels when idle (by default a signage
    /// panel never goes dark on its own).
    public var allowIdle = false
    /// Where the player's messages go (standard error by default).
    public var messages = SignageMessages.standardError
    /// What a web item does about WebKit's sandbox.
    public var webSandbox = WebSandboxPolicy()

    /// The defaults, playing `path`.
    public init(path: String) { self.path = path }
}

/// What a web item does about WebKit's sandbox where the app runs: an app
/// that knows its service's sandbox (a systemd unit's settings) names the
/// fix for a refusal; by default nothing is asked and failures are told as
/// WebKit reports them.
public struct WebSandboxPolicy: Sendable {
    /// Why WebKit's sandbox cannot start here, with the fix; nil when it
    /// can. Asked once, before the first page: every web item then fails
    /// with this reason instead of waiting for its slot forever.
    public var refusal: @Sendable () -> String?
    /// A remote page's load failure as told (the reason with the fix for
    /// a sandbox that refuses sockets, say).
    public var explainLoadFailure: @Sendable (String) -> String

    /// Asks nothing and tells failures as they are, unless given otherwise.
    public init(
        refusal: @escaping @Sendable () -> String? = { nil },
        explainLoadFailure: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.refusal = refusal
        self.explainLoadFailure = explainLoadFailure
    }
}
