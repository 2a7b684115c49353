import WaylandClient

/// A display mode, as `UIScreenMode`: pixel size and refresh.
public struct ScreenMode: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels, before the screen's transform.
    public var width: Int
    /// Height in pixels, before the screen's transform.
    public var height: Int
    /// Refresh in millihertz (60 Hz is 60000); 0 when the compositor reports none.
    public var refreshMilliHz: Int
    /// Whether the panel names this mode its preferred (native) one.
    public var isPreferred: Bool

    /// A mode of this size and refresh.
    public init(width: Int, height: Int, refreshMilliHz: Int, isPreferred: Bool = false) {
        self.width = width
        self.height = height
        self.refreshMilliHz = refreshMilliHz
        self.isPreferred = isPreferred
    }

    /// `1920x1080 @ 60.000 Hz`, or `... @ unknown refresh`.
    public var description: String { outputMode.description }

    init(_ mode: OutputMode) {
        self.init(
            width: mode.width, height: mode.height, refreshMilliHz: mode.refreshMilliHz, isPreferred: mode.isPreferred)
    }

    var outputMode: OutputMode {
        OutputMode(width: width, height: height, refreshMilliHz: refreshMilliHz, isPreferred: isPreferred)
    }
}
