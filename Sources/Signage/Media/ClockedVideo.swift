import Screenplay

/// A player kept at the position the wall clock says (`VideoClock`): a
/// wall's tiles on several boxes each decode the video, and each box puts
/// it where the time since the item's slot began says, so they show the
/// same frame at the same time. Timed by the system clock, it seeks there
/// at its turn, then looks at each new picture drawn: a few frames off it
/// plays a little faster or slower, further off (a box stopped for
/// seconds) it seeks again.
@MainActor
final class ClockedVideo {
    private let player: VideoPlayer
    private let loops: Bool
    /// The wall-clock start of the item's slot; nil once it is not the clock's item.
    private let slotStart: @MainActor () -> Double?
    /// How long a seek takes to its first picture, learnt from each seek.
    private var seekLead = 0.2
    /// A seek under way: the player's completed seeks when it was asked, and when (monotonic s).
    private var seeking: (done: Int, at: Double)?
    /// New pictures to pass over after a seek (mpv's position may still be the one before).
    private var settling = 0
    /// The first picture looked at after a seek teaches the lead.
    private var learnsLead = false
    /// The drawn picture last looked at (its monotonic time).
    private var lookedAt: Double?
    private var speed = 1.0
    /// How long a seek may go unanswered before it is taken as done.
    static let seekPatience = 3.0

    init(player: VideoPlayer, loops: Bool, slotStart: @escaping @MainActor () -> Double?) {
        (self.player, self.loops, self.slotStart) = (player, loops, slotStart)
    }

    /// Its turn: timed by the system clock, at the clock's position (the
    /// first picture, decoded before the turn, is frame 0).
    func begin() {
        player.timeBySystemClock()
        guard let clock, let start = slotStart(), let target = clock.target(now: wallSeconds(), slotStart: start),
            target > clock.frame
        else { return }
        seek(to: clock.loops ? (target + seekLead).truncatingRemainder(dividingBy: clock.duration) : target + seekLead)
    }

    /// Each refresh of the panel that paces the player: a new picture drawn
    /// since the last look is compared with the clock.
    func keep() {
        if let seeking {
            let timedOut = monotonicSeconds() - seeking.at > Self.seekPatience
            guard player.completedSeeks > seeking.done || timedOut else { return }
            self.seeking = nil
            settling = 1
            learnsLead = !timedOut
        }
        guard let picture = player.drawnPicture, picture.at != lookedAt, let clock, let start = slotStart(),
            player.status == .playing
        else { return }
        lookedAt = picture.at
        if settling > 0 {
            settling -= 1
            return
        }
        // The wall-clock time the picture was drawn at.
        let drawnAt = wallSeconds() - (monotonicSeconds() - picture.at)
        if learnsLead, let target = clock.target(now: drawnAt, slotStart: start) {
            learnsLead = false
            seekLead = VideoClock.nextSeekLead(
                seekLead, offsetAfterSeek: clock.offset(shown: picture.position, target: target))
        }
        switch clock.correction(shown: picture.position, now: drawnAt, slotStart: start, seekLead: seekLead) {
        case let .seek(to: position)?: seek(to: position)
        case let .speed(wanted)?: setSpeed(wanted)
        case nil: setSpeed(1)
        }
    }

    private var clock: VideoClock? {
        guard player.duration > 0, player.framesPerSecond > 0 else { return nil }
        return VideoClock(duration: player.duration, framesPerSecond: player.framesPerSecond, loops: loops)
    }

    private func seek(to position: Double) {
        seeking = (player.completedSeeks, monotonicSeconds())
        player.seek(to: position)
    }

    private func setSpeed(_ wanted: Double) {
        guard abs(wanted - speed) > 0.001 else { return }
        speed = wanted
        player.setSpeed(wanted)
    }
}
