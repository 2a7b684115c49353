/// A video shown at the position another clock says (a video wall's tile
/// on several boxes): timed by the system clock, moved by seeks and small
/// changes of speed; what it drew last says where it is.
extension VideoPlayer {
    /// Times the video by the system clock instead of the display's
    /// refreshes, so its position keeps to real time whatever the
    /// display's rate, and a speed set sticks. Call before `play()`.
    public func timeBySystemClock() { player.timeBySystemClock() }

    /// Seeks to `seconds` into the file (the exact frame).
    public func seek(to seconds: Double) { player.seek(to: seconds) }

    /// Plays at `speed` times the file's own rate (1: as made).
    public func setSpeed(_ speed: Double) { player.setSpeed(speed) }

    /// Seeks asked for with `seek(to:)` that are done (playback restarted there).
    public var completedSeeks: Int { player.completedSeeks }

    /// Where in the file (seconds) the last new picture drawn was, as mpv
    /// reported its playback position then, and when it was drawn
    /// (monotonic seconds); nil before the first.
    public var drawnPicture: (position: Double, at: Double)? { player.drawnPicture }

    /// The file's frame rate (0 until known).
    public var framesPerSecond: Double { player.framesPerSecond }

    /// The file's length in seconds (0 until known).
    public var duration: Double { player.duration }
}
