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

    init(target: Target, lastMinutes: Double = 5) {
        self.target = target
        amberFrom = lastMinutes * 60
    }

    /// The command line first, then the `.pdfpc` file; in the file an end
    /// time wins over a duration, as the countdown can follow only one.
    init(command: PresentCommand, pdfpc: PdfpcFile?, now: Date) {
        let lastMinutes = command.lastMinutes ?? pdfpc?.lastMinutes ?? 5
        if let end = command.endTime {
            self.init(target: .endTime(end, at: end.nextOccurrence(after: now)), lastMinutes: lastMinutes)
        } else if let minutes = command.durationMinutes {
            self.init(target: .duration(minutes * 60), lastMinutes: lastMinutes)
        } else if let end = pdfpc?.endTime {
            self.init(target: .endTime(end, at: end.nextOccurrence(after: now)), lastMinutes: lastMinutes)
        } else if let minutes = pdfpc?.duration {
            self.init(target: .duration(minutes * 60), lastMinutes: lastMinutes)
        } else {
            self.init(target: .none, lastMinutes: lastMinutes)
        }
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
