import Foundation

/// The countdown shown with `--talk-minutes` or `--end-time`: time left, amber
/// in the last minutes (`--last-minutes`, five by default), red once over.
struct Countdown: Equatable, Sendable {
    enum Phase: Equatable, Sendable { case normal, amber, over }
    let remaining: Double
    let phase: Phase

    /// `amberFrom`: seconds left when the timer turns amber.
    init(remaining: Double, amberFrom: Double = 300) {
        self.remaining = remaining
        if remaining <= 0 { phase = .over } else if remaining <= amberFrom { phase = .amber } else { phase = .normal }
    }

    init(duration: Double, elapsed: Double, amberFrom: Double = 300) {
        self.init(remaining: duration - elapsed, amberFrom: amberFrom)
    }

    /// "12:34" left, or "+1:05" over.
    var text: String { remaining >= 0 ? formatDuration(remaining) : "+" + formatDuration(-remaining) }
}
