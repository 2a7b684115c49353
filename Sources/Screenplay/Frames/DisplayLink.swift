package import FrameTiming
import Glibc

/// A timer keyed to the refresh of the output a scene is on, as
/// `CADisplayLink`. Driven by `wl_surface.frame` callbacks and
/// `wp_presentation` feedback; it never waits on an output, so a hidden or
/// switched-off screen whose callbacks stop blocks nothing.
///
/// While paused (the default) it asks for no frames and costs no CPU; call
/// `Scene.setNeedsDisplay()` to draw static content once.
@MainActor
public final class DisplayLink {
    /// Presentation time of the last frame shown (CLOCK_MONOTONIC, seconds),
    /// or the frame callback's time before any feedback arrived.
    public private(set) var timestamp: Double = 0
    /// When the frame being drawn now is expected to reach the screen.
    public private(set) var targetTimestamp: Double = 0
    /// Time between refreshes of the scene's output, in seconds.
    public var duration: Double { Double(pacing.refresh.durationNs) / 1e9 }
    /// Where `duration` came from: presentation feedback, the output's mode,
    /// or the 60 Hz fallback for outputs that report refresh 0.
    public var durationSource: DurationSource { DurationSource(pacing.refresh.source) }
    /// Frames drawn through this link.
    public private(set) var frameCount: UInt64 = 0
    /// Frames per second to draw at; 0 means every refresh. 30 on a 60 Hz
    /// output draws every other refresh.
    public var preferredFramesPerSecond: Int = 0 {
        didSet {
            pacing.setPreferredFramesPerSecond(preferredFramesPerSecond)
            stall.setPeriod(ns: pacing.framePeriodNs)
        }
    }
    /// Whether the link is stopped. Unpausing asks for the next frame.
    public var isPaused = true {
        didSet {
            guard oldValue != isPaused else { return }
            if !isPaused {
                pacing.resetCadence()
                stall.restart(periodNs: pacing.framePeriodNs, nowNs: monotonicNanoseconds())
                onResume?()
            }
        }
    }
    /// Called after the duration changes (new output, new mode).
    public var onDurationChange: ((Double) -> Void)?

    /// The frames shown, by presentation feedback or by frame callbacks.
    private(set) var frames = FrameRecord()
    /// The refresh, the cadence and the vblank grid frames are paced on.
    private var pacing = FramePacing()
    /// The output's refresh, as `duration` and `durationSource` tell it.
    var refresh: RefreshRate { pacing.refresh }
    /// Whether the frames stopped reaching the screen.
    private var stall = StallWatch()
    /// Set by the scene: unpausing asks it for a frame.
    var onResume: (() -> Void)?
    /// Set by the scene where the compositor reports panel power
    /// (`StallWatch.readsPanelPower`).
    var readsPanelPower: Bool {
        get { stall.readsPanelPower }
        set { stall.readsPanelPower = newValue }
    }

    init() {}

    /// Forgets feedback in flight (the surface is gone).
    func resetFeedback() { frames.forgetFeedback() }

    /// Re-keys to an output: its mode's refresh until feedback says more.
    func key(toModeRefreshMilliHz mHz: Int?) {
        let before = pacing.refresh.durationNs
        if pacing.key(toModeRefreshMilliHz: mHz) { refreshChanged(from: before) }
    }

    /// Feedback requests given up (unanswered past the deadline): the scene
    /// drops their proxies. Then, whether this frame may ask for feedback:
    /// a token for the request, or nil while the budget is spent or the
    /// compositor is believed silent.
    func feedbackRequest(nowNs: UInt64) -> (abandon: [UInt64], token: UInt64?) {
        frames.feedbackRequest(nowNs: nowNs)
    }

    /// Feedback requests in flight (bounded by `FeedbackBudget.maxOutstanding`).
    public var outstandingFeedback: Int { frames.outstandingFeedback }
    /// Whether the compositor is believed to answer presentation feedback;
    /// false before the first answer and while it is silent.
    public var isReceivingPresentationFeedback: Bool { frames.isAnswering }

    func presented(token: UInt64, timestampNs: UInt64, refreshNs: UInt64, sequence: UInt64) {
        frames.presented(token: token, timestampNs: timestampNs, refreshNs: refreshNs, sequence: sequence)
        timestamp = Double(timestampNs) / 1e9
        let before = pacing.refresh.durationNs
        if pacing.presented(refreshNs: refreshNs) { refreshChanged(from: before) }
    }

    func discarded(token: UInt64) { frames.discarded(token: token) }

    private func refreshChanged(from durationNs: Int64) {
        stall.setPeriod(ns: pacing.framePeriodNs)
        if pacing.refresh.durationNs != durationNs { onDurationChange?(duration) }
    }

    /// The refresh a frame drawn now would be shown at: the next vblank of
    /// the presentation grid when feedback gives one, else now. Pacing on
    /// this grid instead of callback arrival keeps 30-on-60 exact where
    /// callbacks arrive at uneven times (weston calls back right after a
    /// commit when its repaint loop was idle).
    func targetVBlank(nowNs: UInt64) -> UInt64 {
        guard frames.isAnswering, let last = frames.history.lastPresentationNs else { return nowNs }
        return pacing.nextVBlank(after: last, nowNs: nowNs)
    }

