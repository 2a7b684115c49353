public import Screenplay

/// One panel's health for a service manager's status and watchdog.
public struct SignagePanelHealth: Equatable, Sendable {
    /// The output's name.
    public var output: String
    /// What it shows, nil until its first item was shown.
    public var showing: String?
    /// Seconds its frames have been stalled on a panel that is on; nil when not.
    public var stalledSeconds: Double?

    /// A panel's health as told to the service manager.
    public init(output: String, showing: String?, stalledSeconds: Double?) {
        self.output = output
        self.showing = showing
        self.stalledSeconds = stalledSeconds
    }
}

/// One panel's frames since the player was last asked
/// (`SignagePlayer.takeFrameStatistics()`), for a per-second report.
public struct SignagePanelFrames {
    /// The output's name.
    public var output: String
    /// The panel's scene, for counters of its own the app keeps.
    public var scene: Scene
    /// Frames the compositor presented.
    public var presented: Int
    /// Draws, also those of a static item the display link does not count.
    public var draws: Int
    /// New video pictures drawn.
    public var videoFrames: Int
    /// "stalled" or "resumed" when the panel's frames stopped or came back since; nil otherwise.
    public var stallChange: String?
}
