import Foundation
import WaylandClient

/// The complete screens, in announcement order, and what each one is: its
/// output-management head, whether it is built-in or external, and whether
/// it gets external scenes. It keeps the list; the application tells the
/// app and the scenes what changed.
@MainActor
final class ScreenRegistry {
    /// Complete screens, in announcement order.
    private(set) var screens: [Screen] = []
    private var classifier: ScreenClassifier
    private let options: ApplicationOptions

    init(options: ApplicationOptions) {
        self.options = options
        classifier = ScreenClassifier(
            builtInPatterns: ScreenClassifier.environmentPatterns(ProcessInfo.processInfo.environment)
                + options.builtInPatterns)
    }

    /// The screen for a described output, classified among the others; nil
    /// while the output is not fully described.
    func add(_ output: Output, heads: OutputManager?) -> Screen? {
        guard let info = output.info else { return nil }
        let screen = Screen(output: output, info: info, classification: .init(kind: .external, reason: ""))
        screen.head = Self.head(for: screen, in: heads)
        screens.append(screen)
        reclassify()
        return screen
    }

    /// The screen of `output` with its new description, classified again.
    func update(_ output: Output) -> Screen? {
        guard let screen = screens.first(where: { $0.output === output }), let info = output.info else { return nil }
        screen.update(info)
        reclassify()
        return screen
    }

    /// The screen of `output`, taken off the list and marked disconnected.
    func remove(_ output: Output) -> Screen? {
        guard let index = screens.firstIndex(where: { $0.output === output }) else { return nil }
        let screen = screens.remove(at: index)
        screen.isConnected = false
        reclassify()
        return screen
    }

    /// Every screen, taken off the list and marked disconnected (the
    /// connection went).
    func removeAll() -> [Screen] {
        let gone = screens
        screens.removeAll()
        for screen in gone { screen.isConnected = false }
        return gone
    }

    /// Makes `screen` the only built-in screen, whatever the rules say.
    func makeOnlyBuiltIn(_ screen: Screen) {
        classifier = ScreenClassifier(builtInPatterns: [screen.name])
        reclassify()
    }

    /// The output manager published a new state: each screen takes its
    /// head; returns the screens whose head changed.
    func takeHeads(from heads: OutputManager?) -> [Screen] {
        var changed: [Screen] = []
        for screen in screens {
            let next = Self.head(for: screen, in: heads)
            if next != screen.head {
                screen.head = next
                changed.append(screen)
            }
        }
        if !changed.isEmpty { reclassify() }
        return changed
    }

    /// Heads that are no Screen: outputs the compositor has disabled.
    func disabledHeads(in heads: OutputManager?) -> [ScreenHead] {
        let names = Set(screens.map(\.name))
        return (heads?.headInfos ?? []).filter { !names.contains($0.name) }.map(ScreenHead.init)
    }

    /// The head of `screen`, matched by name: the protocol promises a head's
    /// name equals its enabled output's xdg-output name.
    private static func head(for screen: Screen, in heads: OutputManager?) -> ScreenHead? {
        guard screen.info.hasConnectorName else { return nil }
        return heads?.head(named: screen.name).map(ScreenHead.init)
    }

    /// Screens that get external-display scenes.
    var targets: [Screen] { screens.filter { $0.isConnected && targetReason($0).isTarget } }

    /// Why `screen` does or does not get an external scene, in words.
    func targetReason(_ screen: Screen) -> (isTarget: Bool, reason: String) {
        if !screen.isEnabled {
            return (false, "the compositor has this output disabled (its output-management head says so)")
        }
        let (admitted, reason) = options.targets.admits(screen.classification)
        guard admitted else { return (false, reason) }
        if let filter = options.screenFilter, !filter(screen) {
            return (false, "excluded by --output")
        }
        return (true, reason)
    }

    private func reclassify() {
        // Patterns see the same make, model and serial as `ScreenPattern`
        // matching a `Screen` does (`--output`, `ctl`): the head's, where the
        // compositor offers output management; wl_output has no serial.
        let kinds = classifier.classify(
            screens.map { screen in
                var info = screen.info
                info.make = screen.make
                info.model = screen.model
                info.serial = screen.serial
                return info
            })
        for (screen, kind) in zip(screens, kinds) { screen.classification = kind }
    }
}