    /// A frame callback (or the skip timer) fired: decide whether this
    /// refresh gets a frame.
    func shouldDraw(nowNs: UInt64) -> Bool {
        guard !isPaused else { return false }
        return pacing.shouldDraw(targetNs: targetVBlank(nowNs: nowNs))
    }

    /// How long to wait after skipping a refresh before asking again: just
    /// past the vblank this refresh would have hit.
    func skipDelayNs(nowNs: UInt64) -> UInt64 { pacing.skipDelayNs(nowNs: nowNs) }

    /// How long to wait, after a refresh whose picture was kept, before
    /// asking again: until a quarter refresh past the next vblank (from
    /// presentation feedback, or frame-callback arrival where there is none),
    /// so a frame drawn then is committed well before the vblank after it.
    /// A kept refresh asked the output for nothing, so the silence that
    /// follows is no stall: restart the stall clock (unless already stalled).
    func held(nowNs: UInt64) { stall.held(periodNs: pacing.framePeriodNs, nowNs: nowNs) }

    func holdDelayNs(nowNs: UInt64) -> UInt64 {
        pacing.holdDelayNs(anchor: frames.lastShownNs, nowNs: nowNs)
    }

    func willDraw(nowNs: UInt64) {
        frameCount += 1
        if frames.history.lastPresentationNs == nil { timestamp = Double(nowNs) / 1e9 }
        let last = frames.history.lastPresentationNs ?? nowNs
        targetTimestamp = Double(pacing.nextVBlank(after: last, nowNs: nowNs)) / 1e9
    }

    func frameShown(nowNs: UInt64) {
        frames.callbackArrived(nowNs: nowNs)
        stall.frameShown(nowNs: nowNs)
    }

    /// Whether the output stopped showing this link's frames: a running link
    /// whose frame callbacks have been silent for max(4 frame periods, 250 ms),
    /// as when the output is hidden, switched off or no longer repainted.
    /// Returns ``StallEvent/stalled`` once per silence and
    /// ``StallEvent/resumed`` once frames come back; nil otherwise. Nothing
    /// waits on the silence (other scenes and the event loop go on); poll
    /// this from a timer you already have, e.g. to tell a monitoring system.
    /// A panel switched off (`zwlr_output_power_manager_v1`, where offered)
    /// is no stall: the application reads the panel's power once the
    /// silence counts as a stall (and once a second while it is off), and
    /// the stall is reported only after that read found the panel on. The
    /// check itself sends nothing and waits for nothing.
    package func checkStall(nowNs: UInt64 = monotonicNanoseconds()) -> StallEvent? {
        stall.check(isPaused: isPaused, nowNs: nowNs)
    }

    /// Whether the scene should read its panel's power now (`StallWatch.needsPanelPowerRead`).
    func needsPanelPowerRead(nowNs: UInt64) -> Bool { stall.needsPanelPowerRead(isPaused: isPaused, nowNs: nowNs) }

    func panelPowerReadStarted(nowNs: UInt64) { stall.panelPowerReadStarted(nowNs: nowNs) }

    /// The read asked for last answered (after the screen recorded it).
    func panelPowerRead(isOff: Bool) { stall.panelPowerRead(isOff: isOff) }

    /// Set while the scene's panel is switched off: the silence that follows
    /// is no stall, and its end no resume.
    var isPanelOff: Bool {
        get { stall.isPanelOff }
        set { stall.setPanelOff(newValue, periodNs: pacing.framePeriodNs, nowNs: monotonicNanoseconds()) }
    }

    /// How long a running link on a panel that is on has been stalled at
    /// `nowNs`, or nil (ticking, paused, its panel switched off, or, where
    /// the compositor reports panel power, not yet read as on during this
    /// silence). Unlike `checkStall(nowNs:)` it reports no events, sends
    /// nothing and changes nothing, so a watchdog and a stats timer can
    /// both ask.
    package func currentStall(nowNs: UInt64 = monotonicNanoseconds()) -> Double? {
        stall.currentStallNs(isPaused: isPaused, nowNs: nowNs).map { Double($0) / 1e9 }
    }

    /// How long the link's frame callbacks have been silent, while stalled.
    public func stalledDuration(nowNs: UInt64 = monotonicNanoseconds()) -> Double? {
        stall.stalledDurationNs(nowNs: nowNs).map { Double($0) / 1e9 }
    }

    /// Where frame counts come from: `presentation` (wp_presentation
    /// feedback) or `frame-callbacks` where the compositor answers none, or
    /// has stopped answering (then the link asks again now and then, and
    /// switches back on the first answer).
    public var countSource: String { frames.isAnswering ? "presentation" : "frame-callbacks" }

    /// Drains the once-a-second statistics window.
    package func drainStatistics(nowNs: UInt64) -> FrameWindow { frames.drainWindow(nowNs: nowNs) }
}

/// CLOCK_MONOTONIC now, in nanoseconds: the clock wp_presentation uses on
/// every compositor Screenplay knows.
public func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
