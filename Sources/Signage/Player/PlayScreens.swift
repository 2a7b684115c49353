import Foundation
import Screenplay

/// Which screens `play` takes: those the library's rule admits
/// (`--all-outputs` or not), less those `--skip` names, of those
/// `--output` names, with a panel entry in the playlist file. It says once
/// per screen and configuration when one is left dark for want of an
/// entry, and why each screen shows nothing when none does.
@MainActor
final class PlayScreens {
    private let options: PlayerOptions
    /// The configuration playing now (a reload replaces it).
    private let config: @MainActor () -> SignageConfig
    /// Screens told once that no panel entry matches them.
    private var toldUnmatched: Set<String> = []

    init(options: PlayerOptions, config: @escaping @MainActor () -> SignageConfig) {
        self.options = options
        self.config = config
    }

    /// The rule the library applies before play's own filter.
    var rule: ScreenTargets { options.allOutputs ? .everyScreen : .everyScreenExceptMarkedBuiltIn }

    /// play's own filter, on top of `rule`.
    func admits(_ screen: Screen) -> Bool {
        !isSkipped(screen) && matchesOutputOption(screen) && config().assignment(for: screen) != nil
    }

    func matchesOutputOption(_ screen: Screen) -> Bool {
        options.outputPatterns.isEmpty
            || options.outputPatterns.contains { pattern in
                ScreenPattern(pattern).matches(screen)
            }
    }

    /// Whether `--skip` names `screen`: a screen the box must leave alone.
    func isSkipped(_ screen: Screen) -> Bool {
        options.skipPatterns.contains { ScreenPattern($0).matches(screen) }
    }

    /// A screen play would take but for a panel entry: a warning, once.
    func explainUnmatched(_ screen: Screen) {
        guard screen.classification.markingPattern == nil || options.allOutputs, !isSkipped(screen),
            matchesOutputOption(screen), config().assignment(for: screen) == nil,
            !toldUnmatched.contains(screen.name)
        else { return }
        toldUnmatched.insert(screen.name)
        if let problem = config().wallProblem(for: screen) {
            return options.messages.warning("\(screen.name) shows nothing: \(problem)")
        }
        options.messages.warning(
            "\(screen.name) \"\(screen.displayDescription)\" matches no panel entry of \(config().source) and there is no \"default\": it shows nothing"
        )
    }

    /// A new configuration may leave other screens without an entry: each is told again.
    func forgetTold() { toldUnmatched.removeAll() }

    /// Why `screen` shows nothing (or that it is starting), for the nothing-shown report.
    func whyDark(_ screen: Screen, in app: Application) -> String {
        let (isTarget, reason) = app.targetReason(screen)
        if isTarget { return "\(screen.name): starting" }
        // The library's rule first (disabled, marked built-in), then
        // what play's own filter left out, in the order it checks.
        if !screen.isEnabled || !rule.admits(screen.classification).isTarget {
            return "\(screen.name): \(reason)"
        }
        if isSkipped(screen) { return "\(screen.name): skipped by --skip" }
        if !matchesOutputOption(screen) { return "\(screen.name): not named by --output" }
        if let problem = config().wallProblem(for: screen) { return "\(screen.name): \(problem)" }
        return "\(screen.name): matches no panel entry of \(config().source) and there is no \"default\""
    }
}
