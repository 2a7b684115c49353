import Foundation

/// What the countdown counts towards, and when it turns amber.
struct TalkTiming: Equatable, Sendable {
    enum Target: Equatable, Sendable {
        /// No countdown: the elapsed time only.
        case none
        /// Seconds of talk, counted from the first page change.
        case duration(Double)
        /// A time of day, fixed when the presenter starts.
        case endTime(ClockTime, at: Date)
    }
    let target: Target
    /// Seconds left when the countdown turns amber.
    let amberFrom: Double
    /// When the timer starts by itself (`--start-time`, pdfpc's `startTime`).
    let startsAt: Date?

    init(target: Target, lastMinutes: Double = 5, startsAt: Date? = nil) {
        self.target = target
        amberFrom = lastMinutes * 60
        self.startsAt = startsAt
    }

    /// A start time's moment: the one within the last 12 hours (the talk
    /// began and the presenter was restarted) or the next one.
    static func startMoment(_ time: ClockTime, now: Date, calendar: Calendar = .current) -> Date {
        time.nextOccurrence(after: now.addingTimeInterval(-12 * 3600), calendar: calendar)
    }

    /// The command line first, then the `.pdfpc` file; in the file an end
    /// time wins over a duration, as the countdown can follow only one.
    init(options: TalkOptions, pdfpc: PdfpcFile?, now: Date) {
        let lastMinutes = options.lastMinutes ?? pdfpc?.lastMinutes ?? 5
        let start = (options.startTime ?? pdfpc?.startTime).map { Self.startMoment($0, now: now) }
        let target: Target
        if let end = options.endTime {
            target = .endTime(end, at: end.nextOccurrence(after: start ?? now))
        } else if let minutes = options.durationMinutes {
            target = .duration(minutes * 60)
        } else if let end = pdfpc?.endTime {
            target = .endTime(end, at: end.nextOccurrence(after: start ?? now))
        } else if let minutes = pdfpc?.duration {
            target = .duration(minutes * 60)
        } else {
            target = .none
        }
        self.init(target: target, lastMinutes: lastMinutes, startsAt: start)
    }

    /// The countdown now; nil without one.
    func countdown(elapsed: Double, now: Date) -> Countdown? {
        switch target {
        case .none: return nil
        case let .duration(seconds): return Countdown(duration: seconds, elapsed: elapsed, amberFrom: amberFrom)
        case let .endTime(_, at: end): return Countdown(remaining: end.timeIntervalSince(now), amberFrom: amberFrom)
        }
    }
}
