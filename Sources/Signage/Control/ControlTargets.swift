import Screenplay

/// The panels a control request's `output` names: every panel without a
/// pattern, else those the pattern matches, sorted by output name. One rule
/// for every command, so `next --output X` and `screenshot --output X` pick
/// the same panels and refuse a pattern that matches none alike.
enum ControlTargets {
    /// `.failure` when a pattern matches no panel (its message names the panels there are).
    @MainActor
    static func panels(_ all: [PlayPanel], matching pattern: String?) -> Result<[PlayPanel], ControlError> {
        let sorted = all.sorted { $0.outputName < $1.outputName }
        guard let pattern else { return .success(sorted) }
        let matcher = ScreenPattern(pattern)
        let chosen = sorted.filter { panel in panel.screen.map(matcher.matches) ?? false }
        guard chosen.isEmpty else { return .success(chosen) }
        let names = sorted.map(\.outputName)
        return .failure(
            ControlError(
                "no panel matches '\(pattern)'; the panels are: \(names.isEmpty ? "(none)" : names.joined(separator: ", "))"
            ))
    }
}
