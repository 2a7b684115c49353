/// Decides when a surface may ask for `wp_presentation` feedback, so that
/// the number of requests the compositor has not answered stays small
/// whatever the compositor does.
///
/// A feedback object has no destroy request: only the compositor's
/// `presented` or `discarded` ends it, on both sides. sway 1.7's headless
/// backend never sends either (it has no vblank to present on), and any
/// compositor may leave feedback unanswered for a while (an output switched
/// off, a surface not shown). A client that asks on every frame regardless
/// grows by one object per frame in its own memory and in the compositor's.
///
/// The budget keeps at most ``maxOutstanding`` requests in flight. A request
/// unanswered for ``answerDeadlineNs`` is given up (the caller drops its
/// client-side proxy; the compositor's copy stays until it answers or the
/// surface goes, which is why the number of requests matters, not only
/// their age) and the compositor counts as silent: the budget stops asking,
/// and frames are counted by frame callbacks instead. It probes with a
/// single request after ``firstProbeDelayNs``, doubling the wait up to
/// ``maxProbeDelayNs`` while probes go unanswered or answers stop again
/// within ``stablePeriodNs``, so a compositor that never answers (or answers
/// only some requests) costs one object per `maxProbeDelayNs` at worst. An
/// answer makes it active again. Answers that come several frames late are
/// still used: only age beyond the deadline counts against a request.
public struct FeedbackBudget: Sendable {
    /// Requests in flight at most. Six covers compositors that answer a few
    /// frames late (at 60 Hz an answer three frames late leaves four in
    /// flight) without letting a silent one pile up.
    public static let maxOutstanding = 6
    /// Age after which an unanswered request is given up. Real compositors
    /// answer within a few refreshes; a second is far beyond that even at
    /// low refresh rates.
    public static let answerDeadlineNs: UInt64 = 1_000_000_000
    /// First probe after the compositor was found silent.
    public static let firstProbeDelayNs: UInt64 = 2_000_000_000
    /// Longest wait between probes to a compositor that stays silent.
    public static let maxProbeDelayNs: UInt64 = 120_000_000_000
    /// Answering this long without a miss resets the probe wait: the
    /// silence was an episode (an output off for a while), not a habit.
    public static let stablePeriodNs: UInt64 = 10_000_000_000

    /// Whether the compositor is believed to answer.
    public enum Mode: Sendable, Equatable {
        /// Answers are expected (also before the first request): ask on
        /// every frame the budget allows.
        case active
        /// A request went unanswered past the deadline: ask once per probe.
        case silent
    }

    /// The current belief about the compositor.
    public private(set) var mode: Mode = .active
    /// Whether any answer (`presented` or `discarded`) was ever seen.
    public private(set) var hasSeenAnswer = false
    /// Requests given up so far (for diagnostics and tests).
    public private(set) var abandonedCount = 0
    /// Requests in flight: a token and when it was sent, oldest first.
    private var inFlight: [(token: UInt64, sentNs: UInt64)] = []
    private var nextToken: UInt64 = 1
    /// Wait before the next probe; 0 until the first silence.
    private var probeDelayNs: UInt64 = 0
    private var nextProbeNs: UInt64 = 0
    /// When the mode last became active after a silence, and silent.
    private var activeSinceNs: UInt64 = 0
    private var silentSinceNs: UInt64 = 0

    /// Creates a budget in the active mode.
    public init() {}

    /// Requests sent and neither answered nor given up.
    public var outstanding: Int { inFlight.count }

    /// Whether frame counts should come from presentation feedback: answers
    /// have been seen and the compositor is not believed silent.
    public var isAnswering: Bool { hasSeenAnswer && mode == .active }

    /// Gives up requests older than the deadline; returns their tokens so
    /// the caller can drop the proxies. Call before ``mayRequest(nowNs:)``.
    public mutating func expire(nowNs: UInt64) -> [UInt64] {
        var expired: [UInt64] = []
        var probeMissed = false
        while let oldest = inFlight.first, nowNs >= oldest.sentNs, nowNs - oldest.sentNs >= Self.answerDeadlineNs {
            expired.append(oldest.token)
            // Requests sent before the silence began expire one by one
            // after it; only a probe's miss lengthens the wait.
            if mode == .silent && oldest.sentNs >= silentSinceNs { probeMissed = true }
            inFlight.removeFirst()
        }
        guard !expired.isEmpty else { return [] }
        abandonedCount += expired.count
        switch mode {
        case .active:
            let stable = probeDelayNs == 0 || nowNs - activeSinceNs >= Self.stablePeriodNs
            probeDelayNs = stable ? Self.firstProbeDelayNs : min(probeDelayNs * 2, Self.maxProbeDelayNs)
            mode = .silent
            silentSinceNs = nowNs
            nextProbeNs = nowNs + probeDelayNs
        case .silent where probeMissed:
            probeDelayNs = min(probeDelayNs * 2, Self.maxProbeDelayNs)
            nextProbeNs = nowNs + probeDelayNs
        case .silent:
            break
        }
        return expired
    }

    /// Whether a frame committed now may carry a feedback request.
    public func mayRequest(nowNs: UInt64) -> Bool {
        guard inFlight.count < Self.maxOutstanding else { return false }
        switch mode {
        case .active: return true
        case .silent: return inFlight.isEmpty && nowNs >= nextProbeNs
        }
    }

    /// Records a request sent now; returns its token.
    public mutating func requested(nowNs: UInt64) -> UInt64 {
        let token = nextToken
        nextToken &+= 1
        inFlight.append((token, nowNs))
        return token
    }

    /// Records an answer (`presented` or `discarded`) to a request.
    public mutating func answered(_ token: UInt64, nowNs: UInt64) {
        inFlight.removeAll { $0.token == token }
        hasSeenAnswer = true
        if mode == .silent {
            mode = .active
            activeSinceNs = nowNs
        }
    }

    /// Forgets everything in flight (the surface is gone).
    public mutating func reset() {
        inFlight.removeAll()
    }
}
