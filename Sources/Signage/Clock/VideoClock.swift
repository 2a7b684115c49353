/// Where a video that follows the wall clock should be, and what brings it
/// there: pure arithmetic, unit tested without a screen.
///
/// A wall's tiles on several boxes each decode the video themselves; they
/// agree on its slot (the playlist clock counts from the epoch for a wall),
/// so each puts the video at the time since the slot started (modulo the
/// clip's length when it loops). A box a little off drifts back by playing
/// a few percent faster or slower, which no one sees; one far off (it was
/// stopped, or just started) seeks.
public struct VideoClock: Sendable, Equatable {
    /// The clip's length in seconds (more than 0).
    public var duration: Double
    /// Its frame rate (more than 0).
    public var framesPerSecond: Double
    /// Whether it loops for its slot (an item with its own duration).
    public var loops: Bool

    /// Off by no more than this share of a frame: left alone (the measure
    /// itself is only good to about a frame's start).
    public static let deadbandFrames = 0.5
    /// Off by more than this many frames: a seek, not a change of speed.
    public static let seekBeyondFrames = 2.0
    /// The most the speed is changed, either way: 5 % is not seen.
    public static let largestSpeedChange = 0.05
    /// An offset is pulled in over about this many seconds.
    public static let pullSeconds = 1.0

    /// What to do about where the video is.
    public enum Correction: Sendable, Equatable {
        /// Play at this speed (1 when it is where it should be).
        case speed(Double)
        /// Seek to this many seconds into the file.
        case seek(to: Double)
    }

    /// A clip of `duration` seconds at `framesPerSecond`, looping or not.
    public init(duration: Double, framesPerSecond: Double, loops: Bool) {
        (self.duration, self.framesPerSecond, self.loops) = (duration, framesPerSecond, loops)
    }

    /// One frame, in seconds.
    public var frame: Double { 1 / framesPerSecond }

    /// The position the video should show at wall-clock `now` in a slot
    /// that began at `slotStart`: the time since, modulo the length for a
    /// loop; nil past the end of a clip that plays once (it holds its last
    /// frame) or before its slot began.
    public func target(now: Double, slotStart: Double) -> Double? {
        let since = now - slotStart
        guard since >= 0 else { return nil }
        if loops { return since.truncatingRemainder(dividingBy: duration) }
        return since < duration ? since : nil
    }

    /// How far `shown` is ahead of `target` (behind: negative); for a loop
    /// the shorter way round, so the last frame against the first is one
    /// frame, not the clip's length.
    public func offset(shown: Double, target: Double) -> Double {
        let plain = shown - target
        guard loops else { return plain }
        let wrapped = plain.truncatingRemainder(dividingBy: duration)
        if wrapped > duration / 2 { return wrapped - duration }
        if wrapped < -duration / 2 { return wrapped + duration }
        return wrapped
    }

    /// What brings a video showing `shown` at `now` back to the clock's
    /// position in the slot begun at `slotStart`; `seekLead` is how long a
    /// seek takes to show its first picture, so a seek aims that far
    /// ahead, and a loop's end is crossed by such a seek. Nil when there
    /// is nothing to follow (past the end of a one-pass clip, or near it:
    /// a seek there would land past its end).
    public func correction(shown: Double, now: Double, slotStart: Double, seekLead: Double) -> Correction? {
        guard let target = target(now: now, slotStart: slotStart) else { return nil }
        let off = offset(shown: shown, target: target)
        // A loop's end is crossed by a seek aimed past it, as every box
        // does at the same instant: mpv's own loop pauses a quarter of a
        // second here and starts the clip late, each box by its own amount.
        let crossesEnd = loops && target + max(0, seekLead) + frame >= duration
        if abs(off) > Self.seekBeyondFrames * frame || crossesEnd {
            let aim = target + max(0, seekLead)
            // Landing on the last frame would leave the end to mpv's loop: the next pass's start instead.
            if loops {
                return .seek(to: (crossesEnd ? max(aim, duration) : aim).truncatingRemainder(dividingBy: duration))
            }
            return aim < duration - frame ? .seek(to: aim) : nil
        }
        return .speed(speed(offset: off))
    }

    /// The speed that pulls in `offset` seconds over `pullSeconds`, within
    /// `largestSpeedChange`; 1 inside the dead band.
    public func speed(offset: Double) -> Double {
        guard abs(offset) > Self.deadbandFrames * frame else { return 1 }
        let change = min(max(-offset / Self.pullSeconds, -Self.largestSpeedChange), Self.largestSpeedChange)
        return 1 + change
    }

    /// The next seek lead: the last one, less how far ahead the first
    /// picture after that seek was (more when it was behind), kept between 0 and 2 s.
    public static func nextSeekLead(_ lead: Double, offsetAfterSeek: Double) -> Double {
        min(max(lead - offsetAfterSeek, 0), 2)
    }

    /// The frame number of `position` seconds into a clip at `framesPerSecond`.
    public static func frameNumber(position: Double, framesPerSecond: Double) -> Int {
        Int((position * framesPerSecond).rounded())
    }
}
