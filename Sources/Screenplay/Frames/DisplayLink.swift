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
    public var duration: Double { Double(refresh.durationNs) / 1e9 }
    /// Where `duration` came from: presentation feedback, the output's mode,
    /// or the 60 Hz fallback for outputs that report refresh 0.
    public var durationSource: DurationSource { DurationSource(refresh.source) }
    /// Frames drawn through this link.
    public private(set) var frameCount: UInt64 = 0
    /// Frames per second to draw at; 0 means every refresh. 30 on a 60 Hz
    /// output draws every other refresh.
    public var preferredFramesPerSecond: Int = 0 {
        didSet {
            cadence.setPreferredFramesPerSecond(max(0, preferredFramesPerSecond))
            stall.setRefresh(ns: stallPeriodNs)
        }
    }
    /// Whether the link is stopped. Unpausing asks for the next frame.
    public var isPaused = true {
        didSet {
            guard oldValue != isPaused else { return }
            if !isPaused {
                cadence.reset()
                stall = StallDetector(refreshNs: stallPeriodNs, startNs: monotonicNanoseconds())
                onResume?()
            }
        }
    }
    /// Called after the duration changes (new output, new mode).
    public var onDurationChange: ((Double) -> Void)?

    /// Presentation statistics of this link's scene (for `--stats`).
    package private(set) var history = PresentationHistory(capacity: 512)

    private(set) var refresh = RefreshRate.resolve(presentationRefreshNs: nil, modeRefreshMilliHz: nil)
    private var cadence = Cadence(refreshNs: 16_666_667, preferredFramesPerSecond: 0)
    private var presentationRefreshNs: UInt64?
    private var modeRefreshMilliHz: Int32?
    /// Set by the scene: unpausing asks it for a frame.
    var onResume: (() -> Void)?
    /// Set by the scene where the compositor reports panel power: a
    /// silence then counts as a stall only once a power read made during
    /// it found the panel not off.
    var readsPanelPower = false
    /// When the last power read was asked for, and whether it is still out.
    private var lastPowerReadNs: UInt64?
    private var powerReadInFlight = false
    /// When the last read that found the panel not off was asked for.
    private var panelNotOffReadNs: UInt64?

    init() {}

    /// Forgets feedback in flight (the surface is gone).
    func resetFeedback() { feedback.reset() }

    /// Re-keys to an output: its mode's refresh until feedback says more.
    func key(toModeRefreshMilliHz mHz: Int?) {
        modeRefreshMilliHz = mHz.map { Int32(clamping: $0) }
        presentationRefreshNs = nil
        resolve()
    }

    /// Feedback requests given up (unanswered past the deadline): the scene
    /// drops their proxies. Then, whether this frame may ask for feedback:
    /// a token for the request, or nil while the budget is spent or the
    /// compositor is believed silent.
    func feedbackRequest(nowNs: UInt64) -> (abandon: [UInt64], token: UInt64?) {
        let abandon = feedback.expire(nowNs: nowNs)
        guard feedback.mayRequest(nowNs: nowNs) else { return (abandon, nil) }
        return (abandon, feedback.requested(nowNs: nowNs))
    }

    /// Feedback requests in flight (bounded by `FeedbackBudget.maxOutstanding`).
    public var outstandingFeedback: Int { feedback.outstanding }
    /// Whether the compositor is believed to answer presentation feedback;
    /// false before the first answer and while it is silent.
    public var isReceivingPresentationFeedback: Bool { feedback.isAnswering }

    func presented(token: UInt64, timestampNs: UInt64, refreshNs: UInt64, sequence: UInt64) {
        feedback.answered(token, nowNs: monotonicNanoseconds())
        history.presented(timestampNs: timestampNs, refreshNs: refreshNs, sequence: sequence)
        timestamp = Double(timestampNs) / 1e9
        if refreshNs > 0, refreshNs != presentationRefreshNs {
            presentationRefreshNs = refreshNs
            resolve()
        }
    }

    func discarded(token: UInt64) {
        feedback.answered(token, nowNs: monotonicNanoseconds())
        history.discarded()
    }

    private func resolve() {
        let next = RefreshRate.resolve(
            presentationRefreshNs: presentationRefreshNs, modeRefreshMilliHz: modeRefreshMilliHz)
        guard next != refresh else { return }
        let changed = next.durationNs != refresh.durationNs
        refresh = next
        cadence.setRefresh(ns: next.durationNs)
        stall.setRefresh(ns: stallPeriodNs)
        if changed { onDurationChange?(duration) }
    }

    /// The refresh a frame drawn now would be shown at: the next vblank of
    /// the presentation grid when feedback gives one, else now. Pacing on
    /// this grid instead of callback arrival keeps 30-on-60 exact where
    /// callbacks arrive at uneven times (weston calls back right after a
    /// commit when its repaint loop was idle).
    func targetVBlank(nowNs: UInt64) -> UInt64 {
        guard feedback.isAnswering, let last = history.lastPresentationNs else { return nowNs }
        return VBlankGrid.next(after: last, periodNs: refresh.durationNs, nowNs: nowNs)
    }

    /// A frame callback (or the skip timer) fired: decide whether this
    /// refresh gets a frame.
    func shouldDraw(nowNs: UInt64) -> Bool {
        guard !isPaused else { return false }
        return cadence.shouldDraw(targetNs: targetVBlank(nowNs: nowNs))
    }

    /// How long to wait after skipping a refresh before asking again: just
    /// past the vblank this refresh would have hit.
    func skipDelayNs(nowNs: UInt64) -> UInt64 { cadence.retryDelayNs(nowNs: nowNs) }

    /// How long to wait, after a refresh whose picture was kept, before
    /// asking again: until a quarter refresh past the next vblank (from
    /// presentation feedback, or frame-callback arrival where there is none),
    /// so a frame drawn then is committed well before the vblank after it.
    /// A kept refresh asked the output for nothing, so the silence that
    /// follows is no stall: restart the stall clock (unless already stalled).
    func held(nowNs: UInt64) {
        guard !stall.isStalledReported else { return }
        stall = StallDetector(refreshNs: stallPeriodNs, startNs: nowNs)
    }

    func holdDelayNs(nowNs: UInt64) -> UInt64 {
        let anchor = feedback.isAnswering ? history.lastPresentationNs : callbackHistory.lastPresentationNs
        let period = UInt64(max(refresh.durationNs, 1))
        guard let anchor else { return period }
        let next = VBlankGrid.next(after: anchor, periodNs: refresh.durationNs, nowNs: nowNs)
        return next + period / 4 - min(nowNs, next)
    }

    func willDraw(nowNs: UInt64) {
        frameCount += 1
        if history.lastPresentationNs == nil { timestamp = Double(nowNs) / 1e9 }
        let last = history.lastPresentationNs ?? nowNs
        targetTimestamp = Double(VBlankGrid.next(after: last, periodNs: refresh.durationNs, nowNs: nowNs)) / 1e9
    }

    /// Frames whose frame callback arrived, timed on arrival: what counts
    /// as shown where the compositor answers no presentation feedback
    /// (sway 1.7's headless backend never sends `presented` or `discarded`;
    /// cage and KWin's virtual backend offer no wp_presentation).
    package private(set) var callbackHistory = PresentationHistory(capacity: 512)
    private var feedback = FeedbackBudget()

    func frameShown(nowNs: UInt64) {
        callbackHistory.presented(timestampNs: nowNs, refreshNs: 0, sequence: nil)
        pendingResume = stall.frameCallback(atNs: nowNs) == .resumed || pendingResume
    }

    private var stall = StallDetector(refreshNs: 16_666_667, startNs: 0)
    /// The time between frames the link asks for: a refresh, or longer with
    /// `preferredFramesPerSecond`, so 1 fps content is not taken for a stall.
    private var stallPeriodNs: Int64 {
        guard preferredFramesPerSecond > 0 else { return refresh.durationNs }
        return max(refresh.durationNs, 1_000_000_000 / Int64(preferredFramesPerSecond))
    }
    private var pendingResume = false

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
        if pendingResume {
            pendingResume = false
            return .resumed
        }
        guard !isPaused, !isPanelOff, stall.isStalled(nowNs: nowNs), isPanelKnownOn else { return nil }
        return stall.poll(nowNs: nowNs)
    }

    /// Whether the panel counts as on for the silence now: no power
    /// reports at all, or a read asked for during the silence found it on.
    private var isPanelKnownOn: Bool {
        guard readsPanelPower else { return true }
        guard let read = panelNotOffReadNs else { return false }
        return read >= stall.lastCallbackNs
    }

    /// Whether the scene should read its panel's power now: silent long
    /// enough to count as a stall with no read asked for since the silence
    /// began, or switched off and not read for a second (nothing else says
    /// it came back: the scene asks for no frames).
    func needsPanelPowerRead(nowNs: UInt64) -> Bool {
        guard readsPanelPower, !isPaused, !powerReadInFlight else { return false }
        if isPanelOff { return nowNs >= (lastPowerReadNs ?? 0) + 1_000_000_000 }
        guard stall.isStalled(nowNs: nowNs) else { return false }
        return (lastPowerReadNs ?? 0) < stall.lastCallbackNs
    }

    func panelPowerReadStarted(nowNs: UInt64) {
        lastPowerReadNs = nowNs
        powerReadInFlight = true
    }

    /// The read asked for last answered (after the screen recorded it).
    func panelPowerRead(isOff: Bool) {
        powerReadInFlight = false
        if !isOff { panelNotOffReadNs = lastPowerReadNs }
    }

    /// Set while the scene's panel is switched off: the silence that follows
    /// is no stall, and its end no resume.
    var isPanelOff = false {
        didSet {
            guard oldValue != isPanelOff else { return }
            stall = StallDetector(refreshNs: stallPeriodNs, startNs: monotonicNanoseconds())
            pendingResume = false
        }
    }

    /// How long a running link on a panel that is on has been stalled at
    /// `nowNs`, or nil (ticking, paused, its panel switched off, or, where
    /// the compositor reports panel power, not yet read as on during this
    /// silence). Unlike `checkStall(nowNs:)` it reports no events, sends
    /// nothing and changes nothing, so a watchdog and a stats timer can
    /// both ask.
    package func currentStall(nowNs: UInt64 = monotonicNanoseconds()) -> Double? {
        guard !isPaused, !isPanelOff, isPanelKnownOn, let silent = stall.stalledDurationNs(nowNs: nowNs) else {
            return nil
        }
        return Double(silent) / 1e9
    }

    /// How long the link's frame callbacks have been silent, while stalled.
    public func stalledDuration(nowNs: UInt64 = monotonicNanoseconds()) -> Double? {
        stall.stalledDurationNs(nowNs: nowNs).map { Double($0) / 1e9 }
    }

    /// Where frame counts come from: `presentation` (wp_presentation
    /// feedback) or `frame-callbacks` where the compositor answers none, or
    /// has stopped answering (then the link asks again now and then, and
    /// switches back on the first answer).
    public var countSource: String { feedback.isAnswering ? "presentation" : "frame-callbacks" }

    /// Drains the once-a-second statistics window.
    package func drainStatistics(nowNs: UInt64) -> FrameWindow {
        let fromFeedback = history.drainWindow(nowNs: nowNs)
        let fromCallbacks = callbackHistory.drainWindow(nowNs: nowNs)
        if feedback.isAnswering { return fromFeedback }
        return FrameWindow(
            presented: fromCallbacks.presented, discarded: fromFeedback.discarded, refreshNs: fromFeedback.refreshNs,
            windowSeconds: fromCallbacks.windowSeconds)
    }
}

/// CLOCK_MONOTONIC now, in nanoseconds: the clock wp_presentation uses on
/// every compositor Screenplay knows.
public func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
