import FrameTiming

/// Whether the output stopped showing a display link's frames: the silence
/// of its frame callbacks (`StallDetector`), which is no stall while the
/// panel is switched off and, where the compositor reports panel power,
/// counts as one only once a power read made during it found the panel on.
/// `DisplayLink` answers for it; the link's pause and frame period come in
/// with each question.
struct StallWatch {
    private var detector = StallDetector(refreshNs: 16_666_667, startNs: 0)
    /// Frames came back after a reported stall: `.resumed` waits for the next check.
    private var pendingResume = false
    /// Set by the scene where the compositor reports panel power: a
    /// silence then counts as a stall only once a power read made during
    /// it found the panel not off.
    var readsPanelPower = false
    /// When the last power read was asked for, and whether it is still out.
    private var lastPowerReadNs: UInt64?
    private var powerReadInFlight = false
    /// When the last read that found the panel not off was asked for.
    private var panelNotOffReadNs: UInt64?
    /// Whether the scene's panel is switched off (`setPanelOff`).
    private(set) var isPanelOff = false

    /// Counts the silence from `nowNs` afresh, with frames due every `periodNs`.
    mutating func restart(periodNs: Int64, nowNs: UInt64) {
        detector = StallDetector(refreshNs: periodNs, startNs: nowNs)
    }

    /// The time between the frames the link asks for changed.
    mutating func setPeriod(ns: Int64) { detector.setRefresh(ns: ns) }

    /// A kept refresh asked the output for nothing, so the silence that
    /// follows is no stall: restart the clock (unless already stalled).
    mutating func held(periodNs: Int64, nowNs: UInt64) {
        guard !detector.isStalledReported else { return }
        restart(periodNs: periodNs, nowNs: nowNs)
    }

    /// A frame callback arrived at `nowNs`.
    mutating func frameShown(nowNs: UInt64) {
        pendingResume = detector.frameCallback(atNs: nowNs) == .resumed || pendingResume
    }

    /// The panel was switched off or on: the silence that follows is no
    /// stall, and its end no resume.
    mutating func setPanelOff(_ off: Bool, periodNs: Int64, nowNs: UInt64) {
        guard off != isPanelOff else { return }
        isPanelOff = off
        restart(periodNs: periodNs, nowNs: nowNs)
        pendingResume = false
    }

    /// ``StallEvent/stalled`` once per silence of a running link on a panel
    /// known to be on, ``StallEvent/resumed`` once frames come back; nil otherwise.
    mutating func check(isPaused: Bool, nowNs: UInt64) -> StallEvent? {
        if pendingResume {
            pendingResume = false
            return .resumed
        }
        guard !isPaused, !isPanelOff, detector.isStalled(nowNs: nowNs), isPanelKnownOn else { return nil }
        return detector.poll(nowNs: nowNs)
    }

    /// How long a running link on a panel known to be on has been silent, while stalled.
    func currentStallNs(isPaused: Bool, nowNs: UInt64) -> UInt64? {
        guard !isPaused, !isPanelOff, isPanelKnownOn else { return nil }
        return detector.stalledDurationNs(nowNs: nowNs)
    }

    /// How long the frame callbacks have been silent, while stalled, panel or not.
    func stalledDurationNs(nowNs: UInt64) -> UInt64? { detector.stalledDurationNs(nowNs: nowNs) }

    /// Whether the panel counts as on for the silence now: no power
    /// reports at all, or a read asked for during the silence found it on.
    private var isPanelKnownOn: Bool {
        guard readsPanelPower else { return true }
        guard let read = panelNotOffReadNs else { return false }
        return read >= detector.lastCallbackNs
    }

    /// Whether the scene should read its panel's power now: silent long
    /// enough to count as a stall with no read asked for since the silence
    /// began, or switched off and not read for a second (nothing else says
    /// it came back: the scene asks for no frames).
    func needsPanelPowerRead(isPaused: Bool, nowNs: UInt64) -> Bool {
        guard readsPanelPower, !isPaused, !powerReadInFlight else { return false }
        if isPanelOff { return nowNs >= (lastPowerReadNs ?? 0) + 1_000_000_000 }
        guard detector.isStalled(nowNs: nowNs) else { return false }
        return (lastPowerReadNs ?? 0) < detector.lastCallbackNs
    }

    mutating func panelPowerReadStarted(nowNs: UInt64) {
        lastPowerReadNs = nowNs
        powerReadInFlight = true
    }

    /// The read asked for last answered (after the screen recorded it).
    mutating func panelPowerRead(isOff: Bool) {
        powerReadInFlight = false
        if !isOff { panelNotOffReadNs = lastPowerReadNs }
    }
}
