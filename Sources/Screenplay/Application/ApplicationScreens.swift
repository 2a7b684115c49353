extension Application {
    /// Complete screens, in announcement order.
    public var screens: [Screen] { screenRegistry.screens }
    /// Screens that get external-display scenes.
    public var externalScreens: [Screen] { screenRegistry.targets }
    /// The screen that keeps the app's controls: the built-in panel, else
    /// the main screen of the classification.
    public var mainScreen: Screen? { screens.first { !$0.classification.isExternal } ?? screens.first }

    /// Why `screen` does or does not get an external scene, in words.
    public func targetReason(_ screen: Screen) -> (isTarget: Bool, reason: String) {
        screenRegistry.targetReason(screen)
    }

    /// Makes `screen` the only built-in screen and every other one external,
    /// overriding the connector rules, `SCREENPLAY_BUILTIN` and the options:
    /// for when the guess was wrong ("which screen is the projector?").
    /// Accessory scenes move at once.
    public func markAsOnlyBuiltIn(_ screen: Screen) {
        screenRegistry.makeOnlyBuiltIn(screen)
        requestReconcile()
    }
}
