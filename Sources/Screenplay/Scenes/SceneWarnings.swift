/// What a scene warns about, once each, instead of failing silently:
/// frames that take longer to draw than a refresh, and a fullscreen
/// fallback window the compositor sized or placed other than asked. Each
/// check returns the warning to report, or nil.
@MainActor
struct SceneWarnings {
    private var slowFrames = 0
    private var warnedSlow = false
    private var reportedMisplacement = false

    /// Content that takes longer to draw than a refresh cannot keep up:
    /// warned after five slow frames in a row, with the numbers.
    mutating func frameTook(_ ns: UInt64, refreshSeconds: Double, screen: String?) -> SceneError? {
        let refresh = refreshSeconds * 1e9
        slowFrames = Double(ns) > refresh * 1.5 ? slowFrames + 1 : 0
        guard slowFrames >= 5, !warnedSlow else { return nil }
        warnedSlow = true
        return SceneError(
            screen: screen,
            reason: String(
                format: "warning: each frame takes %.1f ms to draw, longer than the %.1f ms refresh (%.0f Hz)",
                Double(ns) / 1e6, refresh / 1e6, 1e9 / refresh),
            fix: "the content will run at a lower frame rate; simplify the shader or set --fps")
    }

    /// A fullscreen window should be exactly its screen's logical size. Not
    /// every compositor sends `enter` (cage 0.1.4 never does), so the size
    /// the compositor configured is the other tell: cage spans every window
    /// over all its outputs.
    mutating func fallbackConfigured(width: Int, height: Int, screen: Screen, others: [String]) -> SceneError? {
        guard !reportedMisplacement else { return nil }
        let expected = (screen.info.logicalWidth, screen.info.logicalHeight)
        guard expected.0 > 0, expected.1 > 0, (width, height) != expected else { return nil }
        reportedMisplacement = true
        let spans = width > expected.0 || height > expected.1
        let reason =
            "the compositor made the fullscreen fallback window \(width)x\(height), not the screen's \(expected.0)x\(expected.1)"
            + (spans && !others.isEmpty ? ", so it spills onto other screens (\(others.joined(separator: ", ")))" : "")
        let fix =
            spans
            ? "give the compositor one output per app (cage: run with `-m last`), or use a compositor with wlr-layer-shell"
            : "the content is drawn at the size given; use a compositor with wlr-layer-shell for exact placement"
        return SceneError(screen: screen.name, reason: reason, fix: fix)
    }

    /// The fallback asked for fullscreen on one output; some compositors
    /// ignore the hint (Hyprland #8944). `actual` names where the window
    /// went, nil when it is on the screen asked for.
    mutating func fallbackEntered(_ actual: String?, screen: Screen) -> SceneError? {
        guard let actual, !reportedMisplacement else { return nil }
        reportedMisplacement = true
        return SceneError(
            screen: screen.name,
            reason: "the compositor put the fullscreen fallback window on \(actual) instead",
            fix:
                "the compositor ignores set_fullscreen's output hint; move the window by hand or use a compositor with wlr-layer-shell"
        )
    }
}
