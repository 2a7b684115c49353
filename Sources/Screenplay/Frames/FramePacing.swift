import FrameTiming

/// When a display link draws: the output's refresh (presentation feedback's
/// over the output mode's over 60 Hz), the cadence that draws every n-th
/// refresh for `preferredFramesPerSecond`, and the vblank grid a frame is
/// aimed at. `DisplayLink` keeps one and says what the compositor reported.
struct FramePacing {
    private(set) var refresh = RefreshRate.resolve(presentationRefreshNs: nil, modeRefreshMilliHz: nil)
    private var cadence = Cadence(refreshNs: 16_666_667, preferredFramesPerSecond: 0)
    private var presentationRefreshNs: UInt64?
    private var modeRefreshMilliHz: Int32?
    private var preferredFramesPerSecond = 0

    /// Re-keys to an output: its mode's refresh until feedback says more.
    /// Returns whether the refresh changed.
    mutating func key(toModeRefreshMilliHz mHz: Int?) -> Bool {
        modeRefreshMilliHz = mHz.map { Int32(clamping: $0) }
        presentationRefreshNs = nil
        return resolve()
    }

    /// Presentation feedback reported the refresh it scans out at (0: none
    /// given). Returns whether the refresh changed.
    mutating func presented(refreshNs: UInt64) -> Bool {
        guard refreshNs > 0, refreshNs != presentationRefreshNs else { return false }
        presentationRefreshNs = refreshNs
        return resolve()
    }

    private mutating func resolve() -> Bool {
        let next = RefreshRate.resolve(
            presentationRefreshNs: presentationRefreshNs, modeRefreshMilliHz: modeRefreshMilliHz)
        guard next != refresh else { return false }
        refresh = next
        cadence.setRefresh(ns: next.durationNs)
        return true
    }

    /// Frames per second to draw at (0: every refresh).
    mutating func setPreferredFramesPerSecond(_ fps: Int) {
        preferredFramesPerSecond = max(0, fps)
        cadence.setPreferredFramesPerSecond(preferredFramesPerSecond)
    }

    /// The link was unpaused: the next refresh draws.
    mutating func resetCadence() { cadence.reset() }

    /// The time between frames the link asks for: a refresh, or longer with
    /// `preferredFramesPerSecond`, so 1 fps content is not taken for a stall.
    var framePeriodNs: Int64 {
        guard preferredFramesPerSecond > 0 else { return refresh.durationNs }
        return max(refresh.durationNs, 1_000_000_000 / Int64(preferredFramesPerSecond))
    }

    /// The vblank after `lastShownNs` on this refresh's grid that a frame
    /// drawn at `nowNs` can still reach.
    func nextVBlank(after lastShownNs: UInt64, nowNs: UInt64) -> UInt64 {
        VBlankGrid.next(after: lastShownNs, periodNs: refresh.durationNs, nowNs: nowNs)
    }

    /// Whether the refresh at `targetNs` gets a frame.
    mutating func shouldDraw(targetNs: UInt64) -> Bool { cadence.shouldDraw(targetNs: targetNs) }

    /// How long to wait after skipping a refresh before asking again.
    func skipDelayNs(nowNs: UInt64) -> UInt64 { cadence.retryDelayNs(nowNs: nowNs) }

    /// How long to wait, after a refresh whose picture was kept, before
    /// asking again: until a quarter refresh past the vblank after `anchor`
    /// (the last frame shown; nil: a refresh).
    func holdDelayNs(anchor: UInt64?, nowNs: UInt64) -> UInt64 {
        let period = UInt64(max(refresh.durationNs, 1))
        guard let anchor else { return period }
        let next = nextVBlank(after: anchor, nowNs: nowNs)
        return next + period / 4 - min(nowNs, next)
    }
}
