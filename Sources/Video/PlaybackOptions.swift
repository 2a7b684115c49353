/// How a player plays.
package struct PlaybackOptions: Sendable, Equatable {
    package var loops = true
    package var audio = false
    /// Decode the first frame, then wait for `play()` (a playlist's next item).
    package var startsPaused = false
    package init(loops: Bool = true, audio: Bool = false, startsPaused: Bool = false) {
        self.loops = loops
        self.audio = audio
        self.startsPaused = startsPaused
    }
}

/// What the display link should do this refresh.
package enum FrameStep: Equatable {
    /// mpv has a new picture: draw it (and report the swap).
    case draw
    /// mpv wants the picture on screen kept for this refresh too (display
    /// sync repeats a 30 fps frame on a 60 Hz output); it has been told.
    case keep
    /// Nothing from mpv yet (decoding behind, or between files).
    case wait
}

/// Where playback is.
package enum PlaybackState: Equatable, Sendable {
    case loading
    /// The first frame is decoded.
    case playing
    /// Played to the end without looping (the last frame stays drawable).
    case ended
    case failed(String)
}

extension PlaybackOptions {
    /// The options mpv starts with for this playback: drawn through the
    /// render API at the display's pace, kept open at the end, and silent
    /// unless `audio` (no audio track, so no audio output is opened).
    var mpvSettings: [(String, String)] {
        var settings: [(String, String)] = [
            ("vo", "libmpv"), ("video-sync", "display-resample"),
            // The scene's display link is the clock; mpv must not sleep
            // until a frame's time on the render thread.
            ("video-timing-offset", "0"),
            ("keep-open", "yes"), ("loop-file", loops ? "inf" : "no"),
            ("pause", startsPaused ? "yes" : "no"),
            ("sid", "no"), ("osc", "no"), ("input-default-bindings", "no"), ("terminal", "no"),
            ("msg-level", "all=no"),
        ]
        settings += MpvCore.hardwareDecoding
        settings += audio ? [("aid", "auto")] : [("aid", "no"), ("ao", "null")]
        return settings
    }
}
