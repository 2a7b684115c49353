/// A video whose position follows a clock other than the display's (a
/// wall's tile on several boxes, each at the position the wall clock
/// says): mpv times it by the system clock, and the owner moves it with a
/// seek or a slightly faster or slower speed.
extension MpvPlayer {
    /// Times the video by the system clock (`video-sync=audio`; without an
    /// audio track that is the clock) instead of the display's refreshes:
    /// a display whose refreshes run a few percent fast (headless sway's
    /// 62 a second for 60 Hz) would otherwise carry the video with it, and
    /// a speed set on a display-synced video is rounded away to whole
    /// refreshes per frame.
    package func timeBySystemClock() {
        guard !timedBySystemClock else { return }
        timedBySystemClock = true
        core.setPropertyAsync("video-sync", "audio")
    }

    /// Seeks to `seconds` into the file, to the exact frame; the playback
    /// restart that follows ends no pass (`PlayedPassCheck`) and counts in `seeksDone`.
    package func seek(to seconds: Double) {
        seekPending = true
        core.command(async: ["seek", String(max(0, seconds)), "absolute+exact"])
    }

    /// Plays at `speed` times the file's own rate.
    package func setSpeed(_ speed: Double) {
        core.setPropertyAsync("speed", String(speed))
    }

    /// Seeks asked for whose playback restarted.
    package var completedSeeks: Int { seeksDone }
}
